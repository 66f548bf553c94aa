"""An Embedder that remembers the vectors of the texts it embedded last (a bounded LRU): the same text
embedded again — mem0 re-embedding a memory whose metadata alone changed, the same text on both sides of
memql.adapters.mem0 — costs a dictionary look-up instead of a forward pass. Vectors are deterministic, so
a cached one is the one the model would give."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from memql.ports.models import Embedder


class CachedEmbedder:
    """`inner`'s vectors, the last `max_items` distinct texts kept (thread-safe)."""

    def __init__(self, inner: Embedder, max_items: int = 10_000) -> None:
        if max_items < 1:
            raise ValueError("max_items: at least 1")
        self.inner, self.max_items = inner, max_items
        self.model, self.dimension = inner.model, inner.dimension
        self.hits = self.misses = 0
        self._cache: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        with self._lock:
            found = {t: self._cache[t] for t in texts if t in self._cache}
            for text in found:
                self._cache.move_to_end(text)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        fresh = dict(zip(missing, self.inner.embed(missing), strict=True)) if missing else {}
        with self._lock:
            self.hits += len(texts) - len(missing)
            self.misses += len(missing)
            for text, vector in fresh.items():
                self._cache[text] = vector
                if len(self._cache) > self.max_items:
                    self._cache.popitem(last=False)
        return [list(found.get(t) or fresh[t]) for t in texts]

    def token_ids(self, text: str) -> list[int]:
        """The inner model's token ids, when it has a tokenizer (what /v1/embeddings counts as usage)."""
        return self.inner.token_ids(text)  # type: ignore[attr-defined]
