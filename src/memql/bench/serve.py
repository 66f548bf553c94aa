"""`memql bench serve`: the REST server under 1, 4 and 16 concurrent clients (issue 20: serving many agents).

One SQLite file of `records` synthetic notes (memql.bench.perf's corpus, no embeddings: lexical search) is
loaded -- or, with a postgresql:// URL for `directory`, a new schema of that database, dropped afterwards
(the server's CPU then leaves out PostgreSQL's own processes, as the in-process baseline does) -- and an
API key made for its tenant. For each worker count, `memql serve --workers W` runs as a
subprocess on 127.0.0.1 (a free port); for each client count C, C client threads (one keep-alive HTTP
connection each) send requests for `seconds`: a Retrieve (`/v1/retrieve`, k = 10, perf's queries) or, with
probability `write_share`, an Encode (`/v1/execute`). Reported per round: Retrieve/s and Encode/s, p50/p95
latency per operation, failed requests (any status but 200, or no answer), and the server's CPU time per
request (its processes' user + system time from /proc, Linux only).

Beside them, measured in the same run:

* ``cpu_ms_per_retrieve``: one Retrieve's CPU time in this process (`Memory.retrieve`, the same store,
  queries and engine settings as the server, no HTTP; every thread counted, as the server's is, so the
  batched write of its visit and read audit entry too), and ``cpu_bound_retrieve_per_s`` = cores / that
  — the most Retrieves/s the machine's cores could give if nothing but the Retrieve cost anything
  (``cpu_ms_per_retrieve_calling_thread``: the calling thread's share of it, without the batched writes);
* ``rest_over_cpu_bound``: per worker count, the Retrieve/s of a read-only round with the most clients
  over that bound (issue 20's acceptance asks ≥ 0.8 at 16 clients and 10,000 records);
* ``raw_sqlite_queries_per_s``: the floor — plain sqlite3 answering the same queries (FTS5's top 10 rows,
  every column) in one process over a copy of the notes (memql.store.sqlite.baseline).

The client threads run in this process and take CPU from the same cores; the report says how much
(``client_cpu_share``).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memql.bench.concurrency import load_store
from memql.bench.perf import TENANT, in_store, machine, raw_rows
from memql.ports.progress import Progress, silent

WARMUP_REQUESTS = 20
K = 10


def run(
    records: int = 10_000,
    *,
    workers: Sequence[int] = (1, 2),
    clients: Sequence[int] = (1, 4, 16),
    seconds: float = 5.0,
    write_share: float = 0.1,
    seed: int = 7,
    directory: str | os.PathLike[str] | None = None,
    progress: Progress = silent,
) -> dict[str, Any]:
    def measure(location: Path | str, folder: Path) -> dict[str, Any]:
        path, notes, queries, texts = load_store(location, records, seed, progress)
        key = _api_key(path)
        progress("baselines", 0, 2)
        cpu_ms, thread_ms = _cpu_ms_per_retrieve(path, queries, seconds)
        raw = _raw_sqlite_queries_per_s(folder, notes, queries, seconds)
        rounds = []
        total = len(workers) * (len(clients) + 1)
        for w in workers:
            with _Server(path, w) as server:
                _warm_up(server.base, key, queries)
                for j, c in enumerate([*clients, max(clients)]):  # the last: read-only, for the ratio
                    share = write_share if j < len(clients) else 0.0
                    progress(f"{w} worker(s), {c} client(s)", len(rounds), total)
                    rounds.append(
                        {"workers": w, **_round(server, key, c, share, queries, texts, seconds, len(rounds))}
                    )
        return {
            "rounds": rounds,
            "cpu_ms_per_retrieve": cpu_ms,
            "cpu_ms_per_retrieve_calling_thread": thread_ms,
            "raw_sqlite_queries_per_s": raw,
        }

    report = in_store(directory, "serve", f"serve-{records}.db", measure)  # (raw SQLite's floor: a file)
    cores = os.cpu_count() or 1
    bound = round(cores * 1000 / report["cpu_ms_per_retrieve"], 1)
    report["cpu_bound_retrieve_per_s"] = bound
    read_only = {r["workers"]: r for r in report["rounds"] if r["write_share"] == 0.0}
    report["rest_over_cpu_bound"] = {
        f"workers_{w}_clients_{r['clients']}": round(r["retrieve_per_s"] / bound, 3)
        for w, r in read_only.items()
    }
    report.update(
        records=records,
        seconds=seconds,
        write_share=write_share,
        machine=machine(),
        load_average=os.getloadavg(),
    )
    return report


# --- the server -------------------------------------------------------------------------------------


class _Server:
    """`memql serve --workers W` on a free port of 127.0.0.1, for the block: its `base` URL and `pid`."""

    def __init__(self, path: Path | str, workers: int) -> None:
        self.path, self.workers = path, workers

    def __enter__(self) -> _Server:
        args = [sys.executable, "-m", "memql.interfaces.cli", "--db", str(self.path), "serve", "--port", "0"]
        args += ["--workers", str(self.workers), "--embedder", "none", "--access-log", "off"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        self.pid = self.process.pid
        deadline = time.monotonic() + 120
        said, line = None, ""
        while said is None and time.monotonic() < deadline and (line := self.process.stderr.readline()):
            said = re.search(r"listening on (http://\S+)", line)
        if said is None:
            self.process.kill()
            raise RuntimeError(f"memql serve did not start: {line.strip()}")
        self.base = said[1]
        threading.Thread(target=self.process.stderr.read, daemon=True).start()  # never let it block
        while time.monotonic() < deadline:
            try:
                if _request(_connection(self.base), "GET", "/healthz", None, {})[0] == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        self.process.kill()
        raise RuntimeError("memql serve did not answer /healthz within 120 s")

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _connection(base: str) -> http.client.HTTPConnection:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    return http.client.HTTPConnection(host, int(port), timeout=120)


def _request(
    conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None, headers: dict[str, str]
) -> tuple[int, bytes]:
    conn.request(method, path, body=body, headers=headers)
    reply = conn.getresponse()
    return reply.status, reply.read()


def _api_key(path: Path | str) -> str:
    from memql.interfaces.apikeys import create_key
    from memql.store import open_store

    store = open_store(str(path))
    try:
        return create_key(store, tenant=TENANT, actor=TENANT, role="user", now=datetime.now(UTC)).secret
    finally:
        store.close()


def _headers(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}


def _retrieve_body(query: str) -> bytes:
    return json.dumps({"query": query, "k": K}).encode()


def _encode_body(text: str) -> bytes:
    return json.dumps({"op": "Encode", "args": {"payload": {"text": text}}}).encode()


def _warm_up(base: str, key: str, queries: list[str]) -> None:
    """Each worker's first searches load its lexical index: not part of any round."""
    conn = _connection(base)
    for q in queries[: WARMUP_REQUESTS * 4]:
        _request(conn, "POST", "/v1/retrieve", _retrieve_body(q), _headers(key))
    conn.close()


