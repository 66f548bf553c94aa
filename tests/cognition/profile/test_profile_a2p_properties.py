"""The a2p round trip over generated profiles, on every backend: importing a profile and exporting it
gives a canonical document that keeps every given field, and that document survives export -> import
into a fresh store -> export unchanged."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from helpers_profile import PROFILE_CONFIG
from memql.lang.time import format_instant, parse_instant

TYPES = ["a2p:episodic", "a2p:semantic", "a2p:procedural"]
NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)  # the engine suite's pinned clock (conftest T0)
WORDS = ["tea", "ümlaut", "日本", "café", "🎵", "rust", "مرحبا", "x-ray"]

names = st.sampled_from(WORDS)
instants = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.sampled_from([UTC])
).map(lambda t: t.replace(microsecond=t.microsecond // 1000 * 1000))
offset_text = st.tuples(instants, st.integers(-12, 14)).map(
    lambda p: p[0].astimezone(timezone(timedelta(hours=p[1]))).isoformat()
)
content = st.text(min_size=1, max_size=40).filter(lambda s: s.strip())
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "ü"]), inner, max_size=3)
    ),
    max_leaves=6,
)
present = json_values.filter(lambda v: v is not None)  # a null field is an absent one (canonical JSON)


@pytest.fixture
def memory(memory):
    """Sessions whose engine knows the profiles' extension categories."""
    return lambda **kwargs: memory(**{"config": PROFILE_CONFIG, **kwargs})


@st.composite
def a2p_memories(draw, ident: str | None) -> dict:
    mem: dict = {"content": draw(content)}
    if ident is not None:
        mem["id"] = ident
    optional = {
        "category": st.sampled_from(["a2p:preferences.ui", "a2p:health", "ext:acme:x.y", "a2p:context"]),
        "confidence": st.floats(0, 1, allow_nan=False),
        "status": st.sampled_from(["approved", "archived", "expired"]),
        "sensitivity": st.sampled_from(["public", "standard", "sensitive", "restricted"]),
        "scope": st.lists(names, min_size=1, max_size=3),
        "tags": st.lists(names, min_size=1, max_size=3, unique=True),
        "source": st.fixed_dictionaries(
            {"type": st.sampled_from(["user_manual", "agent_proposal"]), "timestamp": offset_text},
            optional={"agentName": names, "sessionId": names},
        ),
        "metadata": st.fixed_dictionaries(
            {},
            optional={
                "useCount": st.integers(0, 10_000),
                "lastUsed": offset_text,
                "approvedAt": offset_text,
                "ext:custom": present,
            },
        ),
        "consolidatedFrom": st.lists(
            st.from_regex(r"mem_[a-z0-9]{1,8}", fullmatch=True), min_size=1, max_size=3, unique=True
        ),
        "memql": st.fixed_dictionaries(
            {},
            optional={
                "time": offset_text,
                "type": names,
                "facets": st.fixed_dictionaries({}, optional={"topic": names, "extra": present}),
            },
        ),
        "x-note": present,  # a field neither a2p nor memql knows: kept as it is
    }
    for key, strategy in optional.items():
        if draw(st.booleans()):
            mem[key] = draw(strategy)
    return mem


@st.composite
def profiles(draw) -> dict:
    ids = draw(st.lists(st.from_regex(r"mem_[A-Za-z0-9]{1,10}", fullmatch=True), max_size=8, unique=True))
    memories: dict = {key: [] for key in draw(st.lists(st.sampled_from(TYPES), unique=True, min_size=1))}
    for i in range(draw(st.integers(1, 8))):
        ident = ids[i] if i < len(ids) and draw(st.booleans()) else None
        memories[draw(st.sampled_from(sorted(memories)))].append(draw(a2p_memories(ident)))
    return {"id": "did:a2p:entity:local:t", "memories": memories}


def _instant(text: str) -> datetime:
    return parse_instant(text)[0]


def _check_kept(given: dict, exported: dict) -> None:
    """Every field the generated memory gave is in the export, normalised only as documented."""
    assert exported["content"] == given["content"]
    for key in ("id", "category", "scope", "consolidatedFrom", "x-note"):
        if key in given:
            assert exported[key] == given[key]
    if "tags" in given:
        assert exported["tags"] == given["tags"]
    if "confidence" in given:
        assert exported["confidence"] == float(given["confidence"])
    assert exported["status"] == given.get("status", "approved")
    sensitivity = given.get("sensitivity", "standard")
    sensitivity = "standard" if sensitivity == "public" else sensitivity
    if given.get("category") == "a2p:health":  # a health memory is restricted whatever the profile says
        sensitivity = "restricted"
    assert exported["sensitivity"] == sensitivity
    if "source" in given:
        assert exported["source"]["type"] == given["source"]["type"]
        assert _instant(exported["source"]["timestamp"]) == _instant(given["source"]["timestamp"])
    else:
        assert exported["source"] == {"type": "user_import", "timestamp": format_instant(NOW)}
    metadata = given.get("metadata", {})
    assert exported["metadata"]["useCount"] == metadata.get("useCount", 0)
    for key in ("lastUsed", "approvedAt"):
        if key in metadata:
            assert _instant(exported["metadata"][key]) == _instant(metadata[key])
    if "ext:custom" in metadata:
        assert exported["metadata"]["ext:custom"] == metadata["ext:custom"]
    ext = given.get("memql", {})
    if "time" in ext:
        assert _instant(exported["memql"]["time"]) == _instant(ext["time"])
    if "type" in ext:
        assert exported["memql"]["type"] == ext["type"]
    if ext.get("facets"):
        assert exported["memql"]["facets"] == ext["facets"]


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(profile=profiles())
def test_generated_profiles_round_trip(memory, profile):
    first = memory()
    imported = first.import_a2p(profile)
    assert imported.success, imported.diagnostics
    exported = first.export_a2p()
    assert exported.success and exported.count == sum(len(v) for v in profile["memories"].values())
    for key in TYPES:  # each list keeps its order
        given_list = profile["memories"].get(key, [])
        out_list = exported.profile["memories"][key]
        assert len(out_list) == len(given_list)
        for given_memory, exported_memory in zip(given_list, out_list, strict=True):
            _check_kept(given_memory, exported_memory)

    second = memory()
    assert second.import_a2p(exported.text()).success
    assert second.export_a2p().text() == exported.text()
    first.close()
    second.close()
