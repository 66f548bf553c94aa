"""docs/configuration.md lists every MEMQL_ environment variable the code reads, and only those."""

from __future__ import annotations

import re
from pathlib import Path

from memql.interfaces.cli import main
from memql.memory import Memory

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
# a full name: MEMQL_LLM_ in a docstring ("the MEMQL_LLM_* variables") is a prefix, not a variable
NAME = re.compile(r"MEMQL_[A-Z0-9_]*[A-Z0-9]\b")


def _names(paths) -> set[str]:
    return {name for path in paths for name in NAME.findall(path.read_text(encoding="utf-8"))}


def test_every_variable_the_package_reads_is_documented():
    used = _names((ROOT / "src").rglob("*.py"))
    assert used, "the package reads MEMQL_ variables"
    assert used - _names([ROOT / "docs" / "configuration.md"]) == set()


def test_every_documented_variable_is_read_by_the_package_or_the_tests():
    documented = _names([ROOT / "docs" / "configuration.md"])
    used = _names((ROOT / "src").rglob("*.py")) | _names((ROOT / "tests").rglob("*.py"))
    assert documented - used == set()


def test_every_global_cli_option_is_documented():
    options = {opt for param in main.params for opt in param.opts if opt.startswith("--")}
    assert options  # --db, --tenant, …
    missing = {opt for opt in options if f"`{opt}" not in DOC}
    assert missing == set()


def test_every_memory_argument_is_documented():
    import inspect

    arguments = [name for name in inspect.signature(Memory.__init__).parameters if name != "self"]
    table = DOC.split("## `Memory(...)`", 1)[1].split("### `EngineConfig`", 1)[0]
    assert [name for name in arguments if f"| `{name}` |" not in table] == []


def test_every_engine_config_field_is_documented_with_its_default():
    from dataclasses import MISSING, fields

    from memql.engine.context import EngineConfig

    table = DOC.split("### `EngineConfig`", 1)[1]
    for field in fields(EngineConfig):
        row = re.search(rf"^\| `{field.name}` \| (.*?) \|", table, re.M)
        assert row, field.name
        if field.default is not MISSING and isinstance(field.default, int | float | str):
            assert row.group(1).strip('`"') == str(field.default), field.name
