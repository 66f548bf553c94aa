"""A deterministic embedder for the tests that need vectors without the real model: each word adds a
fixed pseudo-random direction, normalised, so texts that share words point alike."""

from __future__ import annotations

import hashlib

import numpy as np


class WordHashEmbedder:
    """`WordHashEmbedder(32)`: vectors of 32 dimensions, model "word-hash-32"."""

    def __init__(self, dimension: int = 32) -> None:
        self.dimension = dimension
        self.model = f"word-hash-{dimension}"

    def embed(self, texts):
        out = []
        for text in texts:
            v = np.zeros(self.dimension)
            for word in text.lower().split():
                seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
                v += np.random.default_rng(seed).standard_normal(self.dimension)
            norm = np.linalg.norm(v)
            out.append((v / norm if norm else v).tolist())
        return out
