"""The statement that inserts one record (with its lexical index entries) on PostgreSQL, built once."""

from __future__ import annotations

import re

from memql.store.postgres import codec, lexical


def _insert_sql(numbered: bool) -> tuple[str, list[str]]:
    """INSERT of a record with its lexical index entries; its number from the counter, or %(num)s.

    With PostgreSQL's own placeholders ($1, $2, …; one a parameter name) and the names in their order,
    for a RawCursor: psycopg parses a query of more than 50 parameters anew at every execution (it caches
    only smaller ones), 0.4 ms of CPU an insert."""
    num = "(SELECT value FROM c)" if numbered else "%(num)s::bigint"
    # the counter's row: numbered, the next number; given, the row locked all the same (the change log's
    # numbers are drawn under that lock, lexical.CHANGE_LOG)
    counter = "value + 1 WHERE name = 'record_num' RETURNING value"
    if not numbered:
        counter = "value WHERE name = 'record_num' RETURNING %(num)s::bigint AS value"
    ctes = [f"c AS (UPDATE counters SET value = {counter})", f"x AS ({lexical.CHANGE_LOG}value FROM c)"]
    ctes += lexical.add_ctes(num)
    values = ", ".join(
        (num, *(f"%(c_{name})s" for name in codec.COLUMNS), "%(vec)s::vector", "%(path_vecs)s::vector[]")
    )
    columns = f"{codec.SELECT_COLUMNS}, path_vecs"
    statement = f"WITH {', '.join(ctes)} INSERT INTO records ({columns}) VALUES ({values}) RETURNING num"
    names: list[str] = []

    def number(placeholder: re.Match[str]) -> str:
        if placeholder[1] not in names:
            names.append(placeholder[1])
        return f"${names.index(placeholder[1]) + 1}"

    return re.sub(r"%\((\w+)\)s", number, statement), names


INSERT_NUMBERED, INSERT_GIVEN = _insert_sql(True), _insert_sql(False)
