"""What the package says about itself: it ships its type hints (PEP 561) and says so in its classifiers."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_the_package_ships_py_typed_and_says_it_is_typed():
    assert files("memql").joinpath("py.typed").is_file()
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    assert "Typing :: Typed" in project["classifiers"]
    # a licence expression (PEP 639) and a licence classifier together are refused by current build tools
    assert not any(c.startswith("License ::") for c in project["classifiers"])
