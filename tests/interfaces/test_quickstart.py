"""The README quick-start, pasted into bash as written, does what the README says."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from memql.services.embedding import available

README = Path(__file__).resolve().parents[2] / "README.md"


def _documents(text: str) -> list:
    decoder, docs, i = json.JSONDecoder(), [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        doc, i = decoder.raw_decode(text, i)
        docs.append(doc)
    return docs


@pytest.mark.skipif(
    shutil.which("memql") is None or shutil.which("bash") is None, reason="needs memql and bash"
)
def test_readme_quickstart_runs_as_described(tmp_path, memql_shim):
    section = README.read_text(encoding="utf-8").split("## Quick start", 1)[1]
    script = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    # as a user runs it: the default embedder (the packaged MiniLM the README's install command adds);
    # each `memql` is the real entry point in a process of its own, forked from one that imported the CLI
    env = {k: v for k, v in os.environ.items() if k != "MEMQL_EMBEDDER"}
    env["PATH"] = f"{memql_shim}{os.pathsep}{env['PATH']}"
    proc = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env
    )
    workflow, promote, lock, delete, expire, retrieve, semantic, history = _documents(proc.stdout)
    assert workflow["success"] and workflow["affected_ids"] == ["1", "2", "3"]
    assert promote["success"] and promote["data"]["next_remind_at"]["1"]
    assert lock["success"]
    assert not delete["success"] and delete["diagnostics"][0]["rule"] == "governance.locked"
    assert expire["success"] and expire["affected_ids"] == ["2"]
    assert [w["rule"] for w in expire["warnings"]] == ["write.default_limit"]
    assert retrieve["data"]["rows"][0] == {
        "id": "1",
        "text": "Passport renewal is due 2026-07-15.",
        "weight": 0.9,
    }
    assert available(), "the README's install command installs the packaged embedding model"
    assert semantic["data"]["rows"] == [{"id": "3", "text": "Insurance policy number 4471-22."}]
    assert [(h["op"], h["change"]) for h in history] == [("Encode", "insert"), ("Promote", "update")]
    assert history[1]["after"]["weight"] == 0.9 and history[1]["actor"] == "mira"
    assert (tmp_path / "quickstart.db").exists()
