"""SQLite schema and its versioned migrations (PRAGMA user_version holds the applied version)."""

from __future__ import annotations

import random
import sqlite3
import threading
import time

# instants are INTEGER microseconds since the Unix epoch, UTC; the view renders the reference's ISO strings
_ISO = "strftime('%Y-%m-%dT%H:%M:%SZ', {col} / 1000000, 'unixepoch')"

MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        f"""
CREATE TABLE records (
    num INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant TEXT NOT NULL,
    owner TEXT, agent TEXT, session TEXT,
    text TEXT, url TEXT, structured TEXT, payload_meta TEXT NOT NULL DEFAULT '{{}}',
    kind TEXT, tags TEXT NOT NULL DEFAULT '[]', facets TEXT NOT NULL DEFAULT '{{}}',
    keywords TEXT NOT NULL DEFAULT '[]', source TEXT, content_hash TEXT,
    memory_type TEXT, category TEXT, sensitivity TEXT NOT NULL DEFAULT 'standard', confidence REAL,
    weight REAL NOT NULL DEFAULT 0.5, status TEXT NOT NULL DEFAULT 'active',
    lock_mode TEXT, lock_reason TEXT, lock_policy TEXT, lock_until INTEGER, lock_by TEXT,
    expire_at INTEGER, on_expire TEXT,
    remind_rrule TEXT, remind_until INTEGER, next_remind_at INTEGER,
    auto_frequency TEXT, next_auto_update_at INTEGER,
    read_perm_level TEXT, write_perm_level TEXT,
    read_whitelist TEXT, read_blacklist TEXT, write_whitelist TEXT, write_blacklist TEXT,
    visits INTEGER NOT NULL DEFAULT 0, last_access_at INTEGER, interactions INTEGER NOT NULL DEFAULT 0,
    tier TEXT,
    embedding BLOB, embedding_model TEXT, embedding_dim INTEGER,
    embedding_status TEXT NOT NULL DEFAULT 'none',
    time INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER,
    schema_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX records_by_tenant_status ON records (tenant, status, time);
CREATE INDEX records_by_hash ON records (tenant, content_hash);
CREATE INDEX records_by_expiry ON records (tenant, expire_at) WHERE expire_at IS NOT NULL;
CREATE INDEX records_by_reminder ON records (tenant, next_remind_at) WHERE next_remind_at IS NOT NULL;

-- the lexical index: rowid = records.num, body = memql.services.index_text(...) (CJK as bigrams)
CREATE VIRTUAL TABLE records_fts USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');

CREATE TABLE links (
    tenant TEXT NOT NULL, src TEXT NOT NULL, dst TEXT NOT NULL, relation TEXT NOT NULL,
    created_at INTEGER,
    PRIMARY KEY (tenant, src, dst, relation)
);
CREATE INDEX links_by_dst ON links (tenant, dst);

CREATE TABLE operations (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    time INTEGER NOT NULL, tenant TEXT NOT NULL, actor TEXT, op TEXT NOT NULL, ir TEXT NOT NULL,
    affected_ids TEXT NOT NULL, trace_id TEXT, workflow_id TEXT, step INTEGER
);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    op_seq INTEGER NOT NULL REFERENCES operations (seq),
    tenant TEXT NOT NULL, record_id TEXT NOT NULL, kind TEXT NOT NULL,
    before TEXT NOT NULL, after TEXT NOT NULL
);
CREATE INDEX events_by_record ON events (tenant, record_id, seq);
CREATE INDEX operations_by_tenant_time ON operations (tenant, time);

-- the Text2Mem reference's view of a memory, for the bench's SQL assertions. `deleted` maps memql's
-- statuses onto the reference's flag: soft-deleted records, and split parents (which memql archives
-- but the reference deletes), read as deleted; archived records otherwise read as kept.
CREATE VIEW memory AS
SELECT CAST(r.num AS TEXT) AS id, r.tenant, r.text, r.kind AS type, r.tags, r.facets, r.weight,
       CASE WHEN r.status = 'deleted'
             OR (r.status = 'archived' AND EXISTS (SELECT 1 FROM links l WHERE l.tenant = r.tenant
                 AND l.dst = CAST(r.num AS TEXT) AND l.relation = 'split_from'))
            THEN 1 ELSE 0 END AS deleted,
       {_ISO.format(col="r.expire_at")} AS expire_at, r.on_expire, r.lock_mode, r.lock_reason,
       {_ISO.format(col="COALESCE(r.time, r.created_at)")} AS time,
       json_extract(r.facets, '$.subject') AS subject, json_extract(r.facets, '$.location') AS location,
       json_extract(r.facets, '$.topic') AS topic, r.source, r.status, r.memory_type, r.category,
       r.sensitivity, r.url, r.structured, r.keywords,
       {_ISO.format(col="r.created_at")} AS created_at, {_ISO.format(col="r.updated_at")} AS updated_at,
       r.read_perm_level, r.write_perm_level, r.auto_frequency, r.remind_rrule AS remind,
       {_ISO.format(col="r.next_remind_at")} AS next_remind_at
FROM records r;
""",
    ),
]

