"""A pure-Python BERT WordPiece tokenizer, matching Hugging Face's BertTokenizer(Fast).

The pipeline follows the ``tokenizers`` library (the fast tokenizer sentence-transformers uses):
BertNormalizer (clean text, pad CJK ideographs with spaces, strip accents, lowercase), BertPreTokenizer
(split on whitespace, isolate each punctuation character), WordPiece (greedy longest-match-first with
``##`` continuations, words longer than ``max_input_chars_per_word`` become [UNK]) and the
``[CLS] … [SEP]`` template.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from functools import lru_cache

# CJK ideograph blocks as the ``tokenizers`` BertNormalizer defines them (each char becomes its own word)
_CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
# Unicode White_Space (Rust's char::is_whitespace), which the fast tokenizer uses
_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def _is_cjk(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


def _is_whitespace(ch: str) -> bool:
    return ch in _WHITESPACE


def _is_control(ch: str) -> bool:
    # Cc/Cf/Co/Cs are dropped; unassigned code points (Cn) are kept (and become [UNK]) as in ``tokenizers``
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs")


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


class WordPieceTokenizer:
    """Text → BERT input ids. Immutable after construction, so safe to share across threads."""

    def __init__(
        self,
        vocab: list[str],
        *,
        do_lower_case: bool = True,
        strip_accents: bool | None = None,
        tokenize_chinese_chars: bool = True,
        clean_text: bool = True,
        unk_token: str = "[UNK]",
        cls_token: str = "[CLS]",
        sep_token: str = "[SEP]",
        pad_token: str = "[PAD]",
        continuing_subword_prefix: str = "##",
        max_input_chars_per_word: int = 100,
        added_tokens: dict[str, int] | None = None,
    ) -> None:
        self.vocab: dict[str, int] = {}
        for i, tok in enumerate(vocab):
            self.vocab.setdefault(tok, i)
        self.do_lower_case = do_lower_case
        self.strip_accents = do_lower_case if strip_accents is None else strip_accents
        self.tokenize_chinese_chars = tokenize_chinese_chars
        self.clean_text = clean_text
        self.prefix = continuing_subword_prefix
        self.max_input_chars_per_word = max_input_chars_per_word
        self.unk_id = self.vocab[unk_token]
        self.cls_id = self.vocab[cls_token]
        self.sep_id = self.vocab[sep_token]
        self.pad_id = self.vocab[pad_token]
        # added tokens (the special ones for BERT) are matched verbatim in the raw text before normalisation
        if added_tokens is None:
            added_tokens = {
                t: self.vocab[t]
                for t in (unk_token, cls_token, sep_token, pad_token, "[MASK]")
                if t in self.vocab
            }
        self.added_tokens = dict(added_tokens)
        alternation = "|".join(re.escape(t) for t in sorted(self.added_tokens, key=len, reverse=True))
        self._added_re = re.compile(f"({alternation})") if alternation else None
        # bound per instance so that the cache dies with the tokenizer
        self._wordpiece = lru_cache(maxsize=65536)(self._wordpiece_uncached)

    @classmethod
    def from_dir(cls, model_dir: str | os.PathLike[str]) -> WordPieceTokenizer:
        """Builds the tokenizer from vocab.txt and tokenizer_config.json (tokenizer.json when present)."""
        with open(os.path.join(model_dir, "vocab.txt"), encoding="utf-8") as fh:
            vocab = [line.rstrip("\n").rstrip("\r") for line in fh]
        if vocab and vocab[-1] == "":
            vocab.pop()
        cfg: dict = {}
        path = os.path.join(model_dir, "tokenizer_config.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                cfg = json.load(fh)
        kwargs: dict = {
            "do_lower_case": bool(cfg.get("do_lower_case", True)),
            "strip_accents": cfg.get("strip_accents"),
            "tokenize_chinese_chars": bool(cfg.get("tokenize_chinese_chars", True)),
        }
        for key in ("unk_token", "cls_token", "sep_token", "pad_token"):
            if isinstance(cfg.get(key), str):
                kwargs[key] = cfg[key]
        path = os.path.join(model_dir, "tokenizer.json")
        if os.path.exists(path):  # the fast tokenizer's own settings win where it states them
            with open(path, encoding="utf-8") as fh:
                tj = json.load(fh)
            norm = tj.get("normalizer") or {}
            if norm.get("type") == "BertNormalizer":
                kwargs["do_lower_case"] = bool(norm.get("lowercase", kwargs["do_lower_case"]))
                kwargs["strip_accents"] = norm.get("strip_accents")
                kwargs["tokenize_chinese_chars"] = bool(norm.get("handle_chinese_chars", True))
                kwargs["clean_text"] = bool(norm.get("clean_text", True))
            added = [a for a in tj.get("added_tokens") or [] if not a.get("normalized", False)]
            if added:
                kwargs["added_tokens"] = {a["content"]: int(a["id"]) for a in added}
            model = tj.get("model") or {}
            if model.get("type") == "WordPiece":
                kwargs["max_input_chars_per_word"] = int(model.get("max_input_chars_per_word", 100))
                kwargs["continuing_subword_prefix"] = model.get("continuing_subword_prefix", "##")
                if isinstance(model.get("unk_token"), str):
                    kwargs["unk_token"] = model["unk_token"]
        return cls(vocab, **kwargs)

    # -- normalisation and pre-tokenisation --------------------------------------------------------------

    def normalize(self, text: str) -> str:
        if self.clean_text:
            out = []
            for ch in text:
                if ch == "\x00" or ch == "\ufffd" or _is_control(ch):
                    continue
                out.append(" " if _is_whitespace(ch) else ch)
            text = "".join(out)
        if self.tokenize_chinese_chars:
            text = "".join(f" {ch} " if _is_cjk(ord(ch)) else ch for ch in text)
        if self.strip_accents:
            text = "".join(
                ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn"
            )
        if self.do_lower_case:
            text = text.lower()
        return text

    @staticmethod
    def pre_tokenize(text: str) -> list[str]:
        """Splits on whitespace and isolates every punctuation character."""
        words: list[str] = []
        current: list[str] = []
        for ch in text:
            if _is_whitespace(ch):
                if current:
                    words.append("".join(current))
                    current = []
            elif _is_punctuation(ch):
                if current:
                    words.append("".join(current))
                    current = []
                words.append(ch)
            else:
                current.append(ch)
        if current:
            words.append("".join(current))
        return words

    # -- WordPiece ---------------------------------------------------------------------------------------

    def _wordpiece_uncached(self, word: str) -> tuple[int, ...]:
        if len(word) > self.max_input_chars_per_word:
            return (self.unk_id,)
        vocab, ids, start, n = self.vocab, [], 0, len(word)
        while start < n:
            end = n
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else self.prefix + word[start:end]
                found = vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (self.unk_id,)
            ids.append(found)
            start = end
        return tuple(ids)

    def tokenize_ids(self, text: str) -> list[int]:
        """Word-piece ids of ``text`` without special tokens."""
        ids: list[int] = []
        segments = self._added_re.split(text) if self._added_re is not None else [text]
        for k, segment in enumerate(segments):
            if k % 2:  # odd positions are the captured added tokens
                ids.append(self.added_tokens[segment])
                continue
            for word in self.pre_tokenize(self.normalize(segment)):
                ids.extend(self._wordpiece(word))
        return ids

    def encode(self, text: str, max_length: int | None = None) -> list[int]:
        """``[CLS] pieces [SEP]``, truncating the pieces so the whole fits in ``max_length`` when given."""
        ids = self.tokenize_ids(text)
        if max_length is not None:
            ids = ids[: max(0, max_length - 2)]
        return [self.cls_id, *ids, self.sep_id]

    def tokens(self, text: str) -> list[str]:
        """The token strings of ``encode(text)`` (for debugging and tests)."""
        inverse = {i: t for t, i in self.vocab.items()}
        return [inverse[i] for i in self.encode(text)]
