"""Long library work reports how far it has come through the Progress port (memql.ports.progress), on every
backend: embedding backfill per batch, an a2p import per workflow step, a store copy per batch. What is
reported matches what was done; reporting changes nothing."""

from __future__ import annotations

import hashlib

import numpy as np

from helpers_profile import A2P_PROFILE, PROFILE_CONFIG
from memql.store.copy import copy_store

PROFILE = A2P_PROFILE


class Hashed:
    """A deterministic embedder (feature hashing): real unit vectors without a model."""

    model = "test-hashed"
    dimension = 8

    def embed(self, texts):
        out = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).normal(size=self.dimension)
            out.append((v / np.linalg.norm(v)).tolist())
        return out


class Heard:
    """A Progress that remembers every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int | None, int | None]] = []

    def __call__(self, message: str, done: int | None = None, total: int | None = None) -> None:
        self.calls.append((message, done, total))

    def counts(self, message: str) -> list[int | None]:
        return [done for m, done, _ in self.calls if m == message]


def test_embedding_backfill_reports_the_count_after_each_batch(memory):
    m = memory(embedder=Hashed())
    for i in range(5):
        assert m.encode(f"note number {i}", skip_embedding=True).success
    heard = Heard()
    assert m.embed_pending(batch=2, progress=heard) == 5
    assert heard.counts("embedding pending records") == [0, 2, 4, 5]
    assert {total for _, _, total in heard.calls} == {None}  # not known in advance
    assert m.embed_pending(batch=2, progress=heard) == 0  # nothing left: the count stays at 0
    assert heard.calls[-1] == ("embedding pending records", 0, None)


def test_an_import_reports_each_workflow_step_out_of_all(memory):
    m = memory(config=PROFILE_CONFIG)
    heard = Heard()
    result = m.import_a2p(PROFILE.read_text(encoding="utf-8"), progress=heard)
    assert result.success
    (task,) = {message for message, _, _ in heard.calls}
    steps = len(result.result.steps)
    assert task.startswith(f"importing {len(result.imported)} memories ({steps} steps")
    assert heard.counts(task) == list(range(steps + 1))
    assert {total for _, _, total in heard.calls} == {steps}


def test_a_refused_import_reports_nothing(memory):
    heard = Heard()
    result = memory(config=PROFILE_CONFIG).import_a2p('{"memories": 3}', progress=heard)
    assert not result.success and heard.calls == []


def test_a_copy_reports_records_then_operations_per_batch(memory):
    source = memory(embedder=Hashed())
    for i in range(5):
        assert source.encode(f"copied note {i}").success
    destination = memory()
    heard = Heard()
    report = copy_store(source.store, destination.store, batch=2, progress=heard)
    assert report.records == 5
    assert heard.counts("copying records") == [2, 4, 5]
    operations = heard.counts("copying the audit log (operations)")
    assert operations[-1] == report.operations and operations == sorted(operations)
    assert [m for m, _, _ in heard.calls].index("copying records") == 0
    assert len(destination.retrieve("copied note", k=10).data["rows"]) == 5  # reporting changed nothing