MIGRATIONS.append(
    (
        2,
        """
-- reads order by event time within (tenant, status): walking this index newest-first stops after the
-- LIMIT instead of sorting every row of the tenant (a tag filter at 100k records: 270 ms -> 0.1 ms)
CREATE INDEX records_by_tenant_status_when ON records (tenant, status, COALESCE(time, created_at));
""",
    )
)

MIGRATIONS.append(
    (
        3,
        """
-- dense retrieval: each stored embedding gets the next value of one store-wide sequence, so a process's
-- vector cache catches up by reading only rows with a higher embedding_seq (writes by any process)
ALTER TABLE records ADD COLUMN embedding_seq INTEGER;
CREATE INDEX records_by_embedding_seq ON records (tenant, embedding_seq) WHERE embedding_seq IS NOT NULL;
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO counters (name, value) VALUES ('embedding_seq', 0);
""",
    )
)

MIGRATIONS.append(
    (
        4,
        """
-- the lexical index gains a second column, `context` (payload.context: what situates a memory, ranked at
-- a lower weight than its own text); the store refills the new table from the records when it opens
DROP TABLE records_fts;
CREATE VIRTUAL TABLE records_fts USING fts5(body, context, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO counters (name, value) VALUES ('lexical_rebuild', 1);
""",
    )
)

MIGRATIONS.append(
    (
        5,
        """
-- the lexical index records which analyzer wrote it (memql.services.tokenize.ANALYZER_VERSION) and the
-- store refills it when it opens under a different one. An index written before this migration was
-- written by analyzer 1, unless migration 4 has just asked for a refill: 0 (no analyzer) then.
INSERT INTO counters (name, value)
SELECT 'lexical_analyzer',
       CASE WHEN EXISTS (SELECT 1 FROM counters WHERE name = 'lexical_rebuild') THEN 0 ELSE 1 END;
DELETE FROM counters WHERE name = 'lexical_rebuild';
""",
    )
)

MIGRATIONS.append(
    (
        6,
        """
-- record schema 2, typed facts: (tenant, subject, attribute) -> value with a world-time validity window;
-- rows written before it are upgraded (their fact fields are empty: they are not facts)
ALTER TABLE records ADD COLUMN subject TEXT;
ALTER TABLE records ADD COLUMN attribute TEXT;
ALTER TABLE records ADD COLUMN value TEXT;
ALTER TABLE records ADD COLUMN valid_from INTEGER;
ALTER TABLE records ADD COLUMN valid_to INTEGER;
ALTER TABLE records ADD COLUMN evidence TEXT;
CREATE INDEX records_by_fact ON records (tenant, subject, attribute, valid_from) WHERE attribute IS NOT NULL;
UPDATE records SET schema_version = 2 WHERE schema_version < 2;
""",
    )
)

MIGRATIONS.append(
    (
        7,
        """
-- every change of a record's lexical index row (insert, text change, hard delete, import) appends its
-- number here, in the same transaction: a process's in-process BM25 index (memql.store.sqlite.lexical)
-- catches up by reading the changes above the last one it absorbed, whichever process wrote them. Rows
-- are only ever deleted all at once, when the lexical index is refilled (and every index starts over).
CREATE TABLE lexical_changes (seq INTEGER PRIMARY KEY, num INTEGER NOT NULL);
""",
    )
)

MIGRATIONS.append(
    (
        8,
        """
-- REST API keys (memql.interfaces.apikeys): each maps to a tenant and an identity; only the SHA-256 of
-- the secret is kept, and `id` is the key's public prefix for listing and revoking
CREATE TABLE api_keys (
    id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL, actor TEXT NOT NULL,
    role TEXT NOT NULL, consent TEXT, clearance TEXT, name TEXT,
    created_at INTEGER NOT NULL, revoked_at INTEGER
);
""",
    )
)

