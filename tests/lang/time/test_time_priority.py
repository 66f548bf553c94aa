"""Priority words to weights."""

import pytest

from memql.lang.time import PRIORITY_WEIGHTS, priority_weight


def test_weights_table() -> None:
    assert PRIORITY_WEIGHTS == {"low": 0.2, "normal": 0.5, "high": 0.8, "urgent": 1.0}


@pytest.mark.parametrize(
    ("word", "weight"),
    [
        ("low", 0.2),
        ("normal", 0.5),
        ("high", 0.8),
        ("urgent", 1.0),  # the examples
        ("低", 0.2),
        ("普通", 0.5),
        ("高", 0.8),
        ("紧急", 1.0),
        ("minor", 0.2),
        ("trivial", 0.2),
        ("低优先级", 0.2),
        ("不重要", 0.2),
        ("medium", 0.5),
        ("moderate", 0.5),
        ("default", 0.5),
        ("一般", 0.5),
        ("中", 0.5),
        ("正常", 0.5),
        ("important", 0.8),
        ("重要", 0.8),
        ("高优先级", 0.8),
        ("critical", 1.0),
        ("highest", 1.0),
        ("top", 1.0),
        ("asap", 1.0),
        ("最高", 1.0),
        ("非常重要", 1.0),
        ("加急", 1.0),
        ("  HIGH ", 0.8),
        ("Urgent", 1.0),
        ("ASAP", 1.0),
        ("High Priority", 0.8),
        ("low  priority", 0.2),
        (" 紧急 ", 1.0),
        ("高 优先级", 0.8),
        ("ＨＩＧＨ", 0.8),
    ],
)
def test_priority_weight(word: str, weight: float) -> None:
    assert priority_weight(word) == weight


@pytest.mark.parametrize("word", ["", "   ", "banana", "higher", "很低", "p1", "none"])
def test_unknown_words(word: str) -> None:
    assert priority_weight(word) is None


def test_non_string_is_unknown() -> None:
    assert priority_weight(None) is None  # type: ignore[arg-type]
