"""Text helpers of the rules planner: folding that keeps offsets, quoted spans, language detection."""

from __future__ import annotations

import re

from memql.services.tokenize import index_term, is_cjk

_QUOTE_FOLD = {
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "「": '"',
    "」": '"',
    "『": '"',
    "』": '"',
    "《": '"',
    "》": '"',
}

# a quoted span: the opening quote not inside a latin word (so "today's" is no quote; after a Chinese
# character it is), the closing one not followed by a letter; “”「」 and the like are folded to '"' first
QUOTED = re.compile(r"(?<![A-Za-z0-9_'])'(?P<s>[^'\n]{1,200}?)'(?![a-z])|\"(?P<d>[^\"\n]{1,200}?)\"")


# full-width ASCII to half-width, the ideographic space to a space, curly and corner quotes straight
_FOLD_TABLE = (
    {code: _QUOTE_FOLD.get(chr(code - 0xFEE0), chr(code - 0xFEE0)) for code in range(0xFF01, 0xFF5F)}
    | {0x3000: " "}
    | {ord(quote): straight for quote, straight in _QUOTE_FOLD.items()}
)


def fold(text: str) -> str:
    """Lower-case, half-width, straight-quoted text as long as `text` (offsets carry over). By str's own
    translate and lower (the planner folds each piece of an instruction it reads), except for a text whose
    lower case is not one character for one — "İ" — or depends on the word: a final "Σ"."""
    folded = text.translate(_FOLD_TABLE).lower()
    if len(folded) == len(text) and "Σ" not in text:
        return folded
    return _fold_each(text)


def _fold_each(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if 0xFF01 <= code <= 0xFF5E:  # full-width ASCII
            ch = chr(code - 0xFEE0)
        elif code == 0x3000:
            ch = " "
        ch = _QUOTE_FOLD.get(ch, ch)
        lower = ch.lower()
        out.append(lower if len(lower) == 1 else ch)
    return "".join(out)


def detect_lang(text: str) -> str:
    return "zh" if any(is_cjk(ch) for ch in text) else "en"


def quoted(folded: str) -> list[tuple[int, int, str]]:
    """(start, end, inner) of each quoted span; start/end include the quotes."""
    found = []
    for m in QUOTED.finditer(folded):
        inner = m.group("s") if m.group("s") is not None else m.group("d")
        if inner.strip():
            found.append((m.start(), m.end(), inner))
    return found


def mask_quotes(folded: str) -> str:
    """The text with every quoted span's inside replaced by '_' (same length): patterns then never match
    words a user quoted ("tag it 'then'")."""
    chars = list(folded)
    for start, end, _ in quoted(folded):
        for i in range(start + 1, end - 1):
            chars[i] = "_"
    return "".join(chars)


def words(folded: str) -> list[tuple[int, int, str]]:
    """Latin words and numbers with their offsets."""
    return [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[a-z0-9]+(?:'[a-z]+)?", folded)]


def stem(word: str) -> str:
    return index_term(word.split("'")[0])


def squash(text: str) -> str:
    """Text without whitespace and with _ and - as nothing: how a CJK tag is compared with a sentence."""
    return re.sub(r"[\s_\-]+", "", text)


def clean_phrase(text: str) -> str:
    """A phrase without surrounding punctuation and doubled spaces."""
    text = re.sub(r"\s+", " ", text)
    return text.strip(" \t\r\n.,;:!?。，；：！？、\"'()（）")


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text and text[0].isascii() else text