MIGRATIONS.append(
    (
        9,
        """
-- key-addressed records (a document store's items): (tenant, namespace, key) names one live record;
-- namespace holds the labels joined by U+001F, so a namespace prefix is a string prefix. ttl is the
-- ISO duration a refreshing read renews expire_at by; index_paths (JSON) what of a structured payload is
-- indexed ([]: nothing; absent: all of it)
ALTER TABLE records ADD COLUMN namespace TEXT;
ALTER TABLE records ADD COLUMN key TEXT;
ALTER TABLE records ADD COLUMN ttl TEXT;
ALTER TABLE records ADD COLUMN index_paths TEXT;
-- one live record per (tenant, namespace, key), even between concurrent writers (the engine retires a
-- lapsed holder before it inserts)
CREATE UNIQUE INDEX records_by_key ON records (tenant, namespace, key)
    WHERE key IS NOT NULL AND status IN ('active', 'pending', 'archived');
-- reads by namespace, namespace prefix (a range: the labels, then U+001F) and key
CREATE INDEX records_by_namespace ON records (tenant, namespace, key) WHERE namespace IS NOT NULL;
""",
    )
)

MIGRATIONS.append(
    (
        10,
        """
-- one vector per text of a record with several index paths (float32 rows, records.embedding_model):
-- a dense search scores the record by its best one. Changed with the record's embedding, under its
-- embedding_seq, so the vector caches catch up on both at once
ALTER TABLE records ADD COLUMN path_embeddings BLOB;
CREATE INDEX records_with_path_vectors ON records (tenant) WHERE path_embeddings IS NOT NULL;
""",
    )
)

MIGRATIONS.append(
    (
        11,
        """
-- every change of a record (inserted, deleted, any column updated, heat included) appends its number, in
-- commit order: a process's copy of the records' governance (memql.store.sqlite.governed) re-checks only
-- the records changed since it was current. Kept by triggers, so every writer counts (another process,
-- plain SQL). The oldest entries go as the log passes 100,000 (a copy further behind is loaded afresh)
CREATE TABLE record_changes (seq INTEGER PRIMARY KEY, num INTEGER NOT NULL);
CREATE TRIGGER records_inserted AFTER INSERT ON records
BEGIN INSERT INTO record_changes (num) VALUES (NEW.num); END;
CREATE TRIGGER records_deleted AFTER DELETE ON records
BEGIN INSERT INTO record_changes (num) VALUES (OLD.num); END;
CREATE TRIGGER records_updated AFTER UPDATE ON records
BEGIN
    INSERT INTO record_changes (num) VALUES (NEW.num);
    INSERT INTO record_changes (num) SELECT OLD.num WHERE OLD.num <> NEW.num;
END;
CREATE TRIGGER record_changes_pruned AFTER INSERT ON record_changes WHEN NEW.seq % 10000 = 0
BEGIN DELETE FROM record_changes WHERE seq <= NEW.seq - 100000; END;
""",
    )
)

LATEST = MIGRATIONS[-1][0]


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration newer than the file's user_version, each in its own transaction.

    The version is read again under the write lock, so processes opening a fresh file at the same
    moment apply each migration exactly once.
    """
    if conn.execute("PRAGMA user_version").fetchone()[0] == LATEST:
        return LATEST  # up to date: no lock needed
    for version, script in MIGRATIONS:
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if current > LATEST:
                raise RuntimeError(f"this store was written by a newer memql (schema {current} > {LATEST})")
            if version > current:
                for statement in _statements(script):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return LATEST


_template: sqlite3.Connection | None = None  # an in-memory database at LATEST, made by `migrate`
_template_lock = threading.Lock()


def copy_latest(conn: sqlite3.Connection) -> None:
    """Make `conn`'s new, empty in-memory database a store at LATEST: a page copy (SQLite's backup API) of
    one this process built once with `migrate`, so the same schema and rows. In-memory stores are made by
    the hundred (a bench sample each, most tests), and replaying every migration costs ~10 ms, the copy
    ~0.05 ms. Not for files: another process may be migrating a new file at the same moment."""
    global _template
    with _template_lock:
        if _template is None:
            template = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            migrate(template)
            _template = template
        _template.backup(conn)


def _statements(script: str) -> list[str]:
    """Split a migration into statements (sqlite3.complete_statement knows where each one ends)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--") and not buf.strip():
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def enable_wal(conn: sqlite3.Connection, busy_timeout_ms: int) -> None:
    """Switch the file to WAL (a persistent setting). The switch needs an exclusive lock and SQLite may
    report "locked" at once, without its busy handler, while another process opens the same fresh
    file: retry within the busy timeout."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.005 + random.random() * 0.02)
