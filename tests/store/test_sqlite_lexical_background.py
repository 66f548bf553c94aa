"""The SQLite lexical index is prepared off the query path (memql.store.sqlite.lexical): FTS5 answers
while a thread loads or builds the postings index, which then answers the same; a close during the
preparation publishes nothing. The preparation is held by a hook the test controls, never by timing."""

from __future__ import annotations

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
    assert not list((tmp_path / "l.db.lexical").glob("*.npz"))  # nothing was saved after close
    reopened = SQLiteStore(str(tmp_path / "l.db"), lexical_index="postings")
    assert len(_found(reopened, "harbor beacon")) == 8
    reopened.lexical.wait()
    assert reopened.lexical.postings is not None and len(_found(reopened, "harbor beacon")) == 8
    reopened.close()
