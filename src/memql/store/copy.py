"""Copy a whole store into an empty one, between any two backends (`memql copy SRC DST`).

Records (every field, embeddings included, under their ids), links, the audit log (operations and
events under their sequence numbers) and the record counter move through the Store port's export and
import methods (memql.ports.store.PortableSession), in batches, in one destination transaction: a copy
that fails leaves the destination as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from memql.errors import MemqlError
from memql.ports.progress import Progress, silent
from memql.ports.store import Store

BATCH = 2_000


class CopyRefused(MemqlError):
    """The destination is not empty."""


@dataclass
class CopyReport:
    records: int = 0
    links: int = 0
    operations: int = 0
    events: int = 0
    last_record_number: int = 0


def copy_store(
    source: Store, destination: Store, batch: int = BATCH, progress: Progress = silent
) -> CopyReport:
    """Copy everything from `source` into the empty `destination`; `progress` hears the records, then
    the operations of the audit log, copied so far (their totals are not known in advance)."""
    report = CopyReport()
    with source.dry_run() as src, destination.transaction() as dst:
        src.export_begin()  # type: ignore[attr-defined]
        if not dst.is_empty():  # type: ignore[attr-defined]
            raise CopyRefused("the destination store is not empty")
        after = 0
        while records := src.export_records(after, batch):  # type: ignore[attr-defined]
            dst.import_records(records)  # type: ignore[attr-defined]
            report.records += len(records)
            after = int(records[-1].id)  # type: ignore[arg-type]
            progress("copying records", report.records)
        links = src.export_links()  # type: ignore[attr-defined]
        dst.import_links(links)  # type: ignore[attr-defined]
        report.links = len(links)
        after = 0
        while entries := src.export_log(after, batch):  # type: ignore[attr-defined]
            dst.import_log(entries)  # type: ignore[attr-defined]
            report.operations += len(entries)
            report.events += sum(len(events) for _, events in entries)
            after = entries[-1][0].seq
            progress("copying the audit log (operations)", report.operations)
        report.last_record_number = src.last_record_number()  # type: ignore[attr-defined]
        dst.set_last_record_number(report.last_record_number)  # type: ignore[attr-defined]
    return report
