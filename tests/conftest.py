"""Suite-wide settings and fixtures.

Tests run without the local embedding model unless a test asks for it (semantics tests stay fast and
exact; retrieval tests pass an embedder explicitly). A test that runs on every backend asks for
`backend` (or a fixture built on it: `new_location`, `store_factory`, and memory_fixtures' `memory`);
the backends are tests/backends.py's registry, so no test names one.
"""

import os
import subprocess
import sys

os.environ.setdefault("MEMQL_EMBEDDER", "none")
# One BLAS thread per process: the suite's parallelism is its workers, one per core (pytest-xdist, which
# starts them with this environment), and OpenBLAS's own threads would contend with them and spin-wait
# (the MiniLM tests cost twice the CPU with two threads a worker on two cores).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import budgets
import pgtest
from backends import BACKENDS, StoreFactory

ROOT = Path(__file__).resolve().parents[1]

# the engine semantics fixtures (memory, m, clock, t0, db, rules, warned, visible), shared by the engine,
# cognition and interface tests
pytest_plugins = ["memory_fixtures"]


def pytest_configure(config: pytest.Config) -> None:
    if error := budgets.profile_error():
        raise pytest.UsageError(error)
    worker = hasattr(config, "workerinput")
    if worker or config.getoption("dist", "no") == "no" or config.getoption("collectonly"):
        # a process that collects tests (not pytest-xdist's main process, which only hands them out:
        # importing Hypothesis there is ~0.9 s of CPU before the first worker starts)
        from hypothesis import settings

        # property tests that state no budget: Hypothesis's default of 100, scaled like the stated ones
        settings.register_profile(budgets.PROFILE, max_examples=budgets.examples(100))
        settings.load_profile(budgets.PROFILE)
    if not worker:  # the main process, before any pytest-xdist worker starts
        pgtest.begin_run()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (every imported module, the test items, pydantic's schemas) lives until the
    process ends: move it out of the cyclic collector's reach, so that each full collection during the
    tests (and pytest's five at the end) walks only what the tests made, not the whole collected heap."""
    import gc

    gc.collect()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # after the workers have exited
        pgtest.end_run()


@pytest.fixture(autouse=True)
def _postgres_schemas_reused() -> Iterator[None]:
    """The PostgreSQL schemas a test claims are emptied for later tests when it ends (tests/pgtest.py).
    Autouse, so set up before and torn down after the test's own fixtures (its stores are closed)."""
    pgtest.begin_test()
    yield
    pgtest.end_test()


@pytest.fixture(params=list(BACKENDS))
def backend(request: pytest.FixtureRequest) -> str:
    """The name of the backend this run of the test uses (one run per entry of BACKENDS)."""
    return request.param


@pytest.fixture
def new_location(backend: str, request: pytest.FixtureRequest) -> Callable[..., str]:
    """new_location(in_memory=False) -> the location of a new, empty store on this run's backend (SQLite:
    a file under tmp_path, or a private in-memory database with in_memory=True). tmp_path is made when a
    location asks for a directory: the `memory` fixture's stores (in memory, or PostgreSQL schemas) need
    none, and making one costs a few directory operations in a directory that grows with every test."""

    def make(*, in_memory: bool = False) -> str:
        return BACKENDS[backend].location(None if in_memory else request.getfixturevalue("tmp_path"))

    return make


@pytest.fixture
def store_factory(backend: str, tmp_path: Path) -> StoreFactory:
    """New stores on this run's backend (memql.testing's StoreFactory): store_factory() opens one."""
    return StoreFactory(BACKENDS[backend], tmp_path)


# LLM settings a developer's environment may carry; a test of the local provider must not pick them up
LLM_ENVIRONMENT = (
    "MEMQL_LLM_BASE_URL",
    "MEMQL_LLM_MODEL",
    "MEMQL_LLM_API_KEY",
    "MEMQL_LLM_TIMEOUT",
    "OPENAI_API_KEY",
)


@pytest.fixture
def provider(monkeypatch):
    """A local OpenAI-compatible chat server (tests/chat_server.py) and no LLM settings from the
    environment. A test module that serves another API (embeddings) defines its own `provider`."""
    from chat_server import serve

    for var in LLM_ENVIRONMENT:
        monkeypatch.delenv(var, raising=False)
    with serve() as p:
        yield p


@pytest.fixture(scope="session")
def memql_shim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A directory to put first on PATH: its `memql` runs the real entry point in a process forked from a
    fork server that imported the CLI once (tests/docs_forkserver.py); `python`, `python3` are this
    interpreter. One server per test process, started when a test first asks for it."""
    import memql
    from docs_forkserver import shim_script

    where = tmp_path_factory.mktemp("bin")
    path = str(where / "fork.sock")
    # the children import memql (and the tests' helpers) as this process does
    pythonpath = [str(Path(memql.__file__).parents[1]), str(ROOT), os.environ.get("PYTHONPATH", "")]
    server = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("docs_forkserver.py")), path],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(pythonpath)},
    )
    assert server.stdout.readline().strip() == b"ready"
    (where / "memql").write_text(shim_script(sys.executable, path))
    (where / "memql").chmod(0o755)
    for name in ("python", "python3"):
        (where / name).symlink_to(sys.executable)
    yield where
    server.terminate()  # it waits for its children: their CPU time is the test run's
    server.wait(timeout=120)
