"""OpenAIChat (the LLM port) against a real local HTTP server that speaks the OpenAI chat completions API
(tests/chat_server.py): request shape, structured output and its fallbacks, retries, Retry-After,
timeouts, malformed replies, usage counting and configuration from the environment."""

from __future__ import annotations

import json
import threading
import time

import pytest

from chat_server import SLOW_SECONDS, words
from memql.ports.models import ChatMessage, ChatRequest
from memql.services.llm import LLMConfigError, LLMError, OpenAIChat, llm_from_env
from memql.services.llm.openai_chat import MESSAGE_OVERHEAD
from memql.services.summarize import estimate_tokens

SCHEMA = {
    "type": "object",
    "properties": {"parts": {"type": "array", "items": {"type": "string"}}},
    "required": ["parts"],
    "additionalProperties": False,
}


@pytest.fixture
def make(provider):
    made: list[OpenAIChat] = []

    def factory(**kwargs) -> OpenAIChat:
        kwargs.setdefault("timeout", 0.3)
        kwargs.setdefault("backoff", 0.01)
        llm = OpenAIChat(kwargs.pop("base_url", provider.url), kwargs.pop("model", "test-chat"), **kwargs)
        made.append(llm)
        return llm

    yield factory
    for llm in made:
        llm.close()


def ask(text: str = "split this", schema: dict | None = None, **kwargs) -> ChatRequest:
    return ChatRequest(
        [ChatMessage("system", "You split notes."), ChatMessage("user", text)], json_schema=schema, **kwargs
    )


# -- the request and the reply ---------------------------------------------------------------------------


def test_request_is_openai_shaped_and_reply_returned(provider, make):
    provider.replies = ["hello there"]
    llm = make(model="qwen2.5:7b")
    assert llm.chat(ask("say hi", max_tokens=64, temperature=0.2)) == "hello there"
    (req,) = provider.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["body"] == {
        "model": "qwen2.5:7b",
        "messages": [
            {"role": "system", "content": "You split notes."},
            {"role": "user", "content": "say hi"},
        ],
        "stream": False,
        "temperature": 0.2,
        "max_tokens": 64,
    }
    assert "Authorization" not in req["headers"]
    assert req["headers"]["Content-Type"] == "application/json"


def test_schema_travels_as_json_schema_response_format(provider, make):
    provider.replies = ['{"parts": ["a", "b"]}']
    llm = make()
    reply = llm.chat(ask(schema=SCHEMA, metadata={"schema_name": "memql parts!"}))
    assert json.loads(reply) == {"parts": ["a", "b"]}
    body = provider.requests[0]["body"]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "memql_parts_", "schema": SCHEMA, "strict": False},
    }
    assert "JSON Schema" not in json.dumps(body["messages"])  # constrained by the server, not the prompt
    assert llm.response_format == "json_schema"


def test_usage_is_counted_from_the_response(provider, make):
    provider.replies = ["one two three", "four five"]
    llm = make()
    llm.chat(ask("alpha beta"))
    llm.chat(ask("gamma"))
    # the server counts words: "You split notes." = 3, then the user text
    assert llm.usage.calls == 2
    assert llm.usage.prompt_tokens == (3 + 2) + (3 + 1)
    assert llm.usage.completion_tokens == 3 + 2
    assert llm.usage.estimated_calls == 0


def test_usage_is_estimated_when_the_server_reports_none(provider, make):
    provider.usage = False
    provider.replies = ['{"parts": ["今天开会", "明天出差"]}', "plain words here"]
    llm = make()
    llm.chat(ask("把这条笔记拆开", schema=SCHEMA))
    expected_prompt = (
        estimate_tokens("You split notes.")
        + estimate_tokens("把这条笔记拆开")
        + 2 * MESSAGE_OVERHEAD
        + estimate_tokens(json.dumps(SCHEMA))  # the schema is part of the prompt the model sees
    )
    assert llm.usage.prompt_tokens == expected_prompt
    assert llm.usage.completion_tokens == estimate_tokens('{"parts": ["今天开会", "明天出差"]}')
    llm.chat(ask("x"))
    assert llm.usage.calls == 2 and llm.usage.estimated_calls == 2
    assert llm.usage.completion_tokens == estimate_tokens(
        '{"parts": ["今天开会", "明天出差"]}'
    ) + estimate_tokens("plain words here")


# -- structured-output fallback --------------------------------------------------------------------------


