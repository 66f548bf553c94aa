"""Many Retrieves over stores with governance cases, to check that a change of the read path returns
identical answers: every row with the fields asked, its score and explanation, and the visits after.

    PYTHONPATH=OLD/src python3 benchmarks/compare_retrieves.py build DIR   # the stores, built once
    PYTHONPATH=OLD/src python3 benchmarks/compare_retrieves.py run DIR > old.json
    PYTHONPATH=NEW/src python3 benchmarks/compare_retrieves.py run DIR > new.json
    cmp old.json new.json

Four stores (exact vectors with FTS5, HNSW with the postings index, auto, exact with postings) of three
owners' records -- private, whitelisted and blacklisted ones, sensitive and restricted ones, locked,
expired, archived, rewritten, some with the facets a row shows as subject, location and topic -- and
another tenant's; six callers (two owners, a low clearance, an admin, the other tenant, no embedder) run
hybrid, lexical, MMR, filtered, re-weighted, any-status and by-vector Retrieves (showing the default
fields, many, every one or a few of them), each store twice (the second time reopened). `run` copies DIR,
so both codes start from the same files (a graph's build order is not deterministic); the visit buffer
flushes only between callers (a timer's flush racing a read changes what that read sees of the visits,
whichever the code). Then governance changes between reads, each after Retrieves at one database
version: by another connection, by another process, by the readers' own connection, and an expiry
passing with nothing written."""

import json
import os
import random
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import get_args

from memql import Memory
from memql.lang.ops.read import IncludeField
from memql.store.sqlite import SQLiteStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from word_hash_embedder import WordHashEmbedder

WORDS = [
    "piano",
    "invoice",
    "gas",
    "milk",
    "standup",
    "demo",
    "report",
    "server",
    "draft",
    "meeting",
    "project",
    "health",
    "home",
    "travel",
    "budget",
    "cat",
    "dog",
    "lesson",
    "recital",
    "friday",
    "monday",
    "tax",
    "bank",
]
NOW = datetime(2026, 3, 2, tzinfo=UTC)
EVERY_FIELD = list(get_args(IncludeField))
INCLUDE = [
    "id",
    "text",
    "type",
    "tags",
    "facets",
    "time",
    "weight",
    "status",
    "score",
    "explain",
    "visits",
    "last_access_at",
    "owner",
    "sensitivity",
    "lock",
]


