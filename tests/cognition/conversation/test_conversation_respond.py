"""respond() with and without an LLM (a local server speaking the OpenAI chat API, tests/chat_server.py),
the write path's LLM calls, and the `memql context` / `memql chat` shells, on every backend."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from memql.interfaces.cli import main
from memql.services.llm import OpenAIChat

T = datetime(2024, 3, 3, 14, 5, tzinfo=UTC)


@pytest.fixture
def llm(provider):
    client = OpenAIChat(provider.url, "test-chat", timeout=2.0, max_retries=0, backoff=0.01)
    yield client
    client.close()


def test_without_an_llm_respond_makes_nothing_up(memory):
    conv = memory(actor="mira").conversation(user="mira", agent="assistant", strategy="flat")
    conv.add_turn("My sister Ana lives in Lisbon", "Noted!", time=T)
    response = conv.respond("Where does my sister live?")
    assert response.answer is None and response.llm_calls == 0
    assert "no LLM is configured" in response.note
    assert "Lisbon" in response.context.text and "M1" in response.context.source_ids


def test_with_an_llm_respond_sends_the_cited_context_and_returns_the_answer(memory, provider, llm):
    m = memory(llm=llm, actor="mira")
    conv = m.conversation(user="mira", agent="assistant", strategy="flat")
    conv.add_turn("My sister Ana lives in Lisbon", "Noted!", time=T)
    conv.add_turn("I bought a red bike", "Nice, enjoy riding!", time=T)
    assert provider.requests == [] and conv.write_llm_calls == 0  # flat's write path asks no model
    provider.replies = ["Ana lives in Lisbon [M1]."]
    response = conv.respond("Where does my sister live?", budget_tokens=300)
    assert response.answer == "Ana lives in Lisbon [M1]."
    assert response.llm_calls == 1 and llm.usage.calls == 1
    body = provider.bodies()[0]
    system, user = body["messages"]
    assert user == {"role": "user", "content": "Where does my sister live?"}
    assert system["role"] == "system" and response.context.text in system["content"]
    assert "[M1] mira: My sister Ana lives in Lisbon" in system["content"]
    assert body["max_tokens"] > 0


def test_an_llm_failure_is_a_diagnostic_with_the_context(memory, provider, llm):
    conv = memory(llm=llm, actor="mira").conversation(user="mira", agent="assistant", strategy="flat")
    conv.add_message("user", "I like green tea", time=T)
    provider.script = ["500"]
    response = conv.respond("Which tea do I like?")
    assert response.answer is None
    assert [d.rule for d in response.diagnostics] == ["conversation.llm_error"]
    assert "green tea" in response.context.text


def invoke(args, db, **kwargs):
    return CliRunner().invoke(main, ["--db", db, "--now", "2024-03-04T10:00:00+00:00", *args], **kwargs)


def test_cli_context_and_chat_without_an_llm(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMQL_LLM_BASE_URL", raising=False)
    db = str(tmp_path / "m.db")
    chat = invoke(
        ["chat", "--user", "mira"],
        db,
        input="I adopted a cat named Miso\n/context cat\n/nope\n/quit\nnever read\n",
    )
    assert chat.exit_code == 0, chat.output
    assert "no LLM is configured" in chat.output and "[M1] mira: I adopted a cat named Miso" in chat.output
    assert "commands: /context QUERY, /quit" in chat.output

    shown = invoke(["context", "what is the cat called", "--user", "mira", "--budget", "50", "--json"], db)
    assert shown.exit_code == 0, shown.output
    context = json.loads(shown.output)
    assert context["source_ids"] == ["M1"] and context["tokens"] <= 50
    assert context["pieces"][0]["memory_ids"] == context["memory_ids"]
    assert "never read" not in json.dumps(context)  # the REPL stopped at /quit

    empty = invoke(["context", "cat", "--json"], db)  # another conversation (user/assistant): empty
    assert empty.exit_code == 0 and json.loads(empty.output)["pieces"] == []
    bad = invoke(["context", "  ", "--user", "mira"], db)
    assert bad.exit_code == 1 and "[field.empty]" in bad.output
    bad_budget = invoke(["context", "cat", "--budget", "0"], db)
    assert bad_budget.exit_code == 2
    bad_time = invoke(["context", "cat", "--user", "mira", "--as-of", "the day after never"], db)
    assert bad_time.exit_code == 1 and "/as_of" in bad_time.output and "[time.invalid]" in bad_time.output


def test_cli_context_as_of_leads_with_the_facts_true_then(tmp_path):
    """`memql context --as-of`: the passport deadline corrected on March 1 reads July 15 on February 25."""
    db = str(tmp_path / "m.db")
    from memql import Memory

    with Memory(db, actor="mira", embedder=None) as memory:
        conv = memory.conversation(user="mira", agent="assistant", strategy="flat", extractor="rules")
        conv.add_message("user", "My passport deadline is July 15.", time="2024-02-20T09:00:00Z")
        conv.add_message("user", "Correction: it's June 30.", time="2024-03-01T09:00:00Z")
    ask = ["context", "when is my passport due?", "--user", "mira", "--json"]
    now = json.loads(invoke(ask, db).output)
    assert now["pieces"][0]["level"] == "fact" and "June 30" in now["pieces"][0]["text"]
    then = json.loads(invoke([*ask, "--as-of", "2024-02-25T00:00:00Z"], db).output)
    assert "July 15" in then["pieces"][0]["text"] and "June 30" not in then["text"]


def test_cli_chat_with_an_llm_stores_both_sides(tmp_path, monkeypatch, provider):
    monkeypatch.setenv("MEMQL_LLM_BASE_URL", provider.url)
    monkeypatch.setenv("MEMQL_LLM_MODEL", "test-chat")
    provider.replies = ["Hello Mira!", "Your cat is Miso [M1]."]
    db = str(tmp_path / "m.db")
    chat = invoke(["chat", "--user", "mira"], db, input="My cat is Miso\nWhat is my cat called?\n")
    assert chat.exit_code == 0, chat.output
    assert "assistant> Hello Mira!" in chat.output and "assistant> Your cat is Miso [M1]." in chat.output
    assert len(provider.requests) == 2
    assert "[M1] mira: My cat is Miso" in provider.bodies()[1]["messages"][0]["content"]
    shown = invoke(["context", "cat", "--user", "mira", "--json"], db)
    assert json.loads(shown.output)["source_ids"] == ["M1", "M2", "M3", "M4"]
