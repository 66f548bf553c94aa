"""Regenerates the ported LangGraph store tests in this folder from a checkout of langchain-ai/langgraph:

    python3 tests/integrations/port_langgraph_tests.py /path/to/langgraph && ruff format tests/integrations

It reads each source file at COMMIT (git show), leaves out the tests listed in `dropped` (each with its
reason), swaps LangGraph's store fixtures and constructors for MemqlStore ones (langgraph_stores.open_store)
; no assertion is touched, so a diff against the source shows
exactly the adaptations. A script, not a test module: pytest does not collect it, nothing imports it."""
# ruff: noqa

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
CHECKOUT = Path(sys.argv[1])


def upstream(path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(CHECKOUT), "show", f"{COMMIT}:{path}"], check=True, capture_output=True, text=True
    ).stdout


def write(name: str, text: str) -> None:
    (HERE / name).write_text(text, encoding="utf-8")


COMMIT = "f09cfe8ffc1eeffd68f4b628ed69c30f7cad229f"


def drop(src: str, names: list[str]) -> str:
    for name in names:
        m = re.search(rf"^((?:@.*\n)*)(async )?def {name}\(", src, re.M)
        assert m, name
        start = m.start()
        nxt = re.compile(r"^(?:@|def |async def |class |# )", re.M)
        n = nxt.search(src, m.end())
        end = n.start() if n else len(src)
        src = src[:start] + src[end:]
    return src


def header(path: str, dropped: dict[str, str]) -> str:
    lines = [
        f'"""Ported from langchain-ai/langgraph, {path} at commit {COMMIT}',
        "(MIT licence, Copyright (c) 2024 LangChain, Inc.): LangGraph's own store tests, run on",
        "memql.integrations.langgraph.MemqlStore on every memql backend. Only fixtures and constructors are",
        "adapted (a MemqlStore from langgraph_stores.open_store in place of the LangGraph store); every",
        "assertion is unchanged. Not ported (docs/integrations.md lists them with their reasons):",
    ]
    for name, why in dropped.items():
        lines.append(f"- {name}: {why}")
    lines.append('"""')
    lines.append("# ruff: noqa")
    return "\n".join(lines) + "\n\n"


# --- libs/checkpoint-sqlite/tests/test_store.py -------------------------------------------------------

OTHER = "tests another backend's own configuration"
src = upstream("libs/checkpoint-sqlite/tests/test_store.py")
dropped = {
    "test_vector_store_initialization": OTHER + " (SqliteStore's vector tables in sqlite_master)",
    "test_nonnull_migrations": OTHER + " (SqliteStore.MIGRATIONS)",
    "test_escape_glob_literal": OTHER + " (SqliteStore's GLOB escaping helper)",
    "test_namespace_match_pattern": OTHER + " (SqliteStore's regex helper)",
    "test_list_namespaces_prefix_uses_indexable_condition": OTHER + " (the SQL SqliteStore builds)",
}
src = drop(src, list(dropped))
src = src.replace(
    """
from langgraph.store.sqlite import SqliteStore
from langgraph.store.sqlite.base import (
    NS_MATCH_FUNCTION,
    BaseSqliteStore,
    SqliteIndexConfig,
    _escape_glob_literal,
    _namespace_match_pattern,
)
""",
    """from langgraph_stores import open_store

from memql.integrations.langgraph import MemqlStore
""",
)
old_fixture = src[
    src.index('@pytest.fixture(scope="function", params=["memory", "file"])') : src.index(
        '@pytest.fixture(scope="function")\ndef fake_embeddings'
    )
]
src = src.replace(
    old_fixture,
    '''@pytest.fixture(scope="function")
def store() -> Generator[MemqlStore, None, None]:
    """A MemqlStore on a new store of the run's memql backend."""
    yield open_store()


''',
)
a = src.index("    index_config: SqliteIndexConfig = {")
b = src.index("def test_batch_order")
src = (
    src[:a]
    + """    index_config = {
        "dims": fake_embeddings.dims,
        "embed": fake_embeddings,
        "text_fields": text_fields,
        "distance_type": distance_type,  # This is for API consistency but SQLite only supports cosine
    }
    yield open_store(index=index_config)


"""
    + src[b:]
)
src = src.replace(") -> Generator[SqliteStore, None, None]:", ") -> Generator[MemqlStore, None, None]:")
src = src.replace(
    'with SqliteStore.from_conn_string(":memory:") as store:\n            store.setup()\n',
    "with nullcontext(open_store()) as store:\n",
)
src = src.replace("store: SqliteStore", "store: MemqlStore")
src = src.replace(
    "from contextlib import contextmanager", "from contextlib import contextmanager, nullcontext"
)
src = src.replace("Create a SqliteStore with vector", "Create a MemqlStore with vector")
assert "SqliteStore" not in src.replace("TestSqliteStore", ""), [
    l for l in src.splitlines() if "SqliteStore" in l
]
out = header("libs/checkpoint-sqlite/tests/test_store.py", dropped) + src
write("test_langgraph_store_sqlite_suite.py", out)