def test_rejected_json_schema_falls_back_to_json_object_and_is_remembered(provider, make):
    provider.reject_formats = {"json_schema"}
    provider.replies = ['{"parts": ["x"]}', '{"parts": ["y"]}']
    llm = make()
    assert json.loads(llm.chat(ask(schema=SCHEMA))) == {"parts": ["x"]}
    first, second = provider.bodies()
    assert first["response_format"]["type"] == "json_schema"
    assert second["response_format"] == {"type": "json_object"}
    system = second["messages"][0]["content"]
    assert system.startswith("You split notes.")  # the schema is appended to the existing system prompt
    assert json.dumps(SCHEMA, separators=(",", ":")) in system and "JSON" in system
    assert llm.response_format == "json_object"
    assert llm.usage.calls == 1  # the rejected request is not a call

    llm.chat(ask(schema=SCHEMA))  # remembered: one request, straight to json_object
    assert len(provider.requests) == 3
    assert provider.bodies()[2]["response_format"] == {"type": "json_object"}


def test_server_without_any_response_format_gets_the_schema_in_the_prompt(provider, make):
    provider.reject_formats = {"json_schema", "json_object"}
    provider.replies = ['{"parts": ["x"]}']
    llm = make()
    llm.chat(ChatRequest([ChatMessage("user", "split")], json_schema=SCHEMA))
    assert [(b.get("response_format") or {}).get("type") for b in provider.bodies()] == [
        "json_schema",
        "json_object",
        None,
    ]
    messages = provider.bodies()[2]["messages"]
    assert messages[0]["role"] == "system" and '"parts"' in messages[0]["content"]  # inserted: none before
    assert messages[1] == {"role": "user", "content": "split"}
    assert llm.response_format == "plain"


def test_requests_without_a_schema_never_fall_back(provider, make):
    provider.reject_formats = {"json_schema"}
    llm = make()
    llm.chat(ask("free text"))
    assert "response_format" not in provider.bodies()[0]
    assert llm.response_format == "json_schema"  # nothing learned from a request that had no schema


def test_other_client_errors_are_raised_at_once(provider, make):
    provider.script = ["400"]
    llm = make()
    with pytest.raises(LLMError, match="maximum context length") as info:
        llm.chat(ask("a very long prompt"))
    assert info.value.status == 400 and len(provider.requests) == 1 and llm.retries == 0

    provider.api_key = "sk-right"  # a 401 is not about the format: no fallback either
    with pytest.raises(LLMError) as info:
        llm.chat(ask(schema=SCHEMA))
    assert info.value.status == 401 and len(provider.requests) == 2


def test_a_400_for_another_reason_is_raised_after_the_weaker_formats(provider, make):
    # a client cannot tell "format not supported" from another 400: it tries the weaker formats, raises the
    # server's own message, and remembers nothing (no format worked)
    provider.script = ["400", "400", "400"]
    llm = make()
    with pytest.raises(LLMError, match="maximum context length") as info:
        llm.chat(ask(schema=SCHEMA))
    assert info.value.status == 400
    assert [(b.get("response_format") or {}).get("type") for b in provider.bodies()] == [
        "json_schema",
        "json_object",
        None,
    ]
    assert llm.response_format == "json_schema" and llm.usage.calls == 0


# -- retries ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("failure", ["429", "500", "503", "drop", "slow"])
def test_transient_failures_are_retried(provider, make, failure):
    provider.script = [failure, failure]
    provider.replies = ["made it"]
    llm = make(max_retries=3)
    assert llm.chat(ask()) == "made it"
    assert [r["action"] for r in provider.requests] == [failure, failure, "ok"]
    assert llm.retries == 2 and llm.usage.calls == 1


def test_gives_up_with_the_status_and_the_servers_message(provider, make):
    provider.script = ["503"] * 5
    llm = make(max_retries=2)
    with pytest.raises(LLMError, match="gave up after 3 attempts") as info:
        llm.chat(ask())
    assert info.value.status == 503 and info.value.attempts == 3
    assert "error while processing your request" in info.value.message
    assert llm.usage.calls == 0 and len(provider.requests) == 3


def test_retry_after_is_honoured(provider, make):
    provider.script = ["429"]
    provider.retry_after = "0.3"
    llm = make(backoff=0.0)
    start = time.monotonic()
    llm.chat(ask())
    assert time.monotonic() - start >= 0.28

    provider.script = ["429"]
    provider.retry_after = "0"
    llm = make(backoff=5.0)  # Retry-After: 0 wins over a 5 s backoff
    start = time.monotonic()
    llm.chat(ask())
    assert time.monotonic() - start < 1.0


def test_timeout_gives_up_with_a_clear_error(provider, make):
    provider.script = ["slow", "slow"]
    llm = make(timeout=0.2, max_retries=1)
    start = time.monotonic()
    with pytest.raises(LLMError, match="timed out") as info:
        llm.chat(ask())
    assert time.monotonic() - start < SLOW_SECONDS
    assert info.value.status is None and len(provider.requests) == 2


