"""The SQLite lexical index is prepared off the query path (memql.store.sqlite.lexical): FTS5 answers
while a thread loads or builds the postings index, which then answers the same; a close during the
preparation publishes nothing. The preparation is held by a hook the test controls, never by timing."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from memql.ports.store import RecordQuery
from memql.store.sqlite import SQLiteStore, lexical
from memql.testing.sample import put


@pytest.fixture
def gate(monkeypatch):
    opened, waiting = threading.Event(), threading.Event()

    def hold() -> None:
        waiting.set()
        assert opened.wait(120), "the test never let the preparation go"

    monkeypatch.setattr(lexical, "PREPARE_HOOK", hold)
    yield opened, waiting
    opened.set()


def _fill(store: SQLiteStore) -> None:
    with store.transaction() as s:
        for i in range(60):
            put(s, "A", f"harbor lantern note {i} " + "beacon " * (i % 5), None)
            put(s, "B", f"harbor elsewhere {i}", None)


def _found(store: SQLiteStore, text: str) -> list[tuple[str, float]]:
    with store.read() as s:
        q = RecordQuery(text_query=text, order="relevance", limit=8)
        return [(r.id, score) for r, score in s.find("A", q)]


def test_fts5_answers_while_the_index_is_prepared_then_the_index_answers_the_same(tmp_path, gate):
    opened, waiting = gate
    store = SQLiteStore(str(tmp_path / "l.db"), lexical_index="postings")
    _fill(store)
    first = _found(store, "harbor beacon")  # starts the preparation, held: FTS5 answers at once
    assert waiting.wait(60) and store.lexical.postings is None and store.lexical.answering == "fts5"
    assert len(first) == 8
    with store.transaction() as s:  # a write during the preparation
        late = put(s, "A", "harbor beacon beacon beacon beacon beacon", None)
    during = _found(store, "harbor beacon")
    assert during[0][0] == late
    opened.set()
    store.lexical.wait()
    assert store.lexical.postings is not None
    after = _found(store, "harbor beacon")  # the index, caught up with the write made meanwhile
    assert [rid for rid, _ in after] == [rid for rid, _ in during]
    assert [s for _, s in after] == pytest.approx([s for _, s in during], rel=1e-9)
    store.close()


def test_a_close_during_the_preparation_publishes_and_saves_nothing(tmp_path, gate):
    opened, waiting = gate
    store = SQLiteStore(str(tmp_path / "l.db"), lexical_index="postings")
    _fill(store)
    _found(store, "harbor")
    assert waiting.wait(60)
    thread = store.lexical.preparing
    store.close()
    opened.set()
    thread.join(120)
    assert not thread.is_alive() and store.lexical.postings is None
    assert not list((tmp_path / "l.db.lexical").glob("*.postings"))  # nothing was saved after close
    reopened = SQLiteStore(str(tmp_path / "l.db"), lexical_index="postings")
    assert len(_found(reopened, "harbor beacon")) == 8
    reopened.lexical.wait()
    assert reopened.lexical.postings is not None and len(_found(reopened, "harbor beacon")) == 8
    reopened.close()


# a process that closes its store and exits while the index is being built: the build runs numpy's C++
# code with the GIL released (here, the hook: np.unique for a second); a daemon thread still inside it when
# the interpreter finalised was ended by pthread_exit, whose unwinding aborted the process (status 134)
_EXIT_DURING_A_BUILD = """
import sys, threading, time
import numpy as np
from memql.ports.store import RecordQuery
from memql.store.sqlite import SQLiteStore, lexical
from memql.testing.sample import put

started = threading.Event()

def busy() -> None:
    started.set()
    values, until = np.arange(50_000) % 1_000, time.monotonic() + 1.0
    while time.monotonic() < until:
        np.unique(values)

lexical.PREPARE_HOOK = busy
store = SQLiteStore(sys.argv[1], lexical_index="postings")
with store.transaction() as s:
    for i in range(20):
        put(s, "A", f"harbor lantern note {i}", None)
with store.read() as s:
    s.find("A", RecordQuery(text_query="harbor", order="relevance", limit=5))
