"""Size limits (413 before parsing, declared or chunked), malformed requests (4xx, never 5xx), and the
access log (one JSON line per request, with the key's id and tenant but never the key)."""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlsplit

from rest_server import start_server, stop_server

LIMIT = 1 << 20  # the server's default --max-body


def test_a_body_over_the_limit_is_413_declared_or_chunked(server, user):
    big = b'{"op": "Encode", "args": {"payload": {"text": "' + b"a" * LIMIT + b'"}}}'
    r = user.post("/v1/execute", content=big)
    assert r.status_code == 413 and r.json()["diagnostics"][0]["rule"] == "http.too_large"

    def chunks():  # no Content-Length: the limit is counted as the bytes arrive
        for _ in range(LIMIT // 65536 + 2):
            yield b"a" * 65536

    r = user.post("/v1/execute", content=chunks())
    assert r.status_code == 413 and r.json()["diagnostics"][0]["rule"] == "http.too_large"
    # just under the limit is parsed (and refused by the language for what it is, not for its size)
    fits = b'{"op": "Encode", "args": {"payload": {"text": "' + b"a" * (LIMIT - 100) + b'"}}}'
    r = user.post("/v1/execute", content=fits)
    assert r.status_code != 413 and r.status_code < 500, r.text


def test_a_configured_limit_and_malformed_requests_on_a_server_of_its_own(server, tmp_path, memql_shim):
    options = ["--embedder", "none", "--max-body", "64"]
    process, base = start_server(memql_shim / "memql", server.location, tmp_path / "access.log", *options)
    try:
        key = server.key("limits", "mira")
        client = server.client(key)
        client.base_url = base
        r = client.post("/v1/execute", json={"op": "Encode", "args": {"payload": {"text": "x" * 64}}})
        assert r.status_code == 413
        assert (
            client.post("/v1/execute", json={"op": "Encode", "args": {"payload": {"text": "x"}}}).status_code
            == 200
        )
        # a Content-Length that is not a number: 400, from the limit itself
        host, port = urlsplit(base).hostname, urlsplit(base).port
        with socket.create_connection((host, port), timeout=10) as raw:
            raw.sendall(b"POST /v1/execute HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n")
            assert raw.recv(200).split(b" ")[1] in (b"400", b"413")
    finally:
        stop_server(process)


def test_malformed_typed_bodies_are_4xx(user):
    cases = [
        ("/v1/retrieve", b'{"query": '),  # truncated JSON
        (
            "/v1/retrieve",
            b'{"filter": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        ),  # nesting past the parser's depth
        ("/v1/retrieve", b'{"k": 0}'),
        ("/v1/retrieve", b'{"k": "many"}'),
        ("/v1/plan", b"[]"),
        ("/v1/plan", b'{"text": ""}'),
        ("/v1/proposals/1/edit", b'"just a string"'),
    ]
    for path, body in cases:
        r = user.post(path, content=body, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, (path, body[:30], r.text)
        assert r.json()["success"] is False and r.json()["diagnostics"], r.text


def test_the_access_log_has_one_json_line_per_request_and_never_the_key(server, tenant):
    made = server.key(tenant, "mira")
    client = server.client(made)
    client.get("/v1/proposals", headers={"x-trace": tenant})
    client.get("/v1/memories/424242")
    client.post("/v1/retrieve", json={"query": "standup"})  # a route that checks its key in its own thread
    server.client().get("/v1/proposals")
    # a request's line is written once its response has gone out: wait for the four of them
    deadline = time.monotonic() + 120  # a bound for a loaded machine; it returns at once otherwise
    while True:
        text = server.access_log.read_text()
        complete = text[: text.rfind("\n") + 1]  # the line being written, if any, is not read yet
        assert complete.isascii()  # so no path character can break a line (the fuzzer sends U+2028, NEL …)
        lines = [json.loads(line) for line in complete.splitlines()]  # every line is JSON
        written = (
            len([line for line in lines if line["tenant"] == tenant]) == 3 and lines[-1]["status"] == 401
        )
        if written or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert made.secret not in text and made.key.secret_hash not in text
    mine = [line for line in lines if line["tenant"] == tenant]
    assert [(line["method"], line["path"], line["status"]) for line in mine] == [
        ("GET", "/v1/proposals", 200),
        ("GET", "/v1/memories/424242", 404),
        ("POST", "/v1/retrieve", 200),
    ]
    assert all(line["key_id"] == made.key.id and line["actor"] == "mira" for line in mine)
    assert all(isinstance(line["duration_ms"], float | int) and line["duration_ms"] >= 0 for line in lines)
    anonymous = [line for line in lines if line["status"] == 401]
    assert anonymous and all(line["key_id"] is None and line["tenant"] is None for line in anonymous)
