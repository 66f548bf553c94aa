"""The state-v1 development set of `memql bench state` (src/memql/bench/sets/state-v1.jsonl).

Items are written by hand in `items_en*.py` and `items_zh*.py`; this module gives them ids and splits and
writes the JSONL: `python -m benchmarks.state_set [--out FILE] [--check FILE]`. Each item carries the
construct it tests (change, correction, third-party, other-subject, twice, relative); within each
(language, construct) the items alternate dev / heldout, so both halves cover every construct. Rules are
developed on dev only; heldout measures whether they generalise (docs/bench-state.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.state_set import items_en, items_en_time, items_zh, items_zh_time

EN = items_en.ITEMS + items_en_time.ITEMS
ZH = items_zh.ITEMS + items_zh_time.ITEMS
SHIPPED = Path(__file__).resolve().parents[2] / "src" / "memql" / "bench" / "sets" / "state-v1.jsonl"


def _turns(lines: list[str], user: str) -> list[dict[str, str]]:
    """ "A:..." is the assistant, "Name|..." another person, anything else the user."""
    out = []
    for line in lines:
        if line.startswith("A:"):
            out.append({"speaker": "assistant", "text": line[2:].strip()})
        elif "|" in line[:12]:
            who, text = line.split("|", 1)
            out.append({"speaker": who.strip(), "text": text.strip()})
        else:
            out.append({"speaker": user, "text": line})
    return out


def _instant(value: str | None) -> str | None:
    if value is None:
        return None
    return value if "T" in value else f"{value}T00:00:00Z"


def build() -> list[dict[str, Any]]:
    """Every item, with its id and split."""
    items: list[dict[str, Any]] = []
    counters: dict[tuple[str, str], int] = defaultdict(int)
    for lang, written in (("en", EN), ("zh", ZH)):
        for number, spec in enumerate(written, start=1):
            construct = spec["construct"]
            index = counters[(lang, construct)]
            counters[(lang, construct)] += 1
            user = spec["user"]
            items.append(
                {
                    "id": f"state-{lang}-{number:03d}-{construct}",
                    "lang": lang,
                    "split": "dev" if index % 2 == 0 else "heldout",
                    "construct": construct,
                    "sessions": [
                        {"time": _instant(time), "turns": _turns(lines, user)}
                        for time, lines in spec["sessions"]
                    ],
                    "questions": [
                        {
                            "q": q,
                            "as_of": _instant(as_of),
                            "answer": answer,
                            "stale": stale,
                            "kind": "current" if as_of is None else "past",
                        }
                        for q, as_of, answer, stale in spec["questions"]
                    ],
                }
            )
    return items


def dumps(items: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--check", type=Path, default=None, help="exit 1 unless FILE holds the same bytes")
    args = parser.parse_args(argv)
    text = dumps(build())
    if args.check is not None:
        same = args.check.is_file() and args.check.read_text(encoding="utf-8") == text
        print("state-v1: up to date" if same else f"state-v1: {args.check} differs; regenerate it")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"state-v1: {text.count(chr(10))} items -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
