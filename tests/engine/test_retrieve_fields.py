"""A search for a Retrieve reads only the record fields its rows show (engine/verbs/read.reads, through
memql.ports.store.PartialReads where the backend has it): every row field is the same as from the whole
record, and the same Retrieves answer alike with and without narrow reads."""

from __future__ import annotations

from dataclasses import MISSING, fields
from datetime import UTC, datetime, timedelta
from typing import get_args

import pytest

from memql.engine.verbs.read import reads, row
from memql.lang.ops.read import IncludeField
from memql.ports.record import INSTANT_FIELDS, JSON_FIELDS, NAMESPACE_SEP, Record
from memql.store.sqlite import SQLiteSession
from word_hash_embedder import WordHashEmbedder

NOW = datetime(2026, 3, 2, tzinfo=UTC)
EVERY_FIELD: list[str] = list(get_args(IncludeField))


def _rich(subject: str | None) -> Record:
    """A record whose every field differs from the Record's default (so a field read from a default
    instead of the store shows)."""
    values: dict = {}
    for i, f in enumerate(fields(Record)):
        default = f.default_factory() if f.default_factory is not MISSING else f.default  # type: ignore[misc]
        if f.name in INSTANT_FIELDS:
            values[f.name] = NOW + timedelta(days=i - 20)
        elif f.name in JSON_FIELDS:
            values[f.name] = [f"x{i}"] if isinstance(default, list) else {"n": i, "subject": f"s{i}"}
        elif isinstance(default, bool):
            values[f.name] = not default
        elif isinstance(default, int | float):
            values[f.name] = default + i + 0.25 if isinstance(default, float) else default + i
        else:
            values[f.name] = f"v{i}"
    values.update(
        id="7",
        subject=subject,
        facets={"subject": "ann", "location": "home", "topic": "piano"},
        namespace=NAMESPACE_SEP.join(["a", "b"]),
        lock_until=NOW + timedelta(days=3),
    )
    return Record(**values)


@pytest.mark.parametrize("subject", [None, "bob"])
@pytest.mark.parametrize("name", EVERY_FIELD)
def test_each_row_field_reads_only_the_fields_it_names(name, subject):
    whole = _rich(subject)
    narrow = Record(id=whole.id, **{f: getattr(whole, f) for f in reads([name])})
    assert narrow != whole  # (the other fields hold their defaults)
    assert row(narrow, 0.5, [name], NOW) == row(whole, 0.5, [name], NOW)
    assert row(narrow, 0.5, [name], NOW, {"alpha": 0.5}) == row(whole, 0.5, [name], NOW, {"alpha": 0.5})


def test_default_rows_read_a_few_columns():
    assert reads(["id", "text", "type", "tags", "facets", "time", "weight", "status", "score"]) == {
        "text",
        "kind",
        "tags",
        "facets",
        "time",
        "created_at",
        "weight",
        "status",
    }


def _answers(memory, include):
    m = memory(embedder=WordHashEmbedder(24))
    other = memory(share=m, actor="bob")
    for i, text in enumerate(["piano lesson friday", "piano recital", "gas invoice", "piano tuning"]):
        args = {"facets": {"subject": "ann", "topic": "music"}, "tags": ["t1"], "type": "task"}
        assert m.encode(text, time=(NOW - timedelta(days=i)).isoformat(), **args).success
    assert other.encode("piano private", read_perm_level="private").success
    assert m.lock(["2"], mode="read_only", reason="r").success
    out = []
    for overrides in (None, {"alpha": 0.0}, {"mmr": 0.5}, {"order_by": "time_asc"}):
        result = m.retrieve("piano", k=3, include=include, overrides=overrides)
        assert result.success, result.diagnostics
        out.append(result.data)
    # in a write transaction (a workflow that writes), where no pending visit is added to what is read
    search = {"search": {"intent": {"query": "piano"}, "overrides": {"k": 3}}}
    encode = {"op": "Encode", "args": {"payload": {"text": "piano duet"}}}
    result = m.execute([encode, {"op": "Retrieve", "target": search, "args": {"include": include}}])
    assert result.success, result.diagnostics
    out.append(result.steps[1].data)
    return out


@pytest.mark.parametrize(
    "include", [None, EVERY_FIELD, ["id", "subject", "lock"], ["tags"], ["id"], ["id", "score"]]
)
def test_retrieves_answer_alike_with_and_without_narrow_reads(memory, monkeypatch, include):
    narrow = _answers(memory, include)
    monkeypatch.delattr(SQLiteSession, "get_fields")  # every backend then reads whole records
    assert _answers(memory, include) == narrow
