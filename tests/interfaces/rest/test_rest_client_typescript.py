"""A TypeScript client from the live server's /openapi.json: openapi-typescript generates the types,
tsc type-checks ts_client/client.ts against them and node runs it (openapi-fetch as the runtime) against
`memql serve` on 127.0.0.1 — execute, and retrieve in its shorthand, as an IR and as a workflow — on both
backends. ts_client/wrong.ts must fail the type check: the types are real, not `any`.

The npm tools are pinned in tests/node_tools/package.json and installed by .ci/run outside the repository
(tests/npm_tools.py); nothing is downloaded here. Without node, npm or the pinned tools the test skips,
saying how to install them, except in CI (CI=true), where it fails.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from npm_tools import PACKAGE, node_modules

TS_CLIENT = Path(__file__).parent / "ts_client"
TEXT = "the design review moves to Friday"
TS_TOOLS = ("openapi-fetch", "openapi-typescript", "typescript")


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture
def project(server, tmp_path) -> Path:
    """tmp_path as a TypeScript project: the sources, the tools, and memql.d.ts generated from the live
    server's document (--default-non-nullable false: a field with a server-side default is optional to
    send, as openapi-typescript already treats inline request bodies)."""
    modules = node_modules(*TS_TOOLS)
    for name in ("client.ts", "wrong.ts", "tsconfig.json"):
        shutil.copy(TS_CLIENT / name, tmp_path / name)
    shutil.copy(PACKAGE, tmp_path / "package.json")  # "type": "module"
    (tmp_path / "node_modules").symlink_to(modules, target_is_directory=True)
    (tmp_path / "openapi.json").write_bytes(httpx.get(f"{server.base}/openapi.json", timeout=60).content)
    cli = modules / "openapi-typescript" / "bin" / "cli.js"
    made = run(
        "node", cli, "openapi.json", "-o", "memql.d.ts", "--default-non-nullable", "false", cwd=tmp_path
    )
    assert made.returncode == 0, made.stdout + made.stderr
    return tmp_path


def tsc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run("node", project / "node_modules" / "typescript" / "bin" / "tsc", *args, cwd=project)


def test_execute_and_retrieve_through_the_generated_typescript_client(server, tenant, project):
    checked = tsc(project, "-p", "tsconfig.json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    key = server.key(tenant, "mira").secret
    ran = run("node", project / "out" / "client.js", server.base, key, TEXT, cwd=project)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    out = json.loads(ran.stdout)

    assert out["made"]["success"] is True and out["made"]["op"] == "Encode"
    record = out["made"]["data"]["id"]
    assert [(row["id"], row["text"]) for row in out["shorthand"]["data"]["rows"]] == [(record, TEXT)]
    assert out["ir"]["data"]["rows"] == [{"id": record, "tags": ["team"]}]
    assert out["workflow"]["op"] == "Workflow"
    assert [step["data"]["rows"] for step in out["workflow"]["steps"]] == [out["ir"]["data"]["rows"]] * 2
    assert out["dryRun"]["dry_run"] is True and out["dryRun"]["affected_ids"] == [record]
    assert (
        out["refused"]["status"] == 401
        and out["refused"]["error"]["diagnostics"][0]["rule"] == "auth.invalid"
    )
    # the dry run changed nothing: the record is there, with the text the client sent
    memory = httpx.get(f"{server.base}/v1/memories/{record}", headers={"X-API-Key": key}).json()["memory"]
    assert (memory["text"], memory["status"], memory["owner"]) == (TEXT, "active", "mira")


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # types only: one document is enough
def test_the_generated_types_refuse_what_the_server_would(project):
    (project / "tsconfig.wrong.json").write_text(
        json.dumps({"extends": "./tsconfig.json", "compilerOptions": {"noEmit": True}, "files": ["wrong.ts"]})
    )
    checked = tsc(project, "-p", "tsconfig.wrong.json")
    assert checked.returncode != 0
    errors = [line for line in checked.stdout.splitlines() if line.startswith("wrong.ts(")]
    # line 7: a retrieve whose k is a string; line 8: an Encode whose text is a number
    assert sorted({line.split(",")[0] for line in errors}) == ["wrong.ts(7", "wrong.ts(8"], checked.stdout
