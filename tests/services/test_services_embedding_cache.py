"""CachedEmbedder: the same vectors as the model, a text embedded once while it stays in the cache."""

from __future__ import annotations

import numpy as np
import pytest

from memql.services.embedding import MiniLMEmbedder, available
from memql.services.embedding.cache import CachedEmbedder

pytestmark = pytest.mark.skipif(not available(), reason="the packaged MiniLM weights are not installed")


def test_cached_vectors_are_the_models_and_a_repeat_is_a_hit():
    model = MiniLMEmbedder.shared()
    cached = CachedEmbedder(model, max_items=2)
    assert (cached.model, cached.dimension) == (model.model, model.dimension)
    texts = ["tea at four", "the train leaves at nine", "tea at four"]
    first = cached.embed(texts)
    assert np.allclose(first, model.embed(texts), atol=1e-6)
    assert (cached.hits, cached.misses) == (1, 2)  # the repeat inside one call is embedded once
    assert np.allclose(cached.embed(["tea at four"]), first[:1])
    assert (cached.hits, cached.misses) == (2, 2)
    cached.embed(["a third text"])  # evicts the least recently used ("the train leaves at nine")
    cached.embed(["the train leaves at nine"])
    assert cached.misses == 4
    assert cached.token_ids("tea") == model.token_ids("tea")


def test_the_size_is_checked():
    with pytest.raises(ValueError, match="max_items"):
        CachedEmbedder(MiniLMEmbedder.shared(), max_items=0)
