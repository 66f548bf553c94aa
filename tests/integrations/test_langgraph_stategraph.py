"""A LangGraph StateGraph compiled with store=MemqlStore(...), on every backend: its nodes read and write
long-term memory through LangGraph's store API, and what they write is memql's — audited, with history,
and governed (another user's graph on the same store neither sees nor overwrites it)."""

from __future__ import annotations

from typing import TypedDict

import pytest
from langgraph.store.base import BaseStore
from langgraph_stores import open_store

from memql.errors import Refusal
from memql.integrations.langgraph import MemqlStore


class State(TypedDict):
    user: str
    message: str
    reply: str


def chat(state: State, *, store: BaseStore) -> dict[str, str]:
    """Remember "my X is Y" as the user's profile field X; answer "what is my X?" from it."""
    namespace = ("profile", state["user"])
    words = state["message"].rstrip("?.").split()
    if words[:1] == ["my"] and "is" in words:
        field, value = " ".join(words[1 : words.index("is")]), " ".join(words[words.index("is") + 1 :])
        current = store.get(namespace, "fields")
        store.put(namespace, "fields", {**(current.value if current else {}), field: value})
        return {"reply": f"noted your {field}"}
    field = " ".join(words[3:])  # what is my <field>
    found = store.get(namespace, "fields")
    return {"reply": (found.value.get(field) if found else None) or "I don't know"}


def graph(store: MemqlStore):
    # imported here, not at collection: langgraph.graph brings langchain_core's runnables and langsmith
    # (~2.5 s of CPU), which only this test needs — a test process that does not run it never pays it
    from langgraph.graph import END, START, StateGraph

    builder = StateGraph(State)
    builder.add_node("chat", chat)
    builder.add_edge(START, "chat")
    builder.add_edge("chat", END)
    return builder.compile(store=store)


def test_a_stategraph_remembers_through_memql(backend: str) -> None:
    mira_store = open_store(actor="mira")
    app = graph(mira_store)
    assert app.invoke({"user": "mira", "message": "my tea is green tea"})["reply"] == "noted your tea"
    assert app.invoke({"user": "mira", "message": "my city is Lisbon"})["reply"] == "noted your city"
    answer = app.invoke({"user": "mira", "message": "what is my tea?"})
    assert answer["reply"] == "green tea"

    # one record per (namespace, key): the second put was an audited update of the first
    (row,) = mira_store.memory.retrieve(include=["id", "namespace", "key", "structured"]).data["rows"]
    assert (row["namespace"], row["key"]) == (["profile", "mira"], "fields")
    assert row["structured"] == {"tea": "green tea", "city": "Lisbon"}
    assert [h["change"] for h in mira_store.memory.history(row["id"])] == ["insert", "update"]

    # another user's graph on the same store: mira's items are private to her
    bob_app = graph(open_store(actor="bob", share=mira_store))
    assert bob_app.invoke({"user": "mira", "message": "what is my tea?"})["reply"] == "I don't know"
    assert bob_app.invoke({"user": "bob", "message": "my tea is black"})["reply"] == "noted your tea"
    with pytest.raises(Refusal) as refused:  # bob cannot see mira's item, nor take its key
        bob_app.invoke({"user": "mira", "message": "my tea is coffee"})
    assert refused.value.rule == "key.taken"
    assert app.invoke({"user": "mira", "message": "what is my tea?"})["reply"] == "green tea"