def build(path, n, vector_index, lexical_index, seed):
    rnd = random.Random(seed)
    store = SQLiteStore(str(path), vector_index=vector_index, lexical_index=lexical_index)
    emb = WordHashEmbedder(24)
    users = {
        a: Memory(store, tenant="acme", actor=a, clock=NOW, embedder=emb) for a in ("alice", "bob", "carol")
    }
    other = Memory(store, tenant="other", actor="alice", clock=NOW, embedder=emb)
    ids = []
    for i in range(n):
        actor = rnd.choice(list(users))
        m = users[actor]
        text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(2, 7)))
        args = {
            "tags": rnd.sample(["t1", "t2", "t3", "t4"], rnd.randint(0, 2)),
            "time": (NOW - timedelta(days=rnd.randint(0, 400), minutes=i)).isoformat(),
            "weight": round(rnd.random(), 2),
        }
        r = rnd.random()
        if r < 0.15:
            args["read_perm_level"] = "private"
        elif r < 0.2:
            args["read_perm_level"] = "custom"
            args["read_whitelist"] = ["bob"]
        elif r < 0.25:
            args["read_blacklist"] = ["carol"]
        if rnd.random() < 0.3:  # fields that rows show through others (subject, location, topic, type)
            facets = {"subject": "ann", "location": rnd.choice(WORDS), "topic": rnd.choice(WORDS)}
            args["facets"] = dict(rnd.sample(sorted(facets.items()), rnd.randint(1, 3)))
            args["type"] = rnd.choice(["note", "task", "event"])
        if rnd.random() < 0.1:
            args["sensitivity"] = "sensitive"
        elif rnd.random() < 0.1:
            args["sensitivity"] = "restricted"
        res = m.encode(text, **args)
        assert res.success, res.diagnostics
        ids.append((actor, res.affected_ids[0]))
        if rnd.random() < 0.2:
            other.encode(text)
    for actor, rid in rnd.sample(ids, n // 12):
        users[actor].lock([rid], mode="read_only", reason="r")
    for actor, rid in rnd.sample(ids, n // 12):
        assert (
            users[actor]
            .expire(
                [rid],
                until=(NOW - timedelta(days=1)).isoformat()
                if rnd.random() < 0.6
                else (NOW + timedelta(days=3)).isoformat(),
                on_expire="soft_delete",
            )
            .success
            or True
        )
    for actor, rid in rnd.sample(ids, n // 20):
        users[actor].demote([rid], archive=True)
    for actor, rid in rnd.sample(ids, n // 25):
        users[actor].update([rid], text=" ".join(rnd.choice(WORDS) for _ in range(3)))
    store.vectors.wait()
    store.lexical.wait()
    store.close()


def readers(store, emb):
    yield "alice", Memory(store, tenant="acme", actor="alice", clock=NOW, embedder=emb)
    yield "bob", Memory(store, tenant="acme", actor="bob", clock=NOW, embedder=emb)
    yield (
        "carol-standard",
        Memory(store, tenant="acme", actor="carol", clock=NOW, embedder=emb, clearance="standard"),
    )
    yield (
        "admin",
        Memory(store, tenant="acme", actor="dave", admin=True, clock=NOW + timedelta(hours=1), embedder=emb),
    )
    yield "other", Memory(store, tenant="other", actor="alice", clock=NOW, embedder=emb)
    yield "noemb", Memory(store, tenant="acme", actor="alice", clock=NOW, embedder=None)


def run(path, vector_index, lexical_index, seed, out):
    rnd = random.Random(seed + 1)
    store = SQLiteStore(str(path), vector_index=vector_index, lexical_index=lexical_index)
    store.visits.interval = 1e9  # flushed by flush_visits below only: a timer's flush races the reads
    emb = WordHashEmbedder(24)
    for _name, m in readers(store, emb):  # every tenant's caches made, their builds done
        m.retrieve("piano budget", k=1)
        store.vectors.wait()
        store.lexical.wait()
    store.vectors.wait()
    store.lexical.wait()
    for name, m in readers(store, emb):
        for i in range(40):
            q = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 3)))
            kind = i % 10
            kw = {"include": INCLUDE, "k": rnd.choice([1, 3, 10, 25])}
            if kind == 0:
                pass
            elif kind == 1:
                kw["overrides"] = {"alpha": 0.0}
            elif kind == 2:
                kw["overrides"] = {"mmr": 0.5}
            elif kind == 3:
                kw["filter"] = {"has_tags": ["t1"]}
            elif kind == 4:
                kw["filter"] = {
                    "time_range": {"start": (NOW - timedelta(days=90)).isoformat(), "end": NOW.isoformat()}
                }
            elif kind == 5:
                kw["overrides"] = {"alpha": 0.8, "recency": 0.3, "heat": 0.5}
            elif kind == 6:
                kw["filter"] = {"status": "any"}
            elif kind == 7:
                kw["include"] = None
            elif kind == 8:  # every field a row can show
                kw["include"] = EVERY_FIELD
            elif kind == 9:  # a few of them (a read of some fields of each record)
                kw["include"] = rnd.sample(EVERY_FIELD, rnd.randint(1, 6))
            res = m.retrieve(q, **kw)
            out.append(
                [
                    name,
                    vector_index,
                    lexical_index,
                    q,
                    kind,
                    res.success,
                    res.data if res.success else [d.rule for d in res.diagnostics],
                    [w.rule for w in res.warnings],
                ]
            )
            if i % 7 == 0:  # a vector given
                v = emb.embed([q])[0]
                res = m.execute(
                    {
                        "op": "Retrieve",
                        "target": {"search": {"intent": {"vector": v}, "overrides": {"k": 10}}},
                        "args": {"include": INCLUDE},
                    }
                )
                out.append([name, "vec", q, res.success, res.data if res.success else None])
        m.store.flush_visits()
        store.vectors.wait()
    rows = store.execute_sql("SELECT num, visits, last_access_at FROM records ORDER BY num")
    out.append(["visits", vector_index, lexical_index, [tuple(r) for r in rows]])
    store.close()


def probe(memories, rnd, emb, out, label):
    """A few hybrid and by-vector Retrieves per reader, without a flush: repeated at one database version,
    they warm whatever a read path keeps between reads before the change that follows."""
    for name, m in memories:
        for i in range(12):
            q = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 3)))
            if i % 3 == 2:
                ir = {"search": {"intent": {"vector": emb.embed([q])[0]}, "overrides": {"k": 10}}}
                res = m.execute({"op": "Retrieve", "target": ir, "args": {"include": INCLUDE}})
            else:
                res = m.retrieve(q, k=rnd.choice([3, 10]), include=INCLUDE)
            out.append([label, name, q, res.success, res.data if res.success else None])


