"""Carrying a program's effect into mem0, which has no transactions: the writes in a safe order, and on a
failure the writes already made undone in reverse (compensation).

Order: adds first, then updates, then deletes — so a Merge or a Split that fails half-way has lost
nothing (its new records are removed again; the old ones were not yet touched)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memql.adapters.mem0.records import Stored
from memql.errors import MemqlError


@dataclass
class Write:
    """One mem0 call to make: `kind` add | update | delete, for the memql record `record_id`."""

    kind: str
    record_id: str
    text: str | None = None  # add, update: the memory's text
    metadata: dict[str, Any] = field(default_factory=dict)  # add, update: the memql metadata
    before: Stored | None = None  # update, delete: what mem0 held (to put back)


@dataclass
class Applied:
    """What was done, so it can be undone: the write and the mem0 id it touched or made."""

    write: Write
    mem0_id: str


class WriteFailed(MemqlError, RuntimeError):
    """A mem0 call failed; `undone` says whether every earlier write was compensated."""

    def __init__(self, write: Write, cause: BaseException, undone: bool, leftovers: list[str]) -> None:
        super().__init__(f"mem0 {write.kind} of record {write.record_id} failed: {cause}")
        self.write, self.cause, self.undone, self.leftovers = write, cause, undone, leftovers


ORDER = {"add": 0, "update": 1, "delete": 2}


def apply_writes(mem0: Any, scope: dict[str, str], writes: list[Write]) -> list[Applied]:
    """Make `writes` on `mem0` in the safe order. Raises WriteFailed after compensating what was
    applied."""
    applied: list[Applied] = []
    for write in sorted(writes, key=lambda w: ORDER[w.kind]):
        try:
            mem0_id = _make(mem0, scope, write)
        except Exception as exc:  # mem0 raises its own errors, the vector store's and the embedder's
            leftovers = compensate(mem0, scope, applied)
            raise WriteFailed(write, exc, not leftovers, leftovers) from exc
        applied.append(Applied(write, mem0_id))
    return applied


def _make(mem0: Any, scope: dict[str, str], write: Write) -> str:
    if write.kind == "add":
        added = mem0.add(write.text, **scope, metadata=write.metadata, infer=False)
        (result,) = added["results"]
        return str(result["id"])
    assert write.before is not None
    if write.kind == "update":
        text = write.text if write.text != write.before.text else None  # metadata only: no new text
        mem0.update(write.before.mem0_id, text=text, metadata=write.metadata)
    else:
        mem0.delete(write.before.mem0_id)
    return write.before.mem0_id


def compensate(mem0: Any, scope: dict[str, str], applied: list[Applied]) -> list[str]:
    """Undo `applied` in reverse: remove what was added, put back what was updated, re-add what was
    deleted (under a new mem0 id, with its memql id). Returns the record ids it could not restore."""
    leftovers: list[str] = []
    for done in reversed(applied):
        write = done.write
        try:
            if write.kind == "add":
                mem0.delete(done.mem0_id)
            elif write.kind == "update" and write.before is not None:
                mem0.update(done.mem0_id, text=write.before.text, metadata=write.before.metadata)
            elif write.before is not None:
                mem0.add(write.before.text, **scope, metadata=write.before.metadata, infer=False)
        except Exception:  # keep undoing the rest; the caller reports what is left
            leftovers.append(write.record_id)
    return leftovers
