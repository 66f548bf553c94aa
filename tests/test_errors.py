"""One exception base: every exception class memql defines derives from memql.errors.MemqlError (and keeps
its builtin base, so `except ValueError` around a memql call still works)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import memql
from memql.errors import MemqlError, Refusal

SKIP = ("memql.bench.memql_set",)  # a data generator moving out of the package


def _memql_modules():
    for info in pkgutil.walk_packages(memql.__path__, "memql."):
        if not info.name.startswith(SKIP) and not info.name.endswith("__main__"):
            yield importlib.import_module(info.name)


def test_every_memql_exception_derives_from_memql_error():
    found, stray = set(), []
    for module in _memql_modules():
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__.startswith("memql."):
                found.add(cls)
                if not issubclass(cls, MemqlError):
                    stray.append(f"{cls.__module__}.{cls.__qualname__}")
    assert not stray, f"exceptions that do not derive from MemqlError: {stray}"
    assert len(found) > 10  # the walk did reach the modules that define them


def test_builtin_bases_are_kept():
    from memql.lang.time.errors import TimeParseError
    from memql.services.llm.openai_chat import LLMConfigError

    assert issubclass(LLMConfigError, ValueError) and issubclass(TimeParseError, ValueError)
    assert issubclass(Refusal, MemqlError)
