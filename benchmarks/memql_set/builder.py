"""Builder: what a template writes a scenario with — the store, the program, the instruction — once per
language from the same random choices, so that the English and the Chinese sample of a scenario share
their records, ids, times, weights and program, and differ only in the words."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from benchmarks.memql_set.content import DOMAINS, KIND_WORDS, Domain, Note, Text
from benchmarks.memql_set.verbs import Expect, apply
from benchmarks.memql_set.world import GenerationError, Rec, World, iso, state_assertions
from memql.lang import validate

# how instructions name records by id: English singular and plural; Chinese prefix, counter and noun
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)  # not strftime's %B, which follows the locale

ID_NOUNS: tuple[tuple[str, str, tuple[str, str, str]], ...] = (
    ("note", "notes", ("第", "条", "记录")),
    ("memory", "memories", ("第", "条", "记忆")),
    ("record", "records", ("", "号", "记录")),
    ("item", "items", ("第", "项", "")),
)


@dataclass(frozen=True)
class Form:
    """One kind of scenario: a verb (or workflow) and a form of it, direct or indirect, made `count` times."""

    verb: str  # "label", or the workflow's verbs joined: "encode-lock"
    name: str  # "add-by-ids"
    instruction: str  # direct | indirect
    count: int
    build: Callable[[Builder], None]
    notes: str  # what the form exercises, in a few words


class Builder:
    def __init__(self, form: Form, index: int, lang: str, seed: int) -> None:
        self.form, self.index, self.lang, self.seed = form, index, lang, seed
        self.rng = random.Random(f"{seed}/{form.verb}/{form.name}/{form.instruction}/{index}")
        day = datetime(2025, 1, 6, tzinfo=UTC) + timedelta(days=self.rng.randrange(0, 700))
        self.now = day.replace(
            hour=self.rng.choice((8, 9, 10, 11, 14, 15, 16, 17)), minute=self.rng.choice((0, 0, 15, 30, 45))
        )
        self.world = World(self.now)
        self.prerequisites: list[dict[str, Any]] = []
        self.program: list[dict[str, Any]] = []
        self.expects: list[Expect] = []
        self.instruction: str | None = None
        self.noun = self.rng.choice(ID_NOUNS)
        self._before: dict[str, Rec] | None = None

    # --- words ---------------------------------------------------------------------------------------

    def t(self, text: Text | str) -> str:
        """The current language's side of a bilingual text."""
        return text if isinstance(text, str) else (text[0] if self.lang == "en" else text[1])

    @property
    def indirect(self) -> bool:
        return self.form.instruction == "indirect"

    def say(self, options: Sequence[Text], **values: Any) -> None:
        """The instruction: one of the phrasings (chosen once for both languages), filled in."""
        en, zh = self.rng.choice(list(options))
        filled = {k: self.t(v) if isinstance(v, tuple) else v for k, v in values.items()}
        text = (en if self.lang == "en" else zh).format(**filled)
        self.instruction = text[:1].upper() + text[1:]

    def ids(self, ids: Sequence[str]) -> Text:
        """'note 3' / 'notes 2 and 4' and 第3条记录 / 第2条和第4条记录 (the noun varies by scenario)."""
        one, many, (prefix, counter, noun) = self.noun
        if len(ids) == 1:
            return f"{one} {ids[0]}", f"{prefix}{ids[0]}{counter}{noun}"
        head = "、".join(f"{prefix}{i}{counter}" for i in ids[:-1])
        return f"{many} {', '.join(ids[:-1])} and {ids[-1]}", f"{head}和{prefix}{ids[-1]}{counter}{noun}"

    @staticmethod
    def kind_words(kind: str) -> Text:
        return KIND_WORDS[kind]

    @staticmethod
    def when(instant: str) -> Text:
        """An instant as an instruction says it: 'June 3, 2026 at 18:00 UTC' / 2026年6月3日18:00（UTC）."""
        d = datetime.fromisoformat(instant.replace("Z", "+00:00"))
        return (
            f"{MONTHS[d.month - 1]} {d.day}, {d.year} at {d:%H:%M} UTC",
            f"{d.year}年{d.month}月{d.day}日{d:%H:%M}（UTC）",
        )

    @staticmethod
    def day(instant: datetime) -> Text:
        return (
            f"{MONTHS[instant.month - 1]} {instant.day}, {instant.year}",
            f"{instant.year}年{instant.month}月{instant.day}日",
        )

    # --- the store -----------------------------------------------------------------------------------

    def domains(self, k: int) -> list[Domain]:
        """The lead domain and k - 1 random others."""
        lead = self.lead()
        return [lead, *self.rng.sample([d for d in DOMAINS if d is not lead], k - 1)]

    def lead(self, where: Callable[[Domain], bool] = lambda d: True) -> Domain:
        """The domain a scenario is about: the instances of a form walk one shuffled order of the
        domains, so that they are about different things."""
        order = random.Random(
            f"{self.seed}/{self.form.verb}/{self.form.name}/{self.form.instruction}"
        ).sample(DOMAINS, len(DOMAINS))
        fits = [d for d in order if where(d)]
        return fits[self.index % len(fits)]

    def rotate(self, pool: Sequence[Any]) -> Any:
        """An item of `pool`, different for each instance of a form (while the pool lasts)."""
        order = random.Random(
            f"{self.seed}/{self.form.verb}/{self.form.name}/{self.form.instruction}/pool"
        ).sample(range(len(pool)), len(pool))
        return pool[order[self.index % len(pool)]]

    def notes(self, dom: Domain, k: int) -> list[Note]:
        return self.rng.sample(dom.notes, k)

    def weight(self) -> float:
        return self.rng.choice((0.3, 0.4, 0.5, 0.6, 0.7))

    def ago(self, lo: int = 1, hi: int = 40) -> str:
        """A past event time, lo..hi days before now, on a whole hour (never near a window boundary)."""
        days = self.rng.randint(lo, hi)
        return iso(
            (self.now - timedelta(days=days)).replace(hour=self.rng.choice((7, 9, 12, 13, 18, 20)), minute=0)
        )

    def add(
        self,
        text: Text | str,
        dom: Domain | None = None,
        *,
        tags: Sequence[Text | str] | None = None,
        kind: str | None = None,
        weight: float | None = None,
        time: str | None = None,
        facets: dict[str, Any] | None = None,
    ) -> Rec:
        """A prerequisite record (an Encode run before the program), in the model too."""
        if self.program:
            raise GenerationError("prerequisites come before the program")
        tag_list = [self.t(t) for t in (tags if tags is not None else (dom.tag, dom.category) if dom else ())]
        args: dict[str, Any] = {"payload": {"text": self.t(text)}, "tags": tag_list}
        kind = kind if kind is not None else (dom.kind if dom else None)
        if kind is not None:
            args["type"] = kind
        args["time"] = time or self.ago()
        args["weight"] = weight if weight is not None else self.weight()
        if facets:
            args["facets"] = facets
        self.prerequisites.append({"stage": "ENC", "op": "Encode", "args": args})
        rec = Rec(
            id=self.world.next_id(),
            text=self.t(text),
            tags=list(tag_list),
            kind=kind,
            weight=args["weight"],
            time=args["time"],
            facets=dict(facets or {}),
        )
        return self.world.add(rec)

    def add_note(self, dom: Domain, note: Note, **kw: Any) -> Rec:
        return self.add(note.text, dom, **kw)

    def add_long(self, dom: Domain, which: int = 0, **kw: Any) -> tuple[Rec, list[str]]:
        """A multi-sentence record of the domain, and its sentences in the current language."""
        en, zh = dom.long[which]
        parts = list(en if self.lang == "en" else zh)
        text = (" ".join(en), "".join(zh))
        return self.add(text, dom, **kw), parts

    def prerequisite(self, ir: dict[str, Any], expect: Expect | None = None) -> None:
        """A non-Encode prerequisite (a lock to lift, an expiry to change), applied to the model."""
        self.prerequisites.append(ir)
        apply(self.world, ir, expect or Expect())
        self.world.step_ids.clear()
        for rec in self.world.records.values():
            rec.touched.clear()

    # --- the program ---------------------------------------------------------------------------------

    def step(self, ir: dict[str, Any], expect: Expect | None = None) -> list[str]:
        """Append a program step and apply it to the model; returns the ids it affects."""
        if self._before is None:
            self._before = self.world.snapshot()
        expect = expect or Expect()
        self.program.append(ir)
        self.expects.append(expect)
        return apply(self.world, ir, expect).ids

    # --- the sample ----------------------------------------------------------------------------------

    def sample(self) -> dict[str, Any]:
        if not self.program or self.instruction is None or self._before is None:
            raise GenerationError(f"{self.form.name}: a template must write a program and an instruction")
        prerequisites = [self._canonical(ir, f"prerequisite {i}") for i, ir in enumerate(self.prerequisites)]
        program = self._canonical(self.program if len(self.program) > 1 else self.program[0], "program")
        steps = program["workflow"] if len(self.program) > 1 else [program]
        structure = "workflow" if len(steps) > 1 else "single"
        scenario = f"{self.form.verb}-{self.form.name}-{self.index + 1:02d}"
        ranking, step_index = self._ranking()
        return {
            "id": f"memql-{self.lang}-{self.form.instruction}-{structure}-{scenario}",
            "scenario": scenario,
            "class": {"instruction_type": self.form.instruction, "structure": structure, "lang": self.lang},
            "nl": {self.lang: self.instruction},
            "prerequisites": prerequisites,
            "schema_list": steps,
            "init_db": None,
            "expected": {
                "assertions": state_assertions(self._before, self.world.records),
                "ranking": ranking,
                "triggers": [],
                "meta": {"dialect": "sqlite", "eval_time_utc": iso(self.now), "step_index": step_index},
            },
            "notes": self.form.notes,
        }

    def _canonical(self, program: Any, what: str) -> Any:
        result = validate(program, now=self.now)
        errors = [d for d in result.diagnostics if d.severity == "error"]
        if errors:
            detail = "; ".join(f"{d.path}: {d.message} [{d.rule}]" for d in errors)
            raise GenerationError(f"{self.form.verb}/{self.form.name}: {what} is invalid: {detail}")
        return result.canonical

    def _ranking(self) -> tuple[dict[str, Any] | None, int]:
        """The ranking check of the program's first Retrieve: its hits must be exactly the gold ids —
        the best len(gold) of a search, or everything a filter or ids read returns."""
        for n, ir in enumerate(self.program):
            if ir["op"] != "Retrieve":
                continue
            gold = self.world.step_ids[n]
            if not gold:
                raise GenerationError(f"{self.form.name}: a Retrieve that finds nothing ranks nothing")
            searched = "search" in ir["target"]
            k = len(gold) if searched else max(len(gold), len(self._before or {}))
            return {"gold_ids": list(gold), "min_hits": len(gold), "allow_extra": False, "k": k}, n
        return None, 0