# --- one round ---------------------------------------------------------------------------------------


def _round(
    server: _Server,
    key: str,
    clients: int,
    write_share: float,
    queries: list[str],
    texts: list[str],
    seconds: float,
    number: int,
) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {"retrieve": [], "encode": []}
    failed = [0]
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)
    stop_at = [0.0]

    def client(n: int) -> None:
        rng = random.Random(n)  # the texts are distinct: memql stores an identical text once
        conn = _connection(server.base)
        mine: dict[str, list[float]] = {"retrieve": [], "encode": []}
        bad, i = 0, 0
        start.wait()
        while time.perf_counter() < stop_at[0]:
            write = rng.random() < write_share
            op = "encode" if write else "retrieve"
            body = (
                _encode_body(f"{texts[i % len(texts)]} ({number}/{n}/{i})")
                if write
                else _retrieve_body(queries[(n * 7919 + i) % len(queries)])
            )
            path = "/v1/execute" if write else "/v1/retrieve"
            t0 = time.perf_counter()
            try:
                status, _ = _request(conn, "POST", path, body, _headers(key))
            except (OSError, http.client.HTTPException):
                status = 0
                conn.close()
                conn = _connection(server.base)
            if status == 200:
                mine[op].append(time.perf_counter() - t0)
            else:
                bad += 1
            i += 1
        conn.close()
        with lock:
            for name, values in mine.items():
                latencies[name].extend(values)
            failed[0] += bad

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    server_cpu = _server_cpu(server.pid)
    client_cpu = time.process_time()
    stop_at[0] = time.perf_counter() + seconds
    start.wait()
    began = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    client_cpu = time.process_time() - client_cpu
    server_cpu = _server_cpu(server.pid) - server_cpu if server_cpu is not None else None
    out: dict[str, Any] = {"clients": clients, "write_share": write_share, "seconds": round(elapsed, 2)}
    for name, values in latencies.items():
        out[f"{name}s"] = len(values)
        out[f"{name}_per_s"] = round(len(values) / elapsed, 1)
        out |= _percentiles(values, name)
    out["failed"] = failed[0]
    out["client_cpu_share"] = round(client_cpu / (elapsed * (os.cpu_count() or 1)), 3)
    requests = out["retrieves"] + out["encodes"]
    measured = server_cpu is not None and requests
    out["server_cpu_ms_per_request"] = round(1000 * server_cpu / requests, 3) if measured else None
    return out