# --- libs/checkpoint-sqlite/tests/test_async_store.py -------------------------------------------------

OTHER = "tests another backend's own configuration"
src = upstream("libs/checkpoint-sqlite/tests/test_async_store.py")
dropped = {
    "test_no_running_loop": OTHER + " (AsyncSqliteStore refuses its sync methods inside the event loop; "
    "MemqlStore's sync methods work everywhere)",
}
src = drop(src, list(dropped))
src = src.replace(
    """
from langgraph.store.sqlite import AsyncSqliteStore
from langgraph.store.sqlite.base import SqliteIndexConfig
from tests.test_store import CharacterEmbeddings
""",
    """from langgraph_stores import open_store
from test_langgraph_store_sqlite_suite import CharacterEmbeddings

from memql.integrations.langgraph import MemqlStore

pytestmark = pytest.mark.anyio
""",
)
a = src.index('@pytest.fixture(scope="function", params=["memory", "file"])\nasync def store')
b = src.index('@pytest.fixture(scope="function")\ndef fake_embeddings')
src = (
    src[:a]
    + '''@pytest.fixture(scope="function")
def store() -> Generator[MemqlStore, None, None]:
    """A MemqlStore on a new store of the run's memql backend."""
    yield open_store()


'''
    + src[b:]
)
a = src.index("    index_config: SqliteIndexConfig = {")
b = src.index('@pytest.fixture(scope="function", params=["memory", "file"])\ndef conn_string')
src = (
    src[:a]
    + """    index_config = {
        "dims": fake_embeddings.dims,
        "embed": fake_embeddings,
        "text_fields": text_fields,
    }
    yield open_store(index=index_config)


"""
    + src[b:]
)
src = src.replace(") -> AsyncIterator[AsyncSqliteStore]:", ") -> AsyncIterator[MemqlStore]:")
src = src.replace(
    '"""Create an AsyncSqliteStore with vector search capabilities."""',
    '"""Create a MemqlStore with vector search capabilities."""',
)
src = src.replace("store: AsyncSqliteStore", "store: MemqlStore")
assert "AsyncSqliteStore" not in src, [l for l in src.splitlines() if "AsyncSqliteStore" in l]
out = header("libs/checkpoint-sqlite/tests/test_async_store.py", dropped) + src
write("test_langgraph_store_sqlite_async_suite.py", out)


# --- libs/checkpoint/tests/test_store.py and embed_test_utils.py --------------------------------------

src = upstream("libs/checkpoint/tests/test_store.py")
HELPER = "tests LangGraph's own AsyncBatchedBaseStore or helper function, with no store under test"
dropped = {
    "test_get_text_at_path": "tests LangGraph's get_text_at_path helper, not a store",
    "test_async_batch_store": HELPER + " (a stub store built from pytest-mock)",
    "test_async_batch_store_handles_cancellation": HELPER + " (a stub store)",
    "test_async_batch_store_deduplication": "tests AsyncBatchedBaseStore's op de-duplication by spying on "
    "InMemoryStore.batch with pytest-mock, not a store's results",
}
src = drop(src, list(dropped))
src = src.replace("from pytest_mock import MockerFixture\n", "")
src = src.replace(
    """from langgraph.store.memory import InMemoryStore
from tests.embed_test_utils import CharacterEmbeddings
""",
    """from langgraph_embed_test_utils import CharacterEmbeddings
from langgraph_stores import open_store

pytestmark = pytest.mark.anyio
""",
)
src = src.replace("self._store = InMemoryStore(**kwargs)", "self._store = open_store(**kwargs)")
src = src.replace("InMemoryStore(", "open_store(")
assert "InMemoryStore" not in src, [l for l in src.splitlines() if "InMemoryStore" in l]
out = header("libs/checkpoint/tests/test_store.py", dropped) + src
write("test_langgraph_store_suite.py", out)
u = upstream("libs/checkpoint/tests/embed_test_utils.py")
write(
    "langgraph_embed_test_utils.py",
    f'"""Ported from langchain-ai/langgraph, libs/checkpoint/tests/embed_test_utils.py at commit {COMMIT}\n'
    "(MIT licence, Copyright (c) 2024 LangChain, Inc.), unchanged: the fake embeddings LangGraph's store\n"
    'tests use (character frequencies through fixed random projections)."""\n# ruff: noqa\n\n'
    + u.split('"""Embedding utilities for testing."""\n', 1)[1],
)
