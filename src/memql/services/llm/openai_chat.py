"""memql's LLM port over an OpenAI-compatible ``POST {base_url}/chat/completions`` (OpenAI, Ollama, vLLM,
llama.cpp server, LM Studio, DeepSeek, Qwen/DashScope, …), built on the standard library only.

Example::

    llm = OpenAIChat("http://127.0.0.1:11434/v1", "qwen2.5:7b")          # Ollama, no key
    llm = OpenAIChat("https://api.openai.com/v1", "gpt-4o-mini")         # key from $MEMQL_LLM_API_KEY
    reply = llm.chat(ChatRequest([ChatMessage("user", "Say hi")]))
    llm.usage                                                            # calls and tokens so far
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from typing import Any, Literal
from urllib.parse import urlsplit

from memql.errors import MemqlError
from memql.ports.models import ChatRequest, LLMUsage
from memql.services.http_api import ApiEndpoint, RemoteServiceError
from memql.services.summarize import estimate_tokens

ResponseFormat = Literal["json_schema", "json_object", "plain"]

API_KEY_ENV_VAR = "MEMQL_LLM_API_KEY"
OPENAI_HOST = "api.openai.com"  # the only host $OPENAI_API_KEY is ever sent to
DEFAULT_TIMEOUT = 120.0  # seconds: a whole completion arrives in one read, and models can be slow
MESSAGE_OVERHEAD = 4  # tokens a chat template adds per message (role, separators): OpenAI's documented 3-4
# a server that rejects a response_format is asked again with the next, weaker one
_WEAKER: dict[str, ResponseFormat] = {"json_schema": "json_object", "json_object": "plain"}
_REJECTED_STATUS = frozenset({400, 415, 422})  # what servers answer to a request shape they do not support
_SCHEMA_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class LLMError(RemoteServiceError):
    """A chat request failed for good: ``status`` is the last HTTP status (None when no usable response
    arrived: connection error, timeout, a reply that is not a chat completion), ``message`` the server's
    error message (or the model's refusal), ``attempts`` the requests made."""


class LLMConfigError(MemqlError, ValueError):
    """The LLM configuration (the MEMQL_LLM_* environment variables) is incomplete or malformed."""


class OpenAIChat:
    """The LLM port (:class:`memql.ports.models.LLM`) over an OpenAI-compatible chat completions API.

    - ``base_url`` is the API root (``http://127.0.0.1:11434/v1`` for Ollama, ``https://api.openai.com/v1``);
      ``model`` the model name the server knows.
    - ``api_key`` defaults to ``$MEMQL_LLM_API_KEY``, and to ``$OPENAI_API_KEY`` only when the host is
      api.openai.com (a key is never sent to a server it was not meant for); ``api_key=""`` sends none.
    - Structured output: a request with ``json_schema`` is sent with ``response_format`` ``{"type":
      "json_schema", …}`` (``strict: false``: memql's schema uses unions that OpenAI's strict subset
      refuses; the caller validates the reply anyway). A server that rejects that with HTTP 400/415/422 is
      asked again with ``{"type": "json_object"}`` and then with no ``response_format``; in those two modes
      the schema is written into the prompt instead. The first mode that works is remembered for later
      calls (``response_format``). Start lower with ``response_format="json_object"`` or ``"plain"`` for a
      server that silently ignores ``json_schema``.
    - Retries (connection errors, timeouts, 408, 429, 5xx; ``Retry-After`` honoured) and errors come from
      :class:`memql.services.http_api.ApiEndpoint`; failures raise :class:`LLMError`.
    - ``usage`` counts every answered call: ``calls``, and prompt and completion tokens from the response's
      ``usage``. A server that reports none gets an estimate (``usage.estimated_calls`` counts those): the
      prompt is :func:`memql.services.summarize.estimate_tokens` of every message plus 4 tokens per message
      (plus the schema's JSON when it travels in ``response_format``), the completion that of the reply.
      Rejected and retried requests are not counted as calls (``retries`` counts the retried ones).

    One instance is safe to share between threads.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        backoff: float = 0.5,
        headers: Mapping[str, str] | None = None,
        response_format: ResponseFormat = "json_schema",
    ) -> None:
        if not model or not model.strip():
            raise ValueError("model must be a non-empty model name")
        if response_format not in ("json_schema", "json_object", "plain"):
            raise ValueError(
                f"response_format must be json_schema, json_object or plain, not {response_format!r}"
            )
        if api_key is None:
            api_key = _api_key(os.environ, urlsplit(base_url.strip()).hostname)
        endpoint = ApiEndpoint(
            base_url,
            "chat/completions",
            api_key=api_key,
            headers=headers,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            error=LLMError,
        )
        self._endpoint = endpoint
        self.model = model.strip()
        self.url = endpoint.url
        self.timeout = endpoint.timeout
        self.usage = LLMUsage()
        self._mode: ResponseFormat = response_format
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"OpenAIChat({self.url!r}, model={self.model!r}, response_format={self._mode!r})"

    @property
    def response_format(self) -> ResponseFormat:
        """How a schema-constrained request is sent now (it moves down after a server rejects one)."""
        return self._mode

    @property
    def retries(self) -> int:
        return self._endpoint.retries

    def close(self) -> None:
        """Closes idle keep-alive connections (a later call reconnects)."""
        self._endpoint.close()

    def __enter__(self) -> OpenAIChat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the LLM port --------------------------------------------------------------------------------------

    def chat(self, request: ChatRequest) -> str:
        """Sends the conversation and returns the reply text (JSON text when ``request.json_schema`` is set;
        the caller validates it). Raises :class:`LLMError` when no reply can be had."""
        if not request.messages:
            raise ValueError("a chat request needs at least one message")
        mode: ResponseFormat | None = self._mode if request.json_schema is not None else None
        while True:
            body = self._body(request, mode)
            try:
                data = self._endpoint.post(body)
            except LLMError as exc:
                if mode in _WEAKER and exc.status in _REJECTED_STATUS:
                    mode = _WEAKER[mode]  # type: ignore[index]
                    continue
                raise
            break
        if mode is not None and mode != self._mode:
            with self._lock:
                self._mode = mode  # remembered: the next call does not pay for the rejected attempts
        reply, usage = self._parse(data)
        self._count(body, reply, usage)
        return reply

    # -- request -----------------------------------------------------------------------------------------

    def _body(self, request: ChatRequest, mode: ResponseFormat | None) -> dict[str, Any]:
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        body: dict[str, Any] = {"model": self.model, "messages": messages, "stream": False}
        body["temperature"] = request.temperature
        if request.max_tokens is not None:
            body["max_tokens"] = request.max_tokens
        schema = request.json_schema
        if mode == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": _schema_name(request), "schema": schema, "strict": False},
            }
        elif mode is not None:
            body["messages"] = _with_schema_in_prompt(messages, schema)  # type: ignore[arg-type]
            if mode == "json_object":
                body["response_format"] = {"type": "json_object"}
        return body

    # -- response ------------------------------------------------------------------------------------------

    def _parse(self, data: bytes) -> tuple[str, dict[str, Any]]:
        def bad(why: str) -> LLMError:
            return LLMError(f"POST {self.url}: unexpected response ({why}): {data[:200]!r}")

        try:
            payload = json.loads(data)
        except ValueError:
            raise bad("not JSON") from None
        choices = payload.get("choices") if isinstance(payload, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise bad("no 'choices'")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise bad("no 'message' in the first choice")
        content = message.get("content")
        if isinstance(content, list):  # content parts: [{"type": "text", "text": …}, …]
            texts = [p.get("text") for p in content if isinstance(p, dict)]
            content = "".join(t for t in texts if isinstance(t, str))
        if not content and isinstance(message.get("refusal"), str) and message["refusal"]:
            refusal = message["refusal"]
            raise LLMError(f"POST {self.url}: the model refused: {refusal}", status=200, message=refusal)
        if content is None:
            raise bad("the message has no content")
        if not isinstance(content, str):
            raise bad("the message content is not text")
        usage = payload.get("usage")
        return content, usage if isinstance(usage, dict) else {}

    def _count(self, body: dict[str, Any], reply: str, usage: dict[str, Any]) -> None:
        prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
        estimated = False
        if not _count_value(prompt):
            estimated = True
            prompt = sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD for m in body["messages"])
            response_format = body.get("response_format", {})
            if response_format.get("type") == "json_schema":
                prompt += estimate_tokens(json.dumps(response_format["json_schema"]["schema"]))
        if not _count_value(completion):
            estimated = True
            completion = estimate_tokens(reply)
        with self._lock:
            self.usage.calls += 1
            self.usage.prompt_tokens += int(prompt)  # type: ignore[arg-type]
            self.usage.completion_tokens += int(completion)  # type: ignore[arg-type]
            if estimated:
                self.usage.estimated_calls += 1


def _count_value(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _schema_name(request: ChatRequest) -> str:
    """OpenAI wants a name of at most 64 letters, digits, '_' or '-' for the schema."""
    name = str(request.metadata.get("schema_name") or "reply")
    name = "".join(c if c in _SCHEMA_NAME_CHARS else "_" for c in name)[:64]
    return name or "reply"


def _with_schema_in_prompt(messages: list[dict[str, str]], schema: dict[str, Any]) -> list[dict[str, str]]:
    """The messages with the schema written into the (first) system message, for servers that cannot
    constrain the reply themselves. OpenAI's json_object mode also requires the word JSON in the prompt."""
    instruction = (
        "Reply with a single JSON value and nothing else (no prose, no code fences). "
        "It must conform to this JSON Schema:\n"
        + json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    )
    out = [dict(m) for m in messages]
    if out and out[0]["role"] == "system":
        out[0]["content"] = out[0]["content"].rstrip() + "\n\n" + instruction
    else:
        out.insert(0, {"role": "system", "content": instruction})
    return out


def llm_from_env(environ: Mapping[str, str] | None = None) -> OpenAIChat | None:
    """The LLM configured in the environment, or None when ``MEMQL_LLM_BASE_URL`` is not set (memql then
    uses its offline services and never touches the network).

    - ``MEMQL_LLM_BASE_URL``: the API root, e.g. ``http://localhost:11434/v1`` (Ollama)
    - ``MEMQL_LLM_MODEL``: the model name (required with a URL)
    - ``MEMQL_LLM_API_KEY``: optional bearer token
    - ``MEMQL_LLM_TIMEOUT``: optional seconds per socket operation (default 120)

    A set but unusable configuration raises :class:`LLMConfigError` naming the variable.
    """
    env = os.environ if environ is None else environ
    base_url = (env.get("MEMQL_LLM_BASE_URL") or "").strip()
    if not base_url:
        return None
    model = (env.get("MEMQL_LLM_MODEL") or "").strip()
    if not model:
        raise LLMConfigError(
            "MEMQL_LLM_MODEL is not set: name the model served at MEMQL_LLM_BASE_URL "
            "(e.g. qwen2.5:7b for Ollama, gpt-4o-mini for OpenAI)"
        )
    timeout = DEFAULT_TIMEOUT
    raw_timeout = (env.get("MEMQL_LLM_TIMEOUT") or "").strip()
    if raw_timeout:
        try:
            timeout = float(raw_timeout)
        except ValueError:
            timeout = float("nan")
        if not timeout > 0 or timeout == float("inf"):
            raise LLMConfigError(
                f"MEMQL_LLM_TIMEOUT must be a positive number of seconds, got {raw_timeout!r}"
            )
    try:
        return OpenAIChat(
            base_url, model, api_key=_api_key(env, urlsplit(base_url).hostname), timeout=timeout
        )
    except ValueError as exc:
        raise LLMConfigError(f"MEMQL_LLM_BASE_URL: {exc}") from None


def _api_key(env: Mapping[str, str], host: str | None) -> str:
    """$MEMQL_LLM_API_KEY; $OPENAI_API_KEY only for OpenAI's own host."""
    key = env.get(API_KEY_ENV_VAR) or ""
    if not key and host == OPENAI_HOST:
        key = env.get("OPENAI_API_KEY") or ""
    return key
