"""Encode's `derived_from` (docs/language.md): a step of a workflow links the record it stores to the
records an earlier step stored ({from_step: N}) or to existing ones ({ids: [...]}), relation
`derived_from`, in the same transaction; a reference the language or the session cannot honour is a
diagnostic naming the field, and nothing is stored."""

from __future__ import annotations

from memql.lang import build, validate


def _links(m, record_id: str) -> list[tuple[str, str, str]]:
    return [(x["src"], x["dst"], x["relation"]) for x in m.lineage(record_id)]


def test_a_workflow_step_links_to_an_earlier_steps_record(m):
    result = m.execute(
        build.workflow(
            [
                build.encode("Mira: my passport renewal deadline is July 15."),
                build.encode(
                    structured={"subject": "mira", "attribute": "passport.deadline", "value": "2026-07-15"},
                    derived_from={"from_step": 0},
                ),
            ]
        )
    )
    assert result.success, result.diagnostics
    message, fact = (s.id for s in result.steps)
    assert _links(m, fact) == [(fact, message, "derived_from")]
    assert _links(m, message) == [(fact, message, "derived_from")]


def test_ids_link_to_existing_records_and_a_repeat_links_its_existing_record(m):
    first = m.encode("A note about the lease.").data["id"]
    second = m.encode("Another note about the lease.").data["id"]
    summary = m.execute(build.encode("Lease notes, summed up.", derived_from={"ids": [first, second]}))
    assert summary.success, summary.diagnostics
    sid = summary.data["id"]
    assert sorted(_links(m, sid)) == [(sid, first, "derived_from"), (sid, second, "derived_from")]
    again = m.execute(build.encode("Lease notes, summed up.", derived_from={"ids": [first]}))
    assert again.data == {"id": sid, "deduplicated": True}
    assert len(_links(m, sid)) == 2  # the link existed: added once


def test_bad_references_are_diagnostics_and_store_nothing(m, memory):
    single = validate(build.encode("x", derived_from={"from_step": 0}))
    assert [(d.path, d.rule) for d in single.diagnostics] == [
        ("/args/derived_from/from_step", "workflow.ref_outside")
    ]
    forward = validate(build.workflow([build.encode("a", derived_from={"from_step": 1}), build.encode("b")]))
    assert [(d.path, d.rule) for d in forward.diagnostics] == [
        ("/workflow/0/args/derived_from/from_step", "workflow.ref_forward")
    ]
    both = validate(build.encode("x", derived_from={"from_step": 0, "ids": ["1"]}))
    assert [(d.path, d.rule) for d in both.diagnostics] == [("/args/derived_from", "encode.derived_from")]
    missing = m.execute(build.encode("y", derived_from={"ids": ["999"]}))
    assert [(d.path, d.rule) for d in missing.diagnostics] == [("/args/derived_from/ids", "target.not_found")]
    other = memory(actor="ravi", share=m)
    private = m.execute(build.encode("mine", read_perm_level="private")).data["id"]
    peek = other.execute(build.encode("derived", derived_from={"ids": [private]}))
    assert [d.rule for d in peek.diagnostics] == ["target.not_found"]  # no existence leak, no link
    assert m.retrieve(filter={"limit": 100}, include=["id"]).data["rows"] == [{"id": private}]
