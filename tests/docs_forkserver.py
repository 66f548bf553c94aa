"""A fork server for the tests that run `memql` as a command (the docs' shell blocks, the README
quick-start, MCP Inspector, the CLI's usage errors, the REST servers): one process imports the CLI (and
the MCP and REST servers) once; every `memql` run through the shim is a separate process forked from it,
with the caller's argv, environment, working directory and standard streams (passed as file descriptors
over a Unix socket).

Why: a fresh interpreter spends 1-3 s of CPU importing the CLI and the MCP SDK before it does anything;
the docs alone hold some fifty commands. A forked child runs the real `memql` entry point on its own
store, exactly as the installed script does, minus the import. The shim relays the exit status, and
passes SIGTERM, SIGINT and SIGHUP on to the child, so a test stops a server it started through the shim
as it stops a `memql serve` of its own; a shim that is killed outright takes its child with it.

    python3 tests/docs_forkserver.py SOCKET      # serve until killed
    memql-shim (written by the test) connects, sends its fds and request, receives the exit status
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import socket
import struct
import sys
import threading

HEADER = struct.Struct("!I")

# The client: a tiny script the test writes as `memql` on PATH (python -S: no site import, ~20 ms). The
# fork server answers with the child's pid, then, when the child ends, its exit status; a SIGTERM, SIGINT
# or SIGHUP the client gets meanwhile is passed on to the child (a test stops a server it started through
# the shim as it would stop `memql` itself), and its exit status is the child's.
SHIM = """\
import json, os, signal, socket, struct, sys
child, pending = [0], []
def forward(signum, frame):
    if not child[0]:
        pending.append(signum)
        return
    try:
        os.kill(child[0], signum)
    except ProcessLookupError:
        pass
for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(signum, forward)
sock = socket.socket(socket.AF_UNIX)
sock.connect({path!r})
body = json.dumps({{"argv": sys.argv[1:], "env": dict(os.environ), "cwd": os.getcwd()}}).encode()
socket.send_fds(sock, [struct.pack("!I", len(body))], [0, 1, 2])
sock.sendall(body)
reply = sock.makefile("rb")
child[0] = int(reply.readline() or 0)
for signum in pending:
    forward(signum, None)
status = reply.read()
sys.exit(int(status) if status else 255)   # no status: the child died without reporting one
"""


def shim_script(python: str, path: str) -> str:
    return f"#!{python} -S\n" + SHIM.format(path=path)


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    chunks = b""
    while len(chunks) < size:
        chunk = sock.recv(size - len(chunks))
        if not chunk:
            raise EOFError("the client went away mid-request")
        chunks += chunk
    return chunks


def _run_child(conn: socket.socket) -> None:
    """In the forked child: become the requested `memql` process, run it, report its exit status."""
    header, fds, _, _ = socket.recv_fds(conn, HEADER.size, 3)
    request = json.loads(_read_exactly(conn, HEADER.unpack(header)[0]))
    conn.sendall(f"{os.getpid()}\n".encode())  # the client passes its signals on to this pid
    # a client that dies (SIGKILL: nothing passed on) closes its end: this process is stopped as well
    threading.Thread(target=_stop_when_gone, args=(conn,), daemon=True).start()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.argv = ["memql", *request["argv"]]
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from memql.interfaces.cli import main

    status = 0
    try:
        main.main(args=request["argv"], prog_name="memql")
    except SystemExit as exit_:
        code = exit_.code
        status = code if isinstance(code, int) else (0 if code is None else 1)
        if isinstance(code, str):
            print(code, file=sys.stderr)
    except BaseException:  # report what the real script would: a traceback on stderr, status 1
        import traceback

        traceback.print_exc()
        status = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError):
                stream.flush()
    conn.sendall(str(status).encode())
    conn.close()
    os._exit(0)


def _stop_when_gone(conn: socket.socket) -> None:
    """In the child: SIGTERM itself once the client has closed its end of the connection (it sends
    nothing after its request, so recv returns only then)."""
    with contextlib.suppress(OSError):
        conn.recv(1)
    os.kill(os.getpid(), signal.SIGTERM)


def _reap() -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def serve(path: str) -> None:
    import memql.interfaces.cli  # noqa: F401 - the import every child shares

    # the MCP SDK and the REST server (extras): `memql mcp` and `memql serve` children share them too
    for module in ("memql.interfaces.mcp.server", "memql.interfaces.rest.server"):
        with contextlib.suppress(ImportError):
            importlib.import_module(module)

    # children are reaped here (not by the kernel) so their CPU time counts in this process's children's
    # time, and so in the test run's; SIGTERM waits for the running ones, then ends the server
    def stop(*_):
        while True:
            try:
                os.wait()
            except ChildProcessError:
                os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen(16)
    print("ready", flush=True)
    while True:
        conn, _ = listener.accept()
        _reap()
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            try:
                _run_child(conn)
            finally:
                os._exit(1)
        conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
