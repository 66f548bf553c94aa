"""Number words and the package's public surface."""

import pytest

import memql.lang.time as time_pkg
from memql.lang.time import TimeParseError
from memql.lang.time.numbers import parse_en_number, parse_zh_number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3", 3),
        ("one", 1),
        ("a", 1),
        ("an", 1),
        ("twelve", 12),
        ("twenty", 20),
        ("twenty-one", 21),
        ("ninety nine", 99),
        ("a couple of", 2),
        ("a few", 3),
        ("a dozen", 12),
        ("Seventeen", 17),
    ],
)
def test_english_numbers(text: str, value: int) -> None:
    assert parse_en_number(text) == value


@pytest.mark.parametrize("text", ["", "twenty-zero", "eleventy", "one two"])
def test_bad_english_numbers(text: str) -> None:
    with pytest.raises(TimeParseError):
        parse_en_number(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3", 3),
        ("一", 1),
        ("两", 2),
        ("十", 10),
        ("十一", 11),
        ("十五", 15),
        ("二十", 20),
        ("二十三", 23),
        ("九十九", 99),
        ("一百", 100),
        ("两百", 200),
        ("一百零五", 105),
        ("一千二百", 1200),
        ("二〇二六", 2026),
        ("零", 0),
    ],
)
def test_chinese_numbers(text: str, value: int) -> None:
    assert parse_zh_number(text) == value


@pytest.mark.parametrize("text", ["", "十十", "三三十", "百千", "abc", "半"])
def test_bad_chinese_numbers(text: str) -> None:
    with pytest.raises(TimeParseError):
        parse_zh_number(text)


def test_public_names() -> None:
    expected = {
        "TimeParseError",
        "Duration",
        "parse_duration",
        "add_duration",
        "parse_instant",
        "format_instant",
        "to_utc",
        "shift",
        "relative_window",
        "Unit",
        "TimeSpan",
        "parse_natural",
        "find_natural",
        "PRIORITY_WEIGHTS",
        "priority_weight",
    }
    assert expected <= set(time_pkg.__all__)
    for name in expected:
        assert hasattr(time_pkg, name)
    assert time_pkg.__doc__.startswith("Time normalisation")
