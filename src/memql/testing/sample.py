"""What the conformance suite writes: records at a fixed instant, with random unit vectors of DIM
dimensions under one embedding model."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from memql.ports.record import Record
from memql.ports.store import Store, StoreSession
from memql.testing import StoreFactory

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
DIM = 16  # a backend that indexes vectors per dimension (pgvector's HNSW) indexes this one
MODEL = "test-vectors"


def unit(rng: np.random.Generator) -> np.ndarray:
    v = rng.normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def put(session: StoreSession, tenant: str, text: str, vector: np.ndarray | None, **fields: Any) -> str:
    record_id = session.insert(Record(tenant=tenant, text=text, created_at=NOW, updated_at=NOW, **fields))
    if vector is not None:
        session.update(
            tenant,
            record_id,
            {
                "embedding": vector.astype("<f4").tobytes(),
                "embedding_model": MODEL,
                "embedding_dim": DIM,
                "embedding_status": "ready",
            },
        )
    return record_id


@pytest.fixture
def store(store_factory: StoreFactory) -> Iterator[Store]:
    """A new, empty store of the backend under test."""
    s = store_factory()
    yield s
    s.close()
