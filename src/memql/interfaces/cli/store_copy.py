"""`memql copy SRC DST`: copy a whole store into an empty one, between backends (SQLite <-> PostgreSQL)."""

from __future__ import annotations

import sqlite3
import sys
from dataclasses import asdict

import click

from memql.interfaces.cli.common import emit_json, file_exists, main, store_problem, wants_json
from memql.interfaces.cli.progress import progress_bars


@main.command("copy")
@click.argument("source")
@click.argument("destination")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def copy_command(source: str, destination: str, as_json: bool) -> None:
    """Copy every tenant's records (with embeddings), links and audit log from SOURCE into the empty
    store DESTINATION, keeping ids and sequence numbers. Each is a SQLite path or a PostgreSQL URL.

    Exits 0 when copied, 1 when DESTINATION is not empty, 2 when a store cannot be opened.
    """
    from memql.store import is_postgres_url, open_store
    from memql.store.copy import CopyRefused, copy_store

    if not is_postgres_url(source) and not file_exists(source):
        click.echo(f"memql: no store at {source}", err=True)  # opening it would create an empty one
        sys.exit(2)
    stores = []
    try:
        for location in (source, destination):
            try:
                stores.append(open_store(location))
            except (OSError, ValueError, RuntimeError, sqlite3.DatabaseError) as exc:
                click.echo(store_problem(location, exc), err=True)
                sys.exit(2)
        try:
            with progress_bars() as progress:
                report = copy_store(stores[0], stores[1], progress=progress)
        except CopyRefused as exc:
            click.echo(f"memql: {destination}: {exc}; nothing copied", err=True)
            sys.exit(1)
    finally:
        for store in stores:
            store.close()
    if wants_json(as_json):
        emit_json(asdict(report))
    else:
        click.echo(
            f"copied {report.records} records, {report.links} links, {report.operations} operations "
            f"({report.events} events); next id {report.last_record_number + 1}"
        )
