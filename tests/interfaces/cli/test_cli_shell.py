"""The shell's first hour: a store that cannot be opened names the path and the reason (no traceback),
`memql execute` on a terminal says it reads standard input, and `memql serve` / `memql mcp --transport
http` print the address they listen on once they do."""

from __future__ import annotations

import os
import pty
import re
import select
import sqlite3
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from memql.interfaces.cli import main
from memql.interfaces.cli.common import store_problem

SRC = str(Path(__file__).resolve().parents[3] / "src")


def env() -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MEMQL_LLM", "MEMQL_EMBED"))}
    return {**clean, "PYTHONPATH": SRC, "MEMQL_EMBEDDER": "none"}


def history(db: Path | str):
    return CliRunner().invoke(main, ["--db", str(db), "history", "1"])


def test_a_directory_is_named_as_one(tmp_path):
    result = history(tmp_path)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip() == (
        f"memql: cannot open the store {tmp_path}: it is a directory; give a file in it, "
        f"e.g. --db {tmp_path / 'memql.db'}"
    )


def test_a_file_that_is_not_a_database(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("groceries: milk, eggs, and a long enough line to fill a page header\n" * 10)
    result = history(notes)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"memql: cannot open the store {notes}: it is not a SQLite database, so not a memql store"
    )


def test_a_read_only_store(tmp_path):
    store = tmp_path / "frozen.db"
    assert CliRunner().invoke(main, ["--db", str(store), "add", "x", "--json"]).exit_code == 0
    if os.geteuid() != 0:  # file modes bind everyone but root
        store.chmod(0o444)
        tmp_path.chmod(0o555)
        try:
            result = history(store)
        finally:
            tmp_path.chmod(0o755)
            store.chmod(0o644)
        assert result.exit_code == 2 and "it is read-only" in result.stderr and str(store) in result.stderr
    # as root (or anyone): SQLite's own refusal of a write to a read-only database reads the same way
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as refused:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    assert store_problem(str(store), refused.value) == (
        f"memql: cannot open the store {store}: it is read-only "
        "(memql writes its schema, records and audit log there)"
    )


def test_a_postgres_password_is_never_echoed():
    problem = store_problem("postgresql://app:s3cret@db.example/memql", OSError("connection refused"))
    assert "s3cret" not in problem and "app:***@db.example" in problem and "connection refused" in problem


def test_execute_on_a_terminal_says_it_reads_standard_input(tmp_path, memql_shim):
    leader, follower = pty.openpty()
    # the real entry point, forked from a process that imported it (conftest's memql_shim)
    command = [str(memql_shim / "memql"), "--db", str(tmp_path / "m.db"), "execute", "--json"]
    process = subprocess.Popen(
        command, stdin=follower, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env()
    )
    os.close(follower)
    try:
        # the notice comes before any input is given: the command does not sit silent
        ready, _, _ = select.select([process.stderr], [], [], 60)
        assert ready, "no notice on standard error"
        notice = os.read(process.stderr.fileno(), 4096).decode()
        assert "reading from standard input" in notice and "Ctrl-D" in notice
        os.write(leader, b'{"op": "Sweep"}\n')
        os.write(leader, b"\x04")  # end of input, as a person types it
        stdout, _ = process.communicate(timeout=60)
    finally:
        os.close(leader)
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0 and b'"op": "Sweep"' in stdout


def _first_stderr_line(process: subprocess.Popen, pattern: str, timeout: float = 90) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 1)
        if ready:
            line = process.stderr.readline().decode()
            seen += line
            found = re.search(pattern, line)
            if found:
                return found
        if process.poll() is not None:
            break
    raise AssertionError(f"no line matching {pattern!r}; standard error was:\n{seen}")


