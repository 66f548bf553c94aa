"""The verbs' runners, one module per family; each registers itself with @runner (base.py). Importing
this package imports every family, so RUNNERS holds a runner for every verb the language defines."""

from memql.engine.verbs import (  # noqa: F401 - imported for their @runner registrations
    annotate,
    encode,
    housekeeping,
    lifecycle,
    read,
    restructure,
    weight,
)
from memql.engine.verbs.base import RUNNERS, Outcome, Runner, clamp, runner

__all__ = ["RUNNERS", "Outcome", "Runner", "clamp", "runner"]
