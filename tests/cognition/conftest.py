"""The cognition tests run on every backend with the engine suite's fixtures (a `memory` factory over
BACKENDS, a pinned clock, the `db` inspector and the assertion helpers)."""

from engine.conftest import (  # noqa: F401  (fixtures, found by name)
    backend,
    clock,
    db,
    m,
    memory,
    rules,
    t0,
    visible,
    warned,
)
