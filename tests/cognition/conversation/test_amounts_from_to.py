"""An amount said to move "from $1,850 to $1,975" (services.extract.from_to) supersedes the value held, and
another person's amount said beside one's own is theirs, on both backends."""

from __future__ import annotations

from conversation_helpers import conversation


def test_an_amount_moved_from_old_to_new_supersedes_the_held_one(memory):
    m = memory(actor="Dev", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "rent is $1,850 for a 1br in astoria", "2026-05-12T22:00:00Z"),
            ("user", "renewal signed, my rent went from $1,850 to $1,975", "2026-06-18T19:00:00Z"),
        ],
    )
    assert [f.value for f in m.facts.history("Dev", "rent").facts] == ["$1,850", "$1,975"]
    text = conv.context("How much is Dev's rent now?", budget_tokens=300).text
    assert text.index("$1,975") < text.index("$1,850")  # the current value leads


def test_anothers_weight_beside_ones_own_is_theirs(memory):
    m = memory(actor="佳佳", embedder="none")
    conversation(
        m,
        [
            ("user", "今天称129.5，终于破130了", "2026-06-10T13:00:00Z"),
            ("user", "我男朋友陪我一起减，他从170掉到158了", "2026-06-10T13:01:00Z"),
        ],
    )
    assert [f.value for f in m.facts.history("佳佳", "weight").facts] == ["129.5"]
    assert [f.value for f in m.facts.history("佳佳的男朋友", "weight").facts] == ["158"]
