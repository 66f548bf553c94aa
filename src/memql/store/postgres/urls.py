"""Where a PostgreSQL store is: memql's URL (a libpq URL plus memql's own `schema` and `pool_max`
parameters), read into what psycopg and the pool take, and said without its password."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from memql.errors import MemqlError

DEFAULT_SCHEMA = "memql"


class StoreUnavailable(MemqlError, RuntimeError):
    """The PostgreSQL store cannot be opened (the server, the URL or the role's rights)."""


def parts_for_message(url: str) -> str:
    """The URL without its password."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    user = f"{parts.username}@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}{host}{port}"))


_OWN_PARAMETERS = ("schema", "pool_max")


def split_url(url: str) -> tuple[str, str]:
    """(libpq connection string, schema) from a memql PostgreSQL URL (memql's own parameters removed)."""
    parts = urlsplit(url)
    params = parse_qsl(parts.query, keep_blank_values=True)
    schema = next((v for k, v in params if k == "schema"), DEFAULT_SCHEMA)
    rest = urlencode([(k, v) for k, v in params if k not in _OWN_PARAMETERS])
    return urlunsplit(parts._replace(query=rest)), schema


def pool_max(url: str, default: int) -> int:
    """The URL's `pool_max` (connections a store may open at once), else `default`."""
    value = next((v for k, v in parse_qsl(urlsplit(url).query) if k == "pool_max"), None)
    if value is None:
        return default
    if not value.isdigit() or int(value) < 1:
        raise StoreUnavailable(f"pool_max must be a positive number of connections, not {value!r}")
    return int(value)
