"""Small, project-owned IRs: one or more valid examples per verb, used across the language tests."""

from __future__ import annotations

import copy
from datetime import UTC, datetime

NOW = datetime(2026, 3, 31, 12, 0, tzinfo=UTC)

VALID: dict[str, dict] = {
    "encode_text": {
        "stage": "ENC",
        "op": "Encode",
        "args": {
            "payload": {"text": "Standup moved to 9:30 from next week."},
            "type": "note",
            "tags": ["team", "schedule"],
            "facets": {"subject": "standup", "topic": "calendar"},
            "time": "2026-03-30T09:00:00+02:00",
        },
    },
    "encode_url": {"op": "Encode", "args": {"payload": {"url": "https://example.org/spec"}, "tags": ["doc"]}},
    "encode_structured": {
        "op": "Encode",
        "args": {
            "payload": {
                "structured": {"subject": "mira", "attribute": "passport_deadline", "value": "2026-07-15"}
            },
            "memory_type": "semantic",
        },
    },
    "update": {
        "op": "Update",
        "target": {"ids": ["3"]},
        "args": {"set": {"text": "Standup at 9:45.", "weight": 0.6}},
    },
    "label_add": {"op": "Label", "target": {"ids": ["1", "2"]}, "args": {"tags": ["urgent"], "mode": "add"}},
    "label_remove_facet": {
        "op": "Label",
        "target": {"ids": ["1"]},
        "args": {"facets": {"topic": "calendar"}, "mode": "remove"},
    },
    "promote_delta": {
        "op": "Promote",
        "target": {"filter": {"has_tags": ["okr"], "limit": 10}},
        "args": {"weight_delta": 0.2},
    },
    "promote_remind": {
        "op": "Promote",
        "target": {"ids": ["4"]},
        "args": {"remind": {"rrule": "FREQ=WEEKLY;BYDAY=MO", "until": "2026-06-01T00:00:00Z"}},
    },
    "demote_archive": {"op": "Demote", "target": {"ids": ["5"]}, "args": {"archive": True}},
    "demote_weight": {"op": "Demote", "target": {"ids": ["5"]}, "args": {"weight": 0.1}},
    "merge": {"op": "Merge", "target": {"ids": ["1", "2", "3"]}, "args": {"primary_id": "2"}},
    "delete_soft": {
        "op": "Delete",
        "target": {"filter": {"has_tags": ["draft"], "limit": 50}},
        "args": {"older_than": "P30D"},
    },
    "delete_hard": {
        "op": "Delete",
        "target": {"ids": ["9"]},
        "args": {"soft": False},
        "meta": {"confirmation": True},
    },
    "split_sentences": {
        "op": "Split",
        "target": {"ids": ["7"]},
        "args": {"strategy": "by_sentences", "params": {"by_sentences": {"max_sentences": 2}}},
    },
    "split_chunks": {
        "op": "Split",
        "target": {"ids": ["7"]},
        "args": {"strategy": "by_chunks", "params": {"by_chunks": {"chunk_size": 400}}},
    },
    "split_custom": {
        "op": "Split",
        "target": {"ids": ["7"]},
        "args": {"strategy": "custom", "params": {"custom": {"delimiters": ["\n\n"]}}},
    },
    "lock": {
        "op": "Lock",
        "target": {"ids": ["8"]},
        "args": {
            "mode": "read_only",
            "reason": "legal hold",
            "policy": {
                "allow": ["Retrieve"],
                "deny": ["Delete"],
                "reviewers": ["legal"],
                "expires": "2026-12-31T00:00:00Z",
            },
        },
    },
    "unlock": {"op": "Lock", "target": {"ids": ["8"]}, "args": {"mode": "unlock"}},
    "expire_ttl": {
        "op": "Expire",
        "target": {"filter": {"has_tags": ["temp"], "limit": 100}},
        "args": {"ttl": "P7D", "on_expire": "soft_delete"},
    },
    "expire_until": {
        "op": "Expire",
        "target": {"ids": ["2"]},
        "args": {"until": "2026-04-30T00:00:00Z", "on_expire": "archive"},
    },
    "retrieve_search": {
        "op": "Retrieve",
        "target": {
            "search": {
                "intent": {"query": "standup time"},
                "overrides": {"k": 5, "alpha": 0.5, "order_by": "relevance"},
            }
        },
        "args": {"include": ["id", "text"]},
    },
    "retrieve_filter": {
        "op": "Retrieve",
        "target": {"filter": {"time_range": {"relative": "last", "amount": 7, "unit": "days"}}},
    },
    "retrieve_all": {"op": "Retrieve", "target": {"all": True}, "meta": {"confirmation": True}},
    "summarize": {
        "op": "Summarize",
        "target": {"filter": {"has_tags": ["team"]}},
        "args": {"focus": "decisions", "max_tokens": 120},
    },
}

WORKFLOW = {
    "workflow": [
        copy.deepcopy(VALID["encode_text"]),
        {"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["calendar"]}},
        {"op": "Retrieve", "target": {"from_step": 1}},
    ],
    "meta": {"actor": "tester"},
}


def sample(name: str) -> dict:
    return copy.deepcopy(VALID[name])
