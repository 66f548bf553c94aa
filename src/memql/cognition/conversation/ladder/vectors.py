"""Vectors for the ladder's write-path decisions (topic shifts, theme centroids, splits, merges).

With the Memory's embedder (MiniLM by default) the vectors are its unit embeddings; a bounded cache keeps a
text embedded once even when it is both a message and its fact. Without an embedder the ladder still
works: each text becomes a unit bag of its content words hashed into a fixed dimension (cosine = a
weighted word overlap), so offline-without-a-model stays deterministic and dependency-free. DESIGN's
thresholds (0.62, 0.78) are calibrated for sentence embeddings; with the lexical fallback themes come out
finer.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from memql.ports.models import Embedder
from memql.services.tokenize import STOP_WORDS, tokens

LEXICAL_DIMENSION = 1024
CACHE_SIZE = 8192


class Vectors:
    def __init__(self, embedder: Embedder | None) -> None:
        self.embedder = embedder
        self.dimension = embedder.dimension if embedder is not None else LEXICAL_DIMENSION
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit row vectors, one per text (a zero row for a text with no content)."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            fresh = self._model(missing) if self.embedder is not None else [_lexical(t) for t in missing]
            for text, vector in zip(missing, fresh, strict=True):
                self._cache[text] = vector
                if len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            vector = self._cache.get(text)
            out[i] = vector if vector is not None else self._one(text)
        return out

    def _one(self, text: str) -> np.ndarray:
        return self._model([text])[0] if self.embedder is not None else _lexical(text)

    def _model(self, texts: list[str]) -> list[np.ndarray]:
        assert self.embedder is not None
        return [unit(np.asarray(v, dtype=np.float32)) for v in self.embedder.embed(texts)]


def unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def centroid(vectors: np.ndarray) -> np.ndarray:
    """The unit mean direction of some unit vectors (zero when there are none)."""
    if len(vectors) == 0:
        return np.zeros(vectors.shape[1] if vectors.ndim == 2 else 0, dtype=np.float32)
    return unit(vectors.mean(axis=0))


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b))


def _lexical(text: str) -> np.ndarray:
    vector = np.zeros(LEXICAL_DIMENSION, dtype=np.float32)
    for token in tokens(text):
        if token not in STOP_WORDS and not token.isnumeric():
            vector[zlib.crc32(token.encode("utf-8")) % LEXICAL_DIMENSION] += 1.0
    return unit(vector)
