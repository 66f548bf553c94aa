"""The read-transaction section of the Store conformance suite (memql.testing.reads), on every backend."""

from memql.testing.reads import *  # noqa: F403
