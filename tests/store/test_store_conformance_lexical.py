"""The Store conformance suite's lexical section (memql.testing.lexical) on every backend of the registry
but SQLite, which is the section's reference."""

import pytest

from backends import BACKENDS, StoreFactory
from memql.testing.lexical import *  # noqa: F403  (the suite's tests and fixtures, collected here)


@pytest.fixture(params=[name for name in BACKENDS if name != "sqlite"])
def store_factory(request: pytest.FixtureRequest, tmp_path) -> StoreFactory:
    return StoreFactory(BACKENDS[request.param], tmp_path)
