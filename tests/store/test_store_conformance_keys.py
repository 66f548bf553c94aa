"""The Store conformance suite's API-key section (memql.testing.keys) on every backend of the registry,
through the root conftest's `store_factory`."""

from memql.testing.keys import *  # noqa: F403  (the suite's tests and fixtures, collected here)
