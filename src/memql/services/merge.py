"""Merging texts as a de-duplicated union of their sentences.

The result holds text 1's sentences, then each sentence of text 2 not already present, and so on.
A sentence is "already present" when its normalised form (NFKC, casefold, whitespace collapsed,
trailing punctuation stripped) was seen, or when its token set is contained in a kept sentence's
token set with Jaccard >= 0.9 (the same words, reordered or re-punctuated, or one word less). When
instead a new sentence's tokens strictly contain a kept sentence's (Jaccard >= 0.9), the fuller one
replaces it in the earlier one's place, so no word is lost. Punctuation-only sentences are dropped.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from memql.services.keywords import jaccard
from memql.services.sentences import join_sentences, split_sentences
from memql.services.tokenize import normalize_text, tokens

NEAR_DUPLICATE_JACCARD = 0.9


def _key(sentence: str) -> str:
    key = re.sub(r"\s+", " ", normalize_text(sentence)).strip()
    end = len(key)
    while end > 0 and (unicodedata.category(key[end - 1])[0] == "P" or key[end - 1].isspace()):
        end -= 1
    return key[:end]


def merge_texts(texts: list[str], lang: Literal["auto", "en", "zh"] = "auto") -> str:
    """The de-duplicated union of the sentences of ``texts``, in first-seen order."""
    kept: list[str] = []
    kept_tokens: list[frozenset[str]] = []
    seen: set[str] = set()
    for text in texts:
        for sentence in split_sentences(text, lang):
            key = _key(sentence)
            if not key or key in seen:
                continue  # punctuation only, or seen before
            seen.add(key)
            words = frozenset(tokens(sentence))
            for i, other in enumerate(kept_tokens):
                if not words or jaccard(words, other) < NEAR_DUPLICATE_JACCARD:
                    continue
                if words <= other:
                    break  # nothing new: its words are all in a kept sentence
                if other < words:
                    kept[i], kept_tokens[i] = sentence, words  # the fuller version replaces it in place
                    break
            else:
                kept.append(sentence)
                kept_tokens.append(words)
    return join_sentences(kept)
