"""The whole Store conformance suite in one import, for a backend's test module:

    from memql.testing.suite import *  # noqa: F403

Each section's tests keep their module (and their `store` fixture: a new store from `store_factory`).
"""

from memql.testing import keys, lexical, store
from memql.testing.keys import *  # noqa: F403
from memql.testing.lexical import *  # noqa: F403
from memql.testing.store import *  # noqa: F403

__all__ = sorted({*keys.__all__, *lexical.__all__, *store.__all__})
