"""The LLM extractor: one OpenAI-compatible chat call per message, constrained by `MemoryDelta`'s JSON
Schema, and the reply held to the same rules as the offline extractor's output.

A reply is kept only when it is a JSON object that validates as a `MemoryDelta` and every evidence quote
occurs in the message (offsets a model miscounts are moved onto the quoted words). Otherwise the model is
asked once more, with the problems; a second bad reply is dropped whole: the result is an empty delta
carrying the diagnostic `extract.invalid_reply` — never a part of a reply. Attribute keys are passed
through the vocabulary, so the LLM path and the rules path name a fact alike; a null `valid_from`
becomes the message's time.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from memql.lang.categories import STANDARD_CATEGORIES
from memql.lang.delta import ATTRIBUTE_PATTERN, MemoryDelta, Utterance, anchor_evidence
from memql.lang.diagnostics import Diagnostic
from memql.ports.models import LLM, ChatMessage, ChatRequest
from memql.services.llm import LLMConfigError, LLMError, llm_from_env

from .vocabulary import DEFAULT_VOCABULARY, Vocabulary

DEFAULT_MAX_TOKENS = 2048  # a delta of a chat message is a few hundred tokens; this bounds a runaway reply
RECENT_TURNS = 8  # the turns before the message shown to the model
_FAMILIES = ("favorite", "preference", "relation", "allergy")

SYSTEM_PROMPT = """\
You read one chat message and return what a memory system should learn from it, as JSON that follows the
given schema exactly. Fill only what the message itself says; an empty list is a good answer.

