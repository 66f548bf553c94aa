"""Every layer covers the same verbs. The language defines them (each model registers itself with @verb:
memql.lang.ops); the engine, the planner, the Python API and the shells must each offer every one — the
twelve Text2Mem verbs everywhere, the system verbs (Sweep, Remind, Restore) where a shell offers them.
`coverage_gaps` names what is missing where; the last tests show it naming the gaps of a new verb."""

from __future__ import annotations

from typing import ClassVar, Literal

import pytest
from pydantic import Field

from memql.cognition.planner.rules.verbs import BUILDERS
from memql.engine.verbs import RUNNERS
from memql.interfaces.cli import main as cli
from memql.interfaces.mcp.verbs import verb_tools
from memql.lang.fields import StrictModel
from memql.lang.ops import OPS, SYSTEM_OPS, base
from memql.memory import VERB_METHODS, Memory

PLANNER_READINGS = {"Priority"}  # a planner reading that is no verb: "make it a priority" (Promote or Demote)


def language_verbs() -> tuple[list[str], list[str]]:
    """(the twelve-verb language's verbs, the system verbs), read from the registry now."""
    return (
        [base.op_of(m) for m in base.registered(system=False)],
        [base.op_of(m) for m in base.registered(system=True)],
    )


def mcp_verbs() -> set[str]:
    """The verbs the MCP server has a typed tool for: memory_<verb> (memory_unlock is Lock's too)."""
    names = {tool.__name__ for tool in verb_tools(None)}  # type: ignore[arg-type]  # not called
    ops, system = language_verbs()
    return {op for op in ops + system if f"memory_{op.lower()}" in names}


def api_verbs() -> set[str]:
    return {op for op, method in VERB_METHODS.items() if callable(getattr(Memory, method, None))}


def cli_system_verbs() -> set[str]:
    """The system verbs the CLI offers: a command named like the verb's Memory method (sweep, due,
    restore); the twelve go through `memql exec`, which takes any program."""
    return {op for op, method in VERB_METHODS.items() if method in cli.commands}


def coverage_gaps() -> list[str]:
    """What each layer lacks (or has beyond the language), one line per layer; empty when all agree.
    The REST server keeps no per-verb table (it takes programs), so there is nothing to check there."""
    ops, system = language_verbs()
    every = ops + system
    places = [  # (where, the verbs it has, the verbs it must have)
        ("the engine: a @runner(...) in memql/engine/verbs/", set(RUNNERS), every),
        ("the planner: an entry in BUILDERS (cognition/planner/rules/verbs.py)", set(BUILDERS), ops),
        ("the Python API: VERB_METHODS and its Memory method (memql/memory.py)", api_verbs(), every),
        ("the MCP server: a memory_<verb> tool in interfaces/mcp/verbs.py", mcp_verbs(), ops),
        ("the CLI: a command named like the verb's Memory method", cli_system_verbs(), system),
    ]
    gaps = []
    for where, have, need in places:
        missing = [op for op in need if op not in have]
        if missing:
            gaps.append(f"{where} lacks {', '.join(missing)}")
    named = set(RUNNERS) | (set(BUILDERS) - PLANNER_READINGS) | set(VERB_METHODS)
    unknown = sorted(named - set(every))
    if unknown:
        gaps.append(f"verbs the language does not define (no model in memql/lang/ops/): {', '.join(unknown)}")
    return gaps


def test_the_language_has_the_twelve_verbs_and_the_system_verbs():
    assert OPS == (
        "Encode",
        "Update",
        "Label",
        "Promote",
        "Demote",
        "Merge",
        "Delete",
        "Split",
        "Lock",
        "Expire",
        "Retrieve",
        "Summarize",
    )
    assert SYSTEM_OPS == ("Sweep", "Remind", "Restore")


def test_every_layer_covers_the_same_verbs():
    assert coverage_gaps() == []


# --- a thirteenth verb: defined in the language only, every other layer is named as missing -----------


class ToyArgs(StrictModel):
    note: str | None = None


@pytest.fixture
def toy_registry(monkeypatch: pytest.MonkeyPatch):
    """A scratch copy of the verb registry, for models defined inside a test."""
    monkeypatch.setattr(base, "REGISTRY", dict(base.REGISTRY))


def test_a_new_verb_is_named_where_it_is_missing(toy_registry):
    @base.verb
    class ToyIR(base.OpBase):
        op: Literal["Toy"]
        stage: Literal["STO"] = "STO"
        args: ToyArgs = Field(default_factory=ToyArgs)

    assert "Toy" in language_verbs()[0]
    gaps = coverage_gaps()
    assert len(gaps) == 4, gaps
    for where in ("the engine", "the planner", "the Python API", "the MCP server"):
        assert any(g.startswith(where) and g.endswith("lacks Toy") for g in gaps), (where, gaps)


def test_a_new_system_verb_is_named_where_it_is_missing(toy_registry):
    @base.verb
    class TidyIR(base.OpBase):
        op: Literal["Tidy"]
        stage: Literal["STO"] = "STO"
        args: ToyArgs = Field(default_factory=ToyArgs)
        needs_target: ClassVar[bool] = False
        system: ClassVar[bool] = True

    gaps = coverage_gaps()
    assert [g.split(":")[0] for g in gaps] == ["the engine", "the Python API", "the CLI"], gaps
    assert all(g.endswith("lacks Tidy") for g in gaps)


def test_a_runner_without_a_model_is_named(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(RUNNERS, "Ghost", lambda ctx, ir: None)
    assert coverage_gaps() == ["verbs the language does not define (no model in memql/lang/ops/): Ghost"]


def test_a_verb_is_registered_once(toy_registry):
    with pytest.raises(ValueError, match="Encode is defined twice"):

        @base.verb
        class EncodeAgain(base.OpBase):
            op: Literal["Encode"]
            stage: Literal["ENC"] = "ENC"