assert started.wait(60)
store.close()
print("closed", flush=True)
"""


def test_a_process_exiting_while_the_index_is_built_exits_cleanly(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", _EXIT_DURING_A_BUILD, str(tmp_path / "l.db")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "closed"), done.stderr
    assert "terminate" not in done.stderr


def test_a_snapshot_that_cannot_be_written_costs_a_warning_not_a_search_or_a_close(tmp_path, caplog):
    (tmp_path / "l.db.lexical").write_text("a file in the way of the snapshots: none is written")
    store = SQLiteStore(str(tmp_path / "l.db"), lexical_index="postings")
    _fill(store)
    before = _found(store, "harbor beacon")
    store.lexical.wait()
    store.lexical.unsaved = 1 << 30  # as after many changes: the next search saves the index
    assert _found(store, "harbor beacon") == before
    assert store.lexical.unsaved == 0  # tried: not again before as many changes
    store.lexical.unsaved = 1
    store.close()  # (and its close's save)
    said = [r.getMessage() for r in caplog.records if r.name == "memql"]
    assert sum("could not write the lexical index's snapshot" in m for m in said) == 2, said
    reopened = SQLiteStore(str(tmp_path / "l.db"), lexical_index="postings")
    assert _found(reopened, "harbor beacon") == before
    reopened.close()


def _fts5_found(path, text: str) -> list[tuple[str, float]]:
    oracle = SQLiteStore(str(path), lexical_index="fts5")
    try:
        return _found(oracle, text)
    finally:
        oracle.close()


def test_a_loading_process_keeps_the_index_and_the_next_one_opens_it_at_its_first_search(
    tmp_path, monkeypatch
):
    """The loader never searches: its keeper absorbs each commit and close saves the index. The next
    process's first search opens that snapshot at once (no thread, no build) and answers as FTS5."""
    path = tmp_path / "l.db"
    loader = SQLiteStore(str(path), lexical_index="postings")
    _fill(loader)
    with loader.transaction() as s:  # a second commit: absorbed by the same keeper
        put(s, "A", "harbor beacon beacon beacon beacon beacon", None)
    loader.lexical.wait()  # else a close during the build would drop it
    loader.close()
    (snapshot,) = (tmp_path / "l.db.lexical").glob("*.postings")
    assert snapshot.name.endswith(".121.postings")  # every change: 120 records, then one more

    def no_build(*_args):
        raise AssertionError("the index was built instead of opened")

    monkeypatch.setattr(lexical.LexicalIndex, "_build", no_build)
    reopened = SQLiteStore(str(path), lexical_index="postings")
    found = _found(reopened, "harbor beacon")
    assert reopened.lexical.answering == "postings" and reopened.lexical.preparing is None
    want = _fts5_found(path, "harbor beacon")
    assert [rid for rid, _ in found] == [rid for rid, _ in want]
    assert [s for _, s in found] == pytest.approx([s for _, s in want], rel=1e-9)
    reopened.close()


def test_auto_keeps_no_index_below_its_threshold_and_keeps_one_from_there_on(tmp_path, monkeypatch):
    small = SQLiteStore(str(tmp_path / "s.db"))
    _fill(small)
    assert small.lexical.keeper is None
    small.close()
    assert not (tmp_path / "s.db.lexical").exists()
    monkeypatch.setattr(lexical, "POSTINGS_MIN_RECORDS", 100)
    large = SQLiteStore(str(tmp_path / "a.db"))
    _fill(large)  # 120 records
    assert large.lexical.keeper is not None
    large.lexical.wait()
    large.close()
    assert large.lexical.keeper is None
    assert len(list((tmp_path / "a.db.lexical").glob("*.postings"))) == 1


def test_an_opened_snapshot_is_never_written_by_this_process(tmp_path):
    """Mapped copy-on-write: a record deleted after the reopen tombstones it in this process only; the
    snapshot on disk changes only when a new one replaces it."""
    path = tmp_path / "l.db"
    loader = SQLiteStore(str(path), lexical_index="postings")
    _fill(loader)
    loader.lexical.wait()
    loader.close()
    (snapshot,) = (tmp_path / "l.db.lexical").glob("*.postings")
    before = snapshot.read_bytes()
    reopened = SQLiteStore(str(path), lexical_index="postings")
    gone = _found(reopened, "harbor beacon")[0][0]
    with reopened.transaction() as s:
        s.hard_delete("A", [gone])
    after = _found(reopened, "harbor beacon")
    assert gone not in [rid for rid, _ in after] and after == _fts5_found(path, "harbor beacon")
    assert snapshot.read_bytes() == before
    reopened.close()
    assert not snapshot.exists()  # replaced by the snapshot with the delete
