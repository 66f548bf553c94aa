"""Priority words (English and Chinese) to memory weights.

=========  ======  ============================================================================
level      weight  words (case-, width- and whitespace-insensitive)
=========  ======  ============================================================================
low        0.2     low, minor, trivial, low priority; 低, 低优先级, 不重要
normal     0.5     normal, medium, moderate, default, normal priority, medium priority;
                   普通, 一般, 中, 正常, 中优先级
high       0.8     high, important, high priority; 高, 重要, 高优先级
urgent     1.0     urgent, critical, highest, top, asap, top priority, highest priority;
                   紧急, 最高, 非常重要, 加急, 最高优先级
=========  ======  ============================================================================

Unknown words give None: the caller decides what to do with them.
"""

from __future__ import annotations

import unicodedata

__all__ = ["PRIORITY_WEIGHTS", "PRIORITY_WORDS", "priority_weight"]

PRIORITY_WEIGHTS: dict[str, float] = {"low": 0.2, "normal": 0.5, "high": 0.8, "urgent": 1.0}

PRIORITY_WORDS: dict[str, tuple[str, ...]] = {
    "low": ("low", "minor", "trivial", "low priority", "低", "低优先级", "不重要"),
    "normal": (
        "normal",
        "medium",
        "moderate",
        "default",
        "normal priority",
        "medium priority",
        "普通",
        "一般",
        "中",
        "正常",
        "中优先级",
    ),
    "high": ("high", "important", "high priority", "高", "重要", "高优先级"),
    "urgent": (
        "urgent",
        "critical",
        "highest",
        "top",
        "asap",
        "top priority",
        "highest priority",
        "紧急",
        "最高",
        "非常重要",
        "加急",
        "最高优先级",
    ),
}


def _key(word: str) -> str:
    return "".join(unicodedata.normalize("NFKC", word).casefold().split())


_LOOKUP: dict[str, float] = {
    _key(word): PRIORITY_WEIGHTS[level] for level, words in PRIORITY_WORDS.items() for word in words
}


def priority_weight(word: str) -> float | None:
    """The weight for a priority word ("high" -> 0.8, "紧急" -> 1.0), or None when unknown."""
    if not isinstance(word, str):
        return None
    return _LOOKUP.get(_key(word))