- facts: lasting, checkable statements about a person or thing: where someone lives, works, their job,
  contact details, birthday, preferences, relations, deadlines and dates of their matters, statuses.
  subject: the speaker's name for I/me/my/we; a named person for "my sister Ana" (and add the fact
  {subject: "Ana", attribute: "relation.sister_of", value: <speaker>}); for he/she use the person the
  recent turns name, and give no fact when that is unclear.
  attribute: a short lower-case key: residence, employer, job_title, phone, email, birthday, age, name,
  diet, <thing>.deadline (passport.deadline), <thing>.expiry, <thing>.appointment, favorite.<x>,
  preference.<x> (value love|like|prefer|dislike|hate), relation.<relation>_of, allergy.<x>.
  value: a date as YYYY-MM-DD (YYYY-MM for a month, YYYY for a year), a number as a number, else the words.
  valid_from: when the value became true if the message says so ("moved last month"), else null.
  correction: true when the message corrects an earlier statement ("actually", "correction:", "scratch
  that", "I meant", "不对", "改成"); then use the attribute of the fact it corrects in the recent turns.
  said_in: null for what the message says. When the message changes or corrects a value that a recent
  turn stated (that turn's `index`), also give that earlier fact with said_in = the index, its evidence
  quoting that turn's words and valid_from that turn's time, before the new one.
  Questions, hypotheticals ("if I moved"), wishes and plans are not facts.
- entities: people, places, organizations, products named in the message.
- times: every time expression, resolved to absolute UTC instants against the message time (its zone is
  the calendar): start and end of the span ([start, end), end = start for an instant) and granularity.
- tasks (things to do) and decisions (things settled): text, owner (a name or null), due (UTC or null).
- memory_type: procedural for how to do something or a routine; else semantic when the message states
  lasting facts or preferences; else episodic. category: an a2p category (a2p:preferences,
  a2p:professional, a2p:health, a2p:financial, a2p:relationships, a2p:context ...) or null. sensitivity:
  restricted for health or money, sensitive for relationships, else standard. salience: 0..1.
- evidence: quote the message's exact words (quote), with start and end as character offsets into the
  message text. Never quote words that are not in the message.
"""


def render_message(message: Utterance, recent_turns: int = RECENT_TURNS) -> str:
    """The user turn of the request: the message, its time and the recent turns, as JSON."""
    first = max(0, len(message.recent) - recent_turns)  # `index` is the turn's place in Utterance.recent
    recent = [
        {"index": first + i, "speaker": t.speaker, "text": t.text}
        | ({"time": t.time.isoformat()} if t.time else {})
        for i, t in enumerate(message.recent[first:])
    ]
    payload = {
        "speaker": message.speaker,
        "time": message.time.isoformat(),
        "weekday": message.time.strftime("%A"),
        "recent_turns": recent,
        "text": message.text,
    }
    return json.dumps(payload, ensure_ascii=False, indent=1)


class LLMExtractor:
    """The `Extractor` over an OpenAI-compatible model (see the module docstring).

    ``llm`` defaults to the one configured in the environment (memql.services.llm.llm_from_env); with none,
    every message gives an empty delta with the diagnostic ``extract.no_llm``. ``retries`` is how many
    times an invalid reply is asked again (one by default).
    """

    name = "llm"

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        vocabulary: Vocabulary | None = None,
        retries: int = 1,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        recent_turns: int = RECENT_TURNS,
    ) -> None:
        if retries < 0:
            raise ValueError(f"retries must not be negative, got {retries}")
        self._config_error: str | None = None
        if llm is None:
            try:
                llm = llm_from_env()
            except LLMConfigError as exc:
                self._config_error = str(exc)
        self.llm = llm
        self.vocabulary = vocabulary or DEFAULT_VOCABULARY
        self.retries = int(retries)
        self.max_tokens = int(max_tokens)
        self.recent_turns = int(recent_turns)

    def extract(self, message: Utterance) -> MemoryDelta:
        if self.llm is None:
            why = self._config_error or "no LLM is configured (MEMQL_LLM_BASE_URL): use the rule extractor"
            return _failed("extract.no_llm", why)
        messages = [
            ChatMessage("system", SYSTEM_PROMPT),
            ChatMessage("user", render_message(message, self.recent_turns)),
        ]
        schema = MemoryDelta.model_json_schema()
        problems: list[str] = []
        for attempt in range(self.retries + 1):
            try:
                reply = self.llm.chat(
                    ChatRequest(
                        messages=list(messages),
                        json_schema=schema,
                        max_tokens=self.max_tokens,
                        temperature=0.0,
                        metadata={"schema_name": "memql_memory_delta", "purpose": "extract"},
                    )
                )
            except LLMError as exc:
                return _failed("extract.llm_error", f"the LLM could not be reached or answered badly: {exc}")
            delta, problems = self.read_reply(reply, message)
            if delta is not None:
                return delta
            if attempt < self.retries:
                messages += [ChatMessage("assistant", reply), ChatMessage("user", _repair(problems))]
        shown = "; ".join(problems[:5])
        return _failed(
            "extract.invalid_reply",
            f"the model's reply did not validate after {self.retries + 1} attempt(s), nothing kept: {shown}",
        )

    def read_reply(self, reply: str, message: Utterance) -> tuple[MemoryDelta | None, list[str]]:
        """The delta a reply gives, or None and what is wrong with it."""
        try:
            data = json.loads(reply)
        except ValueError as exc:
            return None, [f"the reply is not JSON ({exc})"]
        if not isinstance(data, dict):
            return None, ["the reply must be one JSON object (a MemoryDelta)"]
        if "diagnostics" in data:
            return None, ["'diagnostics' is not a field the reply may fill"]
        self._lenient(data)
        try:
            delta = MemoryDelta.model_validate(data)
        except ValidationError as exc:
            return None, [_problem(e) for e in exc.errors()[:10]]
        delta, problems = anchor_evidence(delta, message.text, message.recent)
        if problems:
            return None, problems
        return self._normalised(delta, message), []

    def _lenient(self, data: dict[str, Any]) -> None:
        """What a model writes loosely and means plainly, set right before validation: an attribute as words
        ("Passport Deadline" -> passport.deadline), a category without its namespace ("preferences")."""
        facts = data.get("facts")
        for fact in facts if isinstance(facts, list) else ():
            if not isinstance(fact, dict):
                continue
            attribute = fact.get("attribute")
            if isinstance(attribute, str) and not ATTRIBUTE_PATTERN.match(attribute):
                fact["attribute"] = self.vocabulary.normalize(attribute) or attribute
            if "category" in fact:
                fact["category"] = _category(fact["category"])
        if "category" in data:
            data["category"] = _category(data["category"])

    def _normalised(self, delta: MemoryDelta, message: Utterance) -> MemoryDelta:
        facts = []
        for fact in delta.facts:
            facts.append(
                fact.model_copy(
                    update={
                        "attribute": self._key(fact.attribute),
                        "valid_from": fact.valid_from or message.time,
                        "category": fact.category or self.vocabulary.category(self._key(fact.attribute)),
                    }
                )
            )
        data: dict[str, Any] = {**delta.model_dump(), "facts": [f.model_dump() for f in facts]}
        return MemoryDelta.model_validate(data, strict=False)

    def _key(self, attribute: str) -> str:
        """A model's key in the vocabulary's terms: "passport.due_date" -> passport.deadline; a family key
        (favorite.x, relation.x_of ...) and a known key stay as they are."""
        if attribute.split(".", 1)[0] in _FAMILIES or self.vocabulary.attribute(attribute) is not None:
            return attribute
        key = self.vocabulary.normalize(attribute.replace(".", " ").replace("_", " "))
        return key or attribute


def _category(value: Any) -> Any:
    if isinstance(value, str) and f"a2p:{value.strip().lower()}" in STANDARD_CATEGORIES:
        return f"a2p:{value.strip().lower()}"
    return value


def _problem(error: Any) -> str:
    where = "/" + "/".join(str(p) for p in error.get("loc", ()))
    return f"{where}: {error.get('msg', 'invalid')}"


def _repair(problems: list[str]) -> str:
    listed = "\n".join(f"- {p}" for p in problems[:10])
    return (
        "Your reply is not a valid MemoryDelta:\n"
        + listed
        + "\nAnswer again with the whole JSON object, following the schema, "
        + "quoting only words of the message."
    )


def _failed(rule: str, message: str) -> MemoryDelta:
    return MemoryDelta(diagnostics=(Diagnostic(path="", rule=rule, severity="error", message=message),))
