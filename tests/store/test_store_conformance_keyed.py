"""The Store conformance suite's key-addressed records section (memql.testing.keyed) on every backend of
the registry, through the root conftest's `store_factory`."""

from memql.testing.keyed import *  # noqa: F403  (the suite's tests and fixtures, collected here)
