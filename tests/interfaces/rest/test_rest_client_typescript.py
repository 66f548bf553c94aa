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

import pytest
import rest_server

from npm_tools import PACKAGE, node_modules

TS_CLIENT = Path(__file__).parent / "ts_client"
TEXT = "the design review moves to Friday"
TS_TOOLS = ("openapi-fetch", "openapi-typescript", "typescript")


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300)


# the projects built in this test process, by the OpenAPI document they were generated from: both backends'
# servers publish the same document, and the generated types and compiled client depend on nothing else,
# so the second backend's test runs the client built (and type-checked) for the first
_BUILT: dict[bytes, tuple[Path, subprocess.CompletedProcess[str]]] = {}


def _new_project(where: Path, modules: Path, document: bytes) -> Path:
    """`where` as a TypeScript project: the sources, the tools, and memql.d.ts generated from `document`
    (--default-non-nullable false: a field with a server-side default is optional to send, as
    openapi-typescript already treats inline request bodies)."""
    where.mkdir(parents=True, exist_ok=True)
    for name in ("client.ts", "wrong.ts", "tsconfig.json"):
        shutil.copy(TS_CLIENT / name, where / name)
    shutil.copy(PACKAGE, where / "package.json")  # "type": "module"
    (where / "node_modules").symlink_to(modules, target_is_directory=True)
    (where / "openapi.json").write_bytes(document)
    cli = modules / "openapi-typescript" / "bin" / "cli.js"
    made = run("node", cli, "openapi.json", "-o", "memql.d.ts", "--default-non-nullable", "false", cwd=where)
    assert made.returncode == 0, made.stdout + made.stderr
    return where


@pytest.fixture
def project(server, tmp_path_factory) -> Path:
    """A TypeScript project generated from the live server's /openapi.json, with client.ts type-checked
    and compiled (`.checked`: tsc's result) — built once per distinct document in this test process."""
    modules = node_modules(*TS_TOOLS)
    document = rest_server.get(f"{server.base}/openapi.json", timeout=60).content
    if document not in _BUILT:
        where = _new_project(tmp_path_factory.mktemp("ts-project"), modules, document)
        _BUILT[document] = (where, tsc(where, "-p", "tsconfig.json"))
    return _BUILT[document][0]


def tsc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run("node", project / "node_modules" / "typescript" / "bin" / "tsc", *args, cwd=project)


def checked(project: Path) -> subprocess.CompletedProcess[str]:
    """tsc's type check and compilation of client.ts in `project`."""
    return next(result for where, result in _BUILT.values() if where == project)


def test_execute_and_retrieve_through_the_generated_typescript_client(server, tenant, project):
    compiled = checked(project)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
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
    read = rest_server.get(f"{server.base}/v1/memories/{record}", headers={"X-API-Key": key})
    memory = read.json()["memory"]
    assert (memory["text"], memory["status"], memory["owner"]) == (TEXT, "active", "mira")


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # types only: one document is enough
def test_the_generated_types_refuse_what_the_server_would(project):
    (project / "tsconfig.wrong.json").write_text(
        json.dumps({"extends": "./tsconfig.json", "compilerOptions": {"noEmit": True}, "files": ["wrong.ts"]})
    )
    refused = tsc(project, "-p", "tsconfig.wrong.json")
    assert refused.returncode != 0
    errors = [line for line in refused.stdout.splitlines() if line.startswith("wrong.ts(")]
    # line 7: a retrieve whose k is a string; line 8: an Encode whose text is a number
    assert sorted({line.split(",")[0] for line in errors}) == ["wrong.ts(7", "wrong.ts(8"], refused.stdout
