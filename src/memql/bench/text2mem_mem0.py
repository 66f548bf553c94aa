"""The Text2Mem Bench on a mem0 store: the same samples and gold IRs, run through memql.adapters.mem0 on a
real mem0 OSS `Memory` (qdrant's local on-disk store, embeddings from memql's /v1/embeddings served on
127.0.0.1 by this process, no LLM).

Each sample gets a scope of its own (a fresh mem0 `user_id`) in one mem0 store for the whole run; its
assertions read the `memory` view of the records the adapter reads back from mem0 afterwards.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from memql.bench.text2mem import SampleStore, SampleTarget


@contextmanager
def mem0_samples(embedder: str = "auto") -> Iterator[SampleStore]:
    """A SampleStore over one mem0 store, for as long as the block runs (then its files are removed).
    `embedder`: memql's choice (as `memql serve --embedder`), for the server mem0 embeds through and for
    the adapter's own reads — the same model on both sides."""
    os.environ["MEM0_TELEMETRY"] = "False"  # mem0 reads it at import: nothing leaves the machine
    with tempfile.TemporaryDirectory(prefix="memql-mem0-bench-") as root:
        os.environ.setdefault("MEM0_DIR", os.path.join(root, "home"))
        from mem0 import Memory as Mem0

        from memql.adapters.mem0 import Mem0Adapter, local_mem0_config
        from memql.interfaces.apikeys import create_key
        from memql.interfaces.rest.server import background_server
        from memql.memory import default_embedder
        from memql.services.embedding import MiniLMEmbedder
        from memql.services.embedding.cache import CachedEmbedder
        from memql.store import open_store

        keys = open_store(":memory:")
        key = create_key(keys, tenant="mem0-bench", actor="mem0", role="user", now=datetime.now(UTC))
        # one model for both sides, remembering vectors by text: mem0 re-embeds a memory on every update,
        # even when only its metadata changed, and the adapter embeds the same texts memql-side
        shared = CachedEmbedder(MiniLMEmbedder.shared())
        ours = shared if default_embedder(embedder) is not None else None
        with background_server(keys, embedder=shared) as base:
            mem0 = Mem0.from_config(local_mem0_config(root, base_url=base + "/v1", api_key=key.secret))

            @contextmanager
            def sample(clock: Any) -> Iterator[SampleTarget]:
                scope = {"user_id": f"bench-{uuid.uuid4().hex[:12]}"}
                adapter = Mem0Adapter(mem0, scope=scope, actor="bench", clock=clock, embedder=ours)

                @contextmanager
                def assertion_store() -> Iterator[Any]:
                    with adapter.snapshot() as memory:
                        yield memory.store

                try:
                    yield SampleTarget(adapter.execute, assertion_store)
                finally:
                    mem0.delete_all(user_id=scope["user_id"])

            try:
                yield sample
            finally:
                mem0.close()
        keys.close()