def _percentiles(values: list[float], name: str) -> dict[str, float | None]:
    if not values:
        return {f"{name}_p50_ms": None, f"{name}_p95_ms": None}
    ordered = sorted(values)
    pick = lambda q: round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)  # noqa: E731
    return {f"{name}_p50_ms": pick(0.50), f"{name}_p95_ms": pick(0.95)}


def _server_cpu(pid: int) -> float | None:
    """User + system seconds of the server process and its workers so far (/proc; None elsewhere)."""
    try:
        pids = [pid, *map(int, Path(f"/proc/{pid}/task/{pid}/children").read_text().split())]
        ticks = 0
        for p in pids:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, TypeError):
        return None


# --- the baselines -------------------------------------------------------------------------------------


def _cpu_ms_per_retrieve(path: Path | str, queries: list[str], seconds: float) -> tuple[float, float]:
    """One Retrieve's CPU time in this process: the same store, queries and engine settings as the server.
    Counted as the server's is, every thread of the process: the search, and the write of the visits and
    read audit entries it leaves (a timer thread writes those, in batches), flushed at the end. Measured
    once the lexical index is ready, as the server's rounds are (after its warm-up). Also the calling
    thread's own time over the same Retrieves (what this baseline counted before it counted every thread)."""
    from memql import Memory

    m = Memory(str(path), tenant=TENANT, actor=TENANT, embedder=None)
    try:
        for q in queries[:WARMUP_REQUESTS]:
            m.retrieve(query=q, k=K)
        lexical = getattr(m.store, "lexical", None)
        if lexical is not None:
            lexical.wait()  # the in-process index, prepared by a thread while FTS5 answers
            m.retrieve(query=queries[0], k=K)
        m.store.flush_visits()
        done, cpu, own = 0, time.process_time(), time.thread_time()
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            m.retrieve(query=queries[done % len(queries)], k=K)
            done += 1
        own = time.thread_time() - own
        m.store.flush_visits()  # what these Retrieves left to write is part of their cost
        return round(1000 * (time.process_time() - cpu) / done, 3), round(1000 * own / done, 3)
    finally:
        m.close()


def _raw_sqlite_queries_per_s(
    folder: Path, notes: Sequence[Any], queries: list[str], seconds: float
) -> float:
    """Plain sqlite3: FTS5's top 10 rows (every column) for each query, in one process."""
    from memql.store.sqlite.baseline import RawSQLite, match_expression

    raw = RawSQLite(folder / "raw.db")
    try:
        raw.insert(raw_rows(notes), 1000)
        matches = [match_expression(q) for q in queries]
        done = 0
        stop = time.perf_counter() + seconds
        began = time.perf_counter()
        while time.perf_counter() < stop:
            raw.search(TENANT, matches[done % len(matches)], K)  # the rows' columns, as a Retrieve reads
            done += 1
        return round(done / (time.perf_counter() - began), 1)
    finally:
        raw.close()