def test_wrong_base_url_hints_at_v1(provider, make):
    llm = make(base_url=provider.url.removesuffix("/v1"))
    with pytest.raises(LLMError, match="ending in /v1") as info:
        llm.chat(ask())
    assert info.value.status == 404 and len(provider.requests) == 1


# -- malformed replies -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "why"), [("html", "not JSON"), ("no_choices", "no 'choices'")])
def test_malformed_replies_raise_without_retry(provider, make, action, why):
    provider.script = [action]
    llm = make()
    with pytest.raises(LLMError, match=why) as info:
        llm.chat(ask())
    assert info.value.status is None
    assert len(provider.requests) == 1 and llm.usage.calls == 0


def test_a_refusal_is_an_error_carrying_the_models_message(provider, make):
    provider.script = ["refusal"]
    llm = make()
    with pytest.raises(LLMError, match="the model refused") as info:
        llm.chat(ask(schema=SCHEMA))
    assert info.value.message == "I can't help with that."


# -- keys and configuration ------------------------------------------------------------------------------


def test_api_key_is_sent_and_never_shown(provider, make, monkeypatch):
    provider.api_key = "sk-local"
    with pytest.raises(LLMError) as info:
        make().chat(ask())
    assert info.value.status == 401 and "Incorrect API key" in info.value.message
    monkeypatch.setenv("MEMQL_LLM_API_KEY", "sk-local")
    llm = make()
    llm.chat(ask())
    assert provider.requests[-1]["headers"]["Authorization"] == "Bearer sk-local"
    assert "sk-local" not in repr(llm)


def test_openai_key_is_only_sent_to_openai(provider, make, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    make().chat(ask())
    assert "Authorization" not in provider.requests[0]["headers"]  # a local server never sees it
    openai = OpenAIChat("https://api.openai.com/v1", "gpt-4o-mini")
    assert openai._endpoint._headers["Authorization"] == "Bearer sk-openai"
    assert openai.url == "https://api.openai.com/v1/chat/completions"


def test_llm_from_env(provider, monkeypatch):
    assert llm_from_env({}) is None  # not configured: no client, no network
    assert llm_from_env({"MEMQL_LLM_MODEL": "m"}) is None
    llm = llm_from_env(
        {
            "MEMQL_LLM_BASE_URL": provider.url,
            "MEMQL_LLM_MODEL": "qwen2.5:7b",
            "MEMQL_LLM_TIMEOUT": "7.5",
            "MEMQL_LLM_API_KEY": "sk-x",
        }
    )
    assert llm is not None and llm.model == "qwen2.5:7b" and llm.timeout == 7.5
    provider.replies = ["fine"]
    assert llm.chat(ask()) == "fine"
    assert provider.requests[0]["headers"]["Authorization"] == "Bearer sk-x"
    llm.close()
    monkeypatch.setenv("MEMQL_LLM_BASE_URL", provider.url)
    monkeypatch.setenv("MEMQL_LLM_MODEL", "llama3.2")
    from_os = llm_from_env()
    assert from_os is not None and from_os.model == "llama3.2"


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"MEMQL_LLM_BASE_URL": "http://127.0.0.1:1/v1"}, "MEMQL_LLM_MODEL"),
        ({"MEMQL_LLM_BASE_URL": "localhost:11434", "MEMQL_LLM_MODEL": "m"}, "MEMQL_LLM_BASE_URL"),
        (
            {"MEMQL_LLM_BASE_URL": "http://h/v1", "MEMQL_LLM_MODEL": "m", "MEMQL_LLM_TIMEOUT": "soon"},
            "TIMEOUT",
        ),
        ({"MEMQL_LLM_BASE_URL": "http://h/v1", "MEMQL_LLM_MODEL": "m", "MEMQL_LLM_TIMEOUT": "-1"}, "TIMEOUT"),
    ],
)
def test_bad_environment_names_the_variable(env, names):
    with pytest.raises(LLMConfigError, match=names):
        llm_from_env(env)


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError):
        OpenAIChat("http://127.0.0.1:1/v1", "")
    with pytest.raises(ValueError):
        OpenAIChat("http://127.0.0.1:1/v1", "m", response_format="xml")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        OpenAIChat("http://127.0.0.1:1/v1", "m").chat(ChatRequest([]))


# -- concurrency -----------------------------------------------------------------------------------------


def test_one_client_serves_many_threads(provider, make):
    provider.respond = lambda body: "reply to " + body["messages"][-1]["content"]
    llm = make()
    results: dict[int, str] = {}

    def work(n: int) -> None:
        results[n] = llm.chat(ask(f"thread {n}"))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert results == {n: f"reply to thread {n}" for n in range(8)}
    assert llm.usage.calls == 8
    assert llm.usage.prompt_tokens == 8 * (3 + 2)
    assert llm.usage.completion_tokens == 8 * words("reply to thread 0")