def test_serve_prints_the_address_it_listens_on(tmp_path, memql_shim):
    command = [str(memql_shim / "memql"), "--db", str(tmp_path / "m.db"), "serve"]  # forked (conftest)
    process = subprocess.Popen(
        [*command, "--port", "0", "--embedder", "none", "--access-log", "off"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env(),
    )
    try:
        found = _first_stderr_line(process, r"memql: REST API listening on (http://127\.0\.0\.1:(\d+))$")
        assert int(found.group(2)) > 0  # port 0: the port the system chose, not 0
        assert httpx.get(found.group(1) + "/healthz", timeout=10).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_mcp_over_http_prints_its_address(tmp_path, memql_shim):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [str(memql_shim / "memql"), "--db", str(tmp_path / "m.db"), "mcp"]  # forked (conftest)
    process = subprocess.Popen(
        [*command, "--transport", "http", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env(),
    )
    try:
        found = _first_stderr_line(
            process, r"memql: MCP server listening on (http://127\.0\.0\.1:(\d+)/mcp)$"
        )
        assert int(found.group(2)) == port
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass  # it does listen there
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.parametrize("command", [["mcp", "--transport", "http"], ["serve", "--embedder", "none"]])
def test_a_taken_port_is_named_not_announced(tmp_path, command, memql_shim):
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        # the real entry point, forked from a process that imported it (conftest's memql_shim)
        args = [str(memql_shim / "memql"), "--db", str(tmp_path / "m.db"), *command, "--port", str(port)]
        result = subprocess.run(args, capture_output=True, text=True, env=env(), timeout=120)
    assert result.returncode == 2 and "listening" not in result.stderr
    assert result.stderr.strip().startswith(f"memql: cannot listen on 127.0.0.1:{port}: ")


def test_human_output_on_a_terminal(tmp_path, memql_shim):
    """add, search, get and lineage print lines for people on a terminal (JSON only when piped)."""
    db = str(tmp_path / "m.db")

    def on_terminal(*args: str) -> str:
        leader, follower = pty.openpty()
        command = [str(memql_shim / "memql"), "--db", db, *args]  # the entry point, forked (conftest)
        process = subprocess.Popen(command, stdin=follower, stdout=follower, stderr=follower, env=env())
        os.close(follower)
        output = b""
        while True:
            ready, _, _ = select.select([leader], [], [], 60)
            if not ready:
                break
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed: the command is done
                break
            if not chunk:
                break
            output += chunk
        os.close(leader)
        assert process.wait(timeout=60) == 0, output
        return output.decode().replace("\r\n", "\n")

    assert on_terminal("add", "Standup moves to 9:30", "--tag", "team").strip() == "added 1"
    line = on_terminal("search", "standup").strip()
    assert re.fullmatch(r"1  \d\.\d{3}  Standup moves to 9:30  \[team\]", line), line
    shown = on_terminal("get", "1").splitlines()
    assert shown[0] == "1: Standup moves to 9:30" and '  tags: ["team"]' in shown
    assert on_terminal("lineage", "1").strip() == "record 1 has no lineage links"
    assert on_terminal("search", "passport").strip() == "no memories match 'passport'"
    said = ("remember", "--actor", "mira")
    assert (
        on_terminal(*said, "I live in Lisbon.", "--time", "2026-01-05").strip()
        == "ADD 2 mira's residence: Lisbon"
    )
    assert on_terminal(*said, "I moved to Porto.", "--tag", "home").strip() == (
        "UPDATE 3 mira's residence: Porto — supersedes 2: mira's residence: Lisbon"
    )


def test_chat_continues_after_what_another_writer_added_meanwhile(tmp_path, memql_shim):
    """`memql chat` keeps its conversation open; a server (or another chat) adding to the same conversation
    meanwhile made its next line `conversation.moved`: it opens the conversation again and stores the line
    after what the other added."""
    from memql import Memory
    from memql.cognition.conversation.served import served_messages

    db = str(tmp_path / "chat.db")
    command = [str(memql_shim / "memql"), "--db", db, "--actor", "mira", "chat"]
    quiet = {**env(), "MEMQL_LLM_BASE_URL": "", "MEMQL_LLM_MODEL": ""}
    chat = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=quiet
    )
    assert chat.stdin is not None and chat.stdout is not None
    chat.stdin.write(b"my cat is called Miso\n")
    chat.stdin.flush()
    assert b"nothing in memory yet" in chat.stdout.readline() + chat.stdout.readline()  # stored, then shown
    with Memory(db, actor="mira", embedder=None) as m:  # the other writer: a server's call
        served_messages(m.executor, [{"role": "user", "text": "said through a server"}])
    _, err = chat.communicate(b"she is two\n", timeout=60)
    assert chat.returncode == 0 and b"conversation.moved" not in err, err
    with Memory(db, actor="mira", embedder=None) as m:
        rows = m.retrieve(
            filter={"has_tags": ["conv:mira/assistant"], "facets": {"level": "message"}, "limit": 10},
            include=["text", "facets"],
        ).data["rows"]
    assert sorted((r["facets"]["position"], r["text"]) for r in rows) == [
        (0, "mira: my cat is called Miso"),
        (1, "mira: said through a server"),
        (2, "mira: she is two"),
    ]
