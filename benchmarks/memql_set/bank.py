"""The building blocks of the content bank: bilingual texts, notes with their key phrases, domains."""

from __future__ import annotations

from dataclasses import dataclass

Text = tuple[str, str]  # (English, Chinese)


@dataclass(frozen=True)
class Note:
    text: Text
    key: Text  # a noun phrase inside the text that identifies the note ("the {key}" reads well)
    when: bool = False  # an occasion: something that happens at a time, which can be moved


@dataclass(frozen=True)
class Domain:
    name: str
    topic: Text  # "the Lisbon trip" / "里斯本之行"
    tag: Text  # the domain's own tag
    category: Text  # a broader tag shared with other domains
    kind: str  # the record type its notes usually have
    notes: tuple[Note, ...]
    long: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]  # multi-sentence texts as sentences (en, zh)


def note(en: str, zh: str, key_en: str, key_zh: str, *, when: bool = False) -> Note:
    """A note; its key phrases must be inside its texts (instructions and searches name it by them)."""
    if key_en not in en or key_zh not in zh:
        raise ValueError(f"key phrase not in the note: {key_en!r} / {key_zh!r}")
    return Note((en, zh), (key_en, key_zh), when)


PERSONAL, HEALTH, WORK, HOME = ("personal", "个人"), ("health", "健康"), ("work", "工作"), ("home", "家居")
LEARNING, MONEY, FAMILY = ("learning", "学习"), ("money", "财务"), ("family", "家庭")
