"""memql.index.vectors: ExactVectors's bulk put and its layer bookkeeping (cleared keys), HNSWVectors's
memory-mapped snapshots and copies."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.index.vectors import ExactVectors, HNSWVectors

DIM = 8


def _vector(seed: int, dim: int = DIM) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


# an operation: (key, None) clears, (key, seed) stores that seed's vector; a few of another dimension
operations = st.lists(
    st.tuples(st.integers(1, 40), st.one_of(st.none(), st.integers(0, 1000))), min_size=0, max_size=200
)


@settings(max_examples=examples(60), deadline=None)
@given(first=operations, second=operations)
def test_put_many_leaves_what_put_one_at_a_time_leaves(first, second):
    one, many = ExactVectors(), ExactVectors()
    for batch in (first, second):
        vectors = [None if seed is None else _vector(seed, 4 if seed % 97 == 0 else DIM) for _, seed in batch]
        for (key, _), vector in zip(batch, vectors, strict=True):
            one.put(key, vector)
        many.put_many([key for key, _ in batch], vectors)
    assert one.dimension == many.dimension and one.cleared == many.cleared
    query = _vector(-1 % 1000, one.dimension) if one.dimension else None
    if query is not None:
        keys_one, scores_one = one.scores(query, live_only=True)
        keys_many, scores_many = many.scores(query, live_only=True)
        assert dict(zip(keys_one.tolist(), scores_one.tolist(), strict=True)) == dict(
            zip(keys_many.tolist(), scores_many.tolist(), strict=True)
        )
    held = sorted(set(one.held().tolist()))
    assert held == sorted(set(many.held().tolist()))
    assert [many.holds(k) for k in range(45)] == [one.holds(k) for k in range(45)]


def test_a_cleared_key_is_held_until_it_has_a_vector_again():
    layer = ExactVectors()
    layer.put(1, _vector(1))
    layer.put(2, None)  # never stored here: remembered as cleared (a layer over a graph hides it)
    layer.put(1, None)
    assert layer.holds(2) and layer.holds(1) and not layer.holds(3)
    keys, matrix, cleared = layer.export()
    assert len(keys) == 0 and sorted(cleared) == [1, 2]
    layer.put(2, _vector(2))
    keys, matrix, cleared = layer.export()
    assert keys.tolist() == [2] and np.allclose(matrix[0], _vector(2)) and cleared == [1]
    rebuilt = ExactVectors.from_arrays(keys, matrix, cleared)
    assert rebuilt.holds(1) and rebuilt.vectors([1, 2])[0].tolist() == [2]


def test_a_memory_mapped_graph_answers_and_its_copy_changes_alone(tmp_path):
    graph = HNSWVectors(DIM)
    graph.put_many(list(range(1, 101)), np.stack([_vector(i) for i in range(1, 101)]))
    graph.save(tmp_path / "g.usearch")
    viewed = HNSWVectors.load(tmp_path / "g.usearch", view=True)
    assert viewed.nearest(_vector(7), 1)[0].tolist() == [7]
    copy = viewed.copy()
    copy.clear([7])
    copy.put_many([500], _vector(7)[None, :])
    assert copy.nearest(_vector(7), 1)[0].tolist() == [500]
    assert viewed.nearest(_vector(7), 1)[0].tolist() == [7]  # the snapshot is untouched
    assert viewed.contains(np.array([7, 500])).tolist() == [True, False]


def test_an_insertion_told_to_stop_stops_at_its_next_slice(monkeypatch):
    from memql.index import vectors

    monkeypatch.setattr(vectors, "PARALLEL_BUILD_MIN", 10)
    graph, asked = HNSWVectors(DIM), []

    def keep_going() -> bool:
        asked.append(len(graph))
        return len(asked) < 3  # two slices, then stop

    done = graph.put_many(list(range(1, 41)), np.stack([_vector(i) for i in range(1, 41)]), keep_going)
    assert done is False and asked == [0, 10, 20] and len(graph) == 20
    assert graph.put_many([99], _vector(99)[None, :], lambda: True) is True and len(graph) == 21


def test_a_large_layer_scores_as_the_matrix_product_does():
    """Past BLAS_MAX_ROWS rows the scores come from numpy's own loop, not BLAS: the same products."""
    from memql.index import vectors

    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((vectors.BLAS_MAX_ROWS + 500, 24)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    layer = ExactVectors()
    layer.put_many(list(range(1, len(matrix) + 1)), list(matrix))
    query = matrix[7]
    keys, scores = layer.scores(query)
    assert len(keys) > vectors.BLAS_MAX_ROWS and keys[7] == 8
    assert np.allclose(scores, matrix.astype(np.float64) @ query.astype(np.float64), atol=1e-5)
    assert int(np.argmax(scores)) == 7


def test_a_search_is_as_broad_as_its_graph_needs_and_never_narrower_than_asked(monkeypatch):
    from memql.index import vectors

    assert vectors.search_breadth(1_000) == vectors.search_breadth(vectors.SMALL_GRAPH - 1) == 1024
    assert vectors.search_breadth(vectors.SMALL_GRAPH) == vectors.search_breadth(1_000_000) == 2048
    graph = HNSWVectors(DIM)
    graph.put_many(list(range(1, 51)), np.stack([_vector(k) for k in range(1, 51)]))
    graph.nearest(_vector(7), 10)
    assert graph.index.expansion_search == 1024
    graph.nearest(_vector(7), 3000)  # more candidates than the breadth: at least as broad as asked
    assert graph.index.expansion_search == 3000
    monkeypatch.setattr(vectors, "SMALL_GRAPH", 50)  # a graph of 50 is a large one now
    graph.nearest(_vector(7), 10)
    assert graph.index.expansion_search == 2048
