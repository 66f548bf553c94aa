"""The pinned npm tools some tests run (tests/node_tools/package.json): the TypeScript client test and the
MCP Inspector CLI test. .ci/run installs them outside the repository, in $MEMQL_NODE_TOOLS (default
~/.cache/memql-node); nothing is downloaded at test time. Without node, npm or a pinned tool a test skips,
saying how to install them, except in CI (CI=true), where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent / "node_tools" / "package.json"
TOOLS = Path(os.environ.get("MEMQL_NODE_TOOLS") or Path.home() / ".cache" / "memql-node")
PINNED: dict[str, str] = json.loads(PACKAGE.read_text())["dependencies"]


def node_modules(*names: str) -> Path:
    """The tools' node_modules with `names` (all pinned tools when none) installed at their pinned
    versions, or a skip (outside CI) or a failure (CI) saying why not."""
    absent = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if absent:
        missing(f"{' and '.join(absent)} not on PATH: this test needs Node.js (20 or newer) and npm")
    modules = TOOLS / "node_modules"
    wrong = [f"{name}@{PINNED[name]}" for name in names or PINNED if installed(modules, name) != PINNED[name]]
    if wrong:
        missing(
            f"{', '.join(wrong)} not installed in {TOOLS} (MEMQL_NODE_TOOLS); install them as .ci/run does: "
            f'mkdir -p "{TOOLS}" && cp {PACKAGE} "{TOOLS}/" && npm install --prefix "{TOOLS}"'
        )
    return modules


def missing(reason: str) -> None:
    """CI (CI=true, where .ci/run installed the tools) must run the test: a failure there; elsewhere (the
    README's test command alone installs no npm tools) a skip that says how to run it."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} (CI must run it)")
    pytest.skip(reason)


def installed(modules: Path, name: str) -> str | None:
    manifest = modules / name / "package.json"
    return json.loads(manifest.read_text())["version"] if manifest.exists() else None
