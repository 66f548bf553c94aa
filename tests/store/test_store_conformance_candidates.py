"""The candidates section of the Store conformance suite (memql.testing.candidates), on every backend."""

from memql.testing.candidates import *  # noqa: F403
