"""Every shell block of the README and docs runs as written, against a temporary store and server.

A ```bash / ```sh / ```console / ```shell block is a list of commands a reader types; this test types
them. A usage synopsis (`[optional]` parts, `a|b` choices) is not a command: it is fenced as ```text.
One test per document: its blocks run in order in one temporary directory with one environment, as a
reader would run them in one shell (`export` carries over; a later block may read an earlier one's file).

Each command runs in its own process (bash, then the real `memql` entry point in a process forked from
one that imported the CLI once: tests/docs_forkserver.py) with HOME, MEMQL_DB and the working directory in
the temporary directory, and MEMQL_EMBEDDER=none unless the document searches by meaning. It must exit 0,
or N when the line says `# exits N`. What is not run, and why, is the explicit list of RULES below; any
other command runs, so a new block must work.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest

import pgtest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = {"bash", "sh", "console", "shell"}

# Lines a test run does not type, each with the reason. A command matching none of them runs.
INSTALL = re.compile(r"^(python3? -m )?(pip|npm) install\b")  # the test environment has them already
SUITE = re.compile(r"^python3? -m pytest\b")  # the suite itself (this test is part of it)
BENCH = re.compile(r"^(\w+=\S+ )*memql( --\S+( [^-\s]\S*)?)* bench\b")
RULES = {
    "install": "an installation line: the test environment is installed (pyproject's `test` extra)",
    "suite": "runs the test suite, which this test is part of",
    "bench": "a benchmark runs for minutes over a data set: its command line is parsed by the CLI "
    "(every option and value checked) but not run; tests/bench runs each bench on small inputs",
}
# Commands that serve until stopped: started in the background on a free 127.0.0.1 port, waited for,
# stopped when the document's blocks are done; a later line naming the documented port gets the real one.
LONG_RUNNING = re.compile(r"^memql( --\S+( [^-\s]\S*)?)* (serve\b|mcp\b.*--transport http)")
# Documents whose blocks search by meaning (the local model when its weights are installed).
MEANING = {"README.md"}
# Files the docs' commands read as the reader's own (a program they wrote), made in the directory.
ENCODES = '[{"op": "Encode", "args": {"payload": {"text": "Mira prefers meetings before 11:00"}}},\n'
ENCODES += ' {"op": "Encode", "args": {"payload": {"text": "Mira is vegetarian"}, "tags": ["food"]}},\n'
ENCODES += ' {"op": "Encode", "args": {"payload": {"text": "Mira drinks tea"}, "tags": ["food"]}}]\n'
FILES = {"plan.json": (ROOT / "examples" / "quickstart.json").read_text(), "program.json": ENCODES}
FILES["proposal.json"] = ENCODES
FILES["my-items.jsonl"] = (ROOT / "src" / "memql" / "bench" / "sets" / "state-v1.jsonl").read_text()
# The checkout, for commands that read it (ruff, the bench-set generator); written-to parts are copied.
LINKED = ["pyproject.toml", "src", "tests", "benchmarks"]
COPIED = {"bench-set.md": ["benchmarks", "src/memql/bench/sets"]}
SHARED = ROOT.parent / "shared"  # development data beside the checkout (the shared_data marker's)
PG_URL = re.compile(r"postgresql://[^\s'\"]+")


@dataclass
class Block:
    doc: str
    line: int
    commands: list[tuple[int, str]] = field(default_factory=list)


def _commands(lines: list[str], first: int) -> list[tuple[int, str]]:
    """The commands of a block: `\\` continuations joined, a here-document kept with its command."""
    commands, i = [], 0
    while i < len(lines):
        start, text = first + i, lines[i]
        if not text.strip() or text.lstrip().startswith("#"):
            i += 1
            continue
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + lines[i].strip()
        heredoc = re.search(r"<<-?\s*'?(\w+)'?", text.replace("<<<", "   "))
        if heredoc:
            while i + 1 < len(lines) and lines[i + 1].strip() != heredoc.group(1):
                i += 1
                text += "\n" + lines[i]
            i += 1
            text += "\n" + heredoc.group(1)
        commands.append((start, text))
        i += 1
    return commands


def _typed(lines: list[str]) -> list[str]:
    """A console transcript's typed lines (`$ ` and their `\\` continuations); output lines are blank, so
    line numbers still point into the document."""
    typed, continued = [], False
    for line in lines:
        if line.startswith("$ ") or continued:
            typed.append(line.removeprefix("$ "))
            continued = line.endswith("\\")
        else:
            typed.append("")
    return typed


def shell_blocks(doc: Path) -> list[Block]:
    blocks, fence = [], None
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            if fence is None:
                fence = (line[3:].strip(), number, [])
            else:
                lang, start, body = fence
                if lang in SHELLS:
                    if lang == "console":  # a transcript: `$ ` lines are typed, the others are output
                        body = _typed(body)
                    blocks.append(Block(doc.name, start, _commands(body, start + 1)))
                fence = None
        elif fence is not None:
            fence[2].append(line)
    return blocks


BLOCKS = {doc.name: shell_blocks(doc) for doc in DOCS if shell_blocks(doc)}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def parse_only(command: str) -> None:
    """Parse a `memql ...` line down to its leaf command as the CLI would, without running it."""
    from memql.interfaces.cli import main

    words = shlex.split(command, comments=True)
    words = words[: next((i for i, w in enumerate(words) if w in {">", "<", "|", "2>"}), len(words))]
    while re.match(r"^\w+=", words[0]):  # an environment assignment before the command
        words.pop(0)
    assert words[0] == "memql", command
    group, ctx = main, main.make_context("memql", words[1:])
    while isinstance(group, click.Group):
        rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
        name, group, rest = group.resolve_command(ctx, rest)
        ctx = group.make_context(name, rest, parent=ctx)


def _pythonpath() -> str:
    import memql

    return os.pathsep.join(
        [str(Path(memql.__file__).parents[1]), str(ROOT), os.environ.get("PYTHONPATH", "")]
    )


class Reader:
    """One document's shell: its directory, its environment, its servers."""

    def __init__(self, doc: str, tmp: Path, shim: Path):
        # the reader's checkout, with ../shared beside it as in development (when it is there)
        self.doc, self.where = doc, tmp / "checkout"
        where = self.where
        where.mkdir()
        (where / "home").mkdir()
        if SHARED.is_dir():
            (tmp / "shared").symlink_to(SHARED)
        shutil.copytree(ROOT / "examples", where / "examples")
        for name, text in FILES.items():
            (where / name).write_text(text)
        for name in COPIED.get(doc, []):
            shutil.copytree(ROOT / name, where / name)
        for name in LINKED:
            if not (where / name).exists():
                (where / name).symlink_to(ROOT / name)
        base = {k: v for k, v in os.environ.items() if not k.startswith("MEMQL_") and k != "XDG_DATA_HOME"}
        self.env = {
            **base,
            "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": _pythonpath(),
            "HOME": str(where / "home"),
            "MEMQL_DB": str(where / "memql.db"),
            "MEMQL_QUIET": "1",
            **({} if doc in MEANING else {"MEMQL_EMBEDDER": "none"}),
        }
        self.servers: list[subprocess.Popen] = []
        self.ports: dict[str, str] = {}
        self.pg: dict[str, str] = {}
        self.skipped: list[tuple[str, str]] = []

    def _postgres(self, url: str) -> str:
        """A documented PostgreSQL URL -> the test run's server, a fresh schema per documented schema."""
        if url not in self.pg:
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
            schema = f"test_{uuid.uuid4().hex[:12]}_{query.pop('schema', 'memql')}"
            dsn = pgtest.server_dsn()
            extra = urllib.parse.urlencode({**query, "schema": schema})
            self.pg[url] = f"{dsn}{'&' if '?' in dsn else '?'}{extra}"
        return self.pg[url]

    def rewrite(self, command: str) -> str:
        def postgres(match: re.Match) -> str:
            quoted = match.start() > 0 and command[match.start() - 1] in "'\""
            url = self._postgres(match.group(0))
            return url if quoted else shlex.quote(url)

        command = PG_URL.sub(postgres, command)
        for documented, real in self.ports.items():
            command = re.sub(rf"(?<=[:\s]){documented}\b", real, command)
        return command

    def run(self, line: int, command: str) -> None:
        where = f"{self.doc}:{line}: {command}"
        words = shlex.split(command, comments=True)
        if words and words[0] == "export":
            for assignment in words[1:]:
                name, _, value = assignment.partition("=")
                self.env[name] = value
            return
        parts = [p for p in command.split(" && ") if not INSTALL.match(p.strip())]
        if len(parts) < len(command.split(" && ")):
            self.skipped.append((where, RULES["install"]))
        if not parts:
            return
        command = " && ".join(parts)
        if SUITE.match(command):
            self.skipped.append((where, RULES["suite"]))
            return
        if BENCH.match(command):
            self.skipped.append((where, RULES["bench"]))
            here = Path.cwd()
            os.chdir(self.where)  # its files are the reader's, in the reader's directory
            try:
                if "../shared/" in command and not SHARED.is_dir():
                    self.skipped.append((where, "needs ../shared, absent (as the shared_data tests)"))
                else:
                    parse_only(command)
            finally:
                os.chdir(here)
            return
        command = self.rewrite(command)
        if LONG_RUNNING.match(command):
            self.start(where, command)
            return
        expected = re.search(r"#.*\bexits (\d+)\b", command)
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=self.where,
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,  # a hung command fails the test instead of the run
        )
        assert done.returncode == (int(expected.group(1)) if expected else 0), (
            f"{where}\nexit {done.returncode}\nstdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}"
        )

    def start(self, where: str, command: str) -> None:
        documented = re.search(r"--port (\d+)", command)
        port = str(_free_port())
        if documented:
            self.ports[documented.group(1)] = port
            command = command.replace(documented.group(0), f"--port {port}")
        else:
            command = re.sub(r"^memql\b", f"memql --port {port}", command)
        command = re.sub(r"^memql\b", "exec memql", command)  # the shim: a SIGTERM reaches the server
        server = subprocess.Popen(
            ["bash", "-c", command],
            cwd=self.where,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.servers.append(server)
        deadline = time.monotonic() + 120  # a bounded wait: returns as soon as the port listens
        while time.monotonic() < deadline:
            assert server.poll() is None, f"{where}\nexited {server.returncode}: {server.stderr.read()}"
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", int(port))) == 0:
                    return
            time.sleep(0.1)
        raise AssertionError(f"{where}: not listening on 127.0.0.1:{port} after 120 s")

    def stop(self) -> None:
        for server in self.servers:
            if server.poll() is None:
                os.killpg(server.pid, 15)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, 9)
                server.wait()


@pytest.mark.parametrize("doc", list(BLOCKS))
def test_shell_blocks_run(doc, memql_shim, tmp_path):
    reader = Reader(doc, tmp_path, memql_shim)
    try:
        for block in BLOCKS[doc]:
            for line, command in block.commands:
                reader.run(line, command)
    finally:
        reader.stop()
    for where, reason in reader.skipped:  # shown with -rP
        print(f"not run: {where}\n  because: {reason}")


def test_a_synopsis_is_not_fenced_as_shell():
    """`[--option]` and `a|b` are usage notation, not commands: such a block is ```text."""
    synopses = [
        f"{block.doc}:{line}"
        for blocks in BLOCKS.values()
        for block in blocks
        for line, command in block.commands
        if re.search(r"\[--?\w|\w\|\w", command.split(" #")[0]) and "<<" not in command
    ]
    assert synopses == []
