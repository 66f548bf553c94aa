"""The whole Store conformance suite in one import, for a backend's test module:

    from memql.testing.suite import *  # noqa: F403

The sections' tests and fixtures are collected in the importing module; each opens its stores with
`store_factory`.
"""

from memql.testing import candidates as candidates_section
from memql.testing import keyed as keyed_section
from memql.testing import keys as keys_section
from memql.testing import lexical as lexical_section
from memql.testing import reads as reads_section
from memql.testing import store as store_section
from memql.testing import vectors as vectors_section
from memql.testing.candidates import *  # noqa: F403
from memql.testing.keyed import *  # noqa: F403
from memql.testing.keys import *  # noqa: F403
from memql.testing.lexical import *  # noqa: F403
from memql.testing.reads import *  # noqa: F403
from memql.testing.store import *  # noqa: F403
from memql.testing.vectors import *  # noqa: F403

__all__ = sorted(
    {
        *candidates_section.__all__,
        *keyed_section.__all__,
        *keys_section.__all__,
        *lexical_section.__all__,
        *reads_section.__all__,
        *store_section.__all__,
        *vectors_section.__all__,
    }
)