def changes(path, vector_index, lexical_index, seed, out):
    """Governance changing between reads: by another connection, by another process, by the readers' own
    connection, and expiry passing while nothing is written."""
    rnd = random.Random(seed + 100)
    store = SQLiteStore(str(path), vector_index=vector_index, lexical_index=lexical_index)
    store.visits.interval = 1e9
    emb = WordHashEmbedder(24)
    rows = store.execute_sql("SELECT num, owner FROM records WHERE tenant = 'acme' ORDER BY num")
    owned = [(str(r[0]), r[1]) for r in rows]
    readers = [
        (a, Memory(store, tenant="acme", actor=a, clock=NOW, embedder=emb)) for a in ("alice", "bob", "carol")
    ]
    later = [
        (
            "alice+1h",
            Memory(store, tenant="acme", actor="alice", clock=NOW + timedelta(hours=1), embedder=emb),
        )
    ]
    other = SQLiteStore(str(path), vector_index=vector_index, lexical_index=lexical_index)
    probe(readers, rnd, emb, out, "before")
    with other.transaction() as s:  # another connection: permissions, status, expiry soon
        for rid, _ in rnd.sample(owned, len(owned) // 5):
            change = rnd.choice(
                [
                    {"read_perm_level": "private"},
                    {"read_blacklist": ["bob"]},
                    {"read_perm_level": "custom", "read_whitelist": ["carol"]},
                    {"status": "archived"},
                    {"sensitivity": "restricted"},
                    {"expire_at": NOW + timedelta(minutes=30)},
                    {"read_perm_level": "public", "read_blacklist": []},
                ]
            )
            s.update("acme", rid, change)
    probe(readers, rnd, emb, out, "other connection")
    probe(later, rnd, emb, out, "expiry passed")  # the same database version, an hour later
    script = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None); "
        "c.execute(\"UPDATE records SET owner = 'bob' WHERE tenant = 'acme' AND num % 7 = 3\")"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)
    probe(readers, rnd, emb, out, "other process")
    for rid, owner in rnd.sample(owned, len(owned) // 10):  # the readers' own connection, through the engine
        m = Memory(store, tenant="acme", actor=owner or "alice", clock=NOW, embedder=emb)
        res = m.update([rid], read_perm_level=rnd.choice(["private", "team", "public"]))
        out.append(["update", rid, res.success])
    probe(readers, rnd, emb, out, "same connection")
    other.close()
    store.flush_visits()
    rows = store.execute_sql("SELECT num, visits, last_access_at FROM records ORDER BY num")
    out.append(["visits after changes", vector_index, lexical_index, [tuple(r) for r in rows]])
    store.close()


CONFIGS = (
    (400, "exact", "fts5", 1),
    (600, "hnsw", "postings", 2),
    (300, "auto", "auto", 3),
    (500, "exact", "postings", 4),
)
if sys.argv[1] == "build":  # compare.py build DIR: the stores, once
    base = Path(sys.argv[2])
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    for n, vi, li, seed in CONFIGS:
        build(base / f"s-{n}-{vi}-{li}.db", n, vi, li, seed)
else:  # compare.py run DIR: the Retrieves on a copy of the stores
    base = Path(f"/tmp/memql-compare-retrieves-{os.getpid()}")
    shutil.rmtree(base, ignore_errors=True)
    shutil.copytree(sys.argv[2], base)
    out = []
    for n, vi, li, seed in CONFIGS:
        p = base / f"s-{n}-{vi}-{li}.db"
        run(p, vi, li, seed, out)
        run(p, vi, li, seed + 10, out)  # reopened: snapshots, pending visits from the first run written
        changes(p, vi, li, seed, out)
    print(json.dumps(out, default=str, sort_keys=True))
    shutil.rmtree(base, ignore_errors=True)
