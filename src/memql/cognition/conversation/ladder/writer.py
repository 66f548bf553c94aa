"""The ladder's write path: messages -> episodes -> facts -> themes, every unit written with memql verbs.

Per message, `observe` only decides whether the open episode ends (a topic shift, a silence, a size cap);
nothing is written until an episode closes. Then two transactions run:

1. one workflow Encodes the episode and its facts (an episode and its facts appear together or not at
   all);
2. one workflow applies the theme plan: Encode new themes (a split part carries facet `split_from`),
   Merge near-duplicate themes (then Update the survivor's summary and members), Update the themes that
   gained members, and archive (Demote) the themes that were split.

If the process stops between the two, reloading finds the facts no theme holds and places them again
(`Ladder` does it on start), so the hierarchy always converges to a complete one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from memql.cognition.conversation.base import Message
from memql.cognition.conversation.formation import conversation_facts, facts_by_source
from memql.cognition.conversation.records import locked_ids
from memql.errors import MemqlError
from memql.lang import build
from memql.ports.models import LLM
from memql.services.keywords import keywords
from memql.services.sentences import split_sentences
from memql.services.summarize import summarize

from .config import LadderConfig
from .facts import FactDraft, extract_offline, spoken, typed_drafts, typed_of
from .llm import EpisodePlan, plan_episodes, summarise_themes
from .themes import ThemeOrganizer, ThemePlan
from .units import EpisodeUnit, FactUnit, LadderState, ThemeUnit, encode_ir, unit_facets
from .vectors import Vectors, centroid, cosine

if TYPE_CHECKING:
    from memql.engine.executor import Executor

WORKFLOW_STEPS = 100  # the language's workflow limit


class LadderWriteError(MemqlError, RuntimeError):
    """A ladder write was refused by the engine; the message names the rule ids and the failed step."""


class LadderWriter:
    def __init__(
        self,
        executor: Executor,
        conversation_id: str,
        state: LadderState,
        config: LadderConfig,
        vectors: Vectors,
        llm: LLM | None = None,
    ) -> None:
        self.executor, self.conversation_id, self.state = executor, conversation_id, state
        self.config, self.vectors, self.llm = config, vectors, llm
        self.tag = f"conv:{conversation_id}"
        self.organizer = ThemeOrganizer(state, config)

    # --- episodes -----------------------------------------------------------------------------------

    def observe(self, message: Message) -> None:
        if message.position <= self.state.last_position or any(
            m.memory_id == message.memory_id for m in self.state.open
        ):
            return  # already held (a replay after a restart)
        held = self.state.open
        if held and message.time - held[-1].time > self.config.episode_gap:
            self.segment(close_all=True)  # a silence (a new session) ends whatever is open
        elif len(held) >= self.config.max_episode_messages:
            self.segment(close_all=False)
        self.state.open.append(message)

    def segment(self, close_all: bool) -> None:
        """Cut the held messages into episodes at topic shifts and close them; the last run stays open
        unless `close_all`. The rule is the online one — a message whose cosine to the running episode's
        centroid is below `episode_shift`, once it holds `min_episode_messages`, or one that would exceed
        `max_episode_messages`, starts an episode — applied when a silence or the size cap asks for a
        decision, so the held messages are embedded in one batch instead of one model call each."""
        held = self.state.open
        if not held:
            return
        self.state.loaded()  # a restarted ladder's facts and themes, read before this writes any
        plans = plan_episodes(self.llm, held) if self.llm is not None else None
        if plans is not None:  # the model's boundaries, titles and facts (one call)
            ends = [p.first for p in plans[1:]] + [len(held)]
            runs = [list(range(p.first, end)) for p, end in zip(plans, ends, strict=True)]
        else:
            vectors = self.vectors.embed([spoken(m) for m in held])
            runs = [[0]]
            for i in range(1, len(held)):
                if self.shift(vectors[runs[-1]], vectors[i]):
                    runs.append([i])
                else:
                    runs[-1].append(i)
        if len(runs) == 1 and not close_all and len(held) < self.config.max_episode_messages:
            return
        closing = runs if close_all or len(runs) == 1 else runs[:-1]
        for index, run in enumerate(closing):
            self.state.open = [held[i] for i in run]
            self.close_episode(plans[index] if plans is not None else None)
        self.state.open = [] if closing is runs else [held[i] for i in runs[-1]]

    def shift(self, episode: np.ndarray, vector: np.ndarray) -> bool:
        """Does a message with `vector` start a new episode after the episode whose vectors are given?"""
        config = self.config
        if len(episode) >= config.max_episode_messages:
            return True
        if len(episode) < config.min_episode_messages:
            return False
        return cosine(vector, centroid(episode)) < config.episode_shift

    def close_episode(self, plan: EpisodePlan | None = None) -> None:
        """Write the open episode and its facts (the typed ones, then the model's when `plan` gives them,
        else the offline ones), then place the facts in themes."""
        messages = self.state.open
        if not messages:
            return
        typed = facts_by_source(conversation_facts(self.executor, self.conversation_id, visit=False))
        if plan is not None:
            own = {m.memory_id for m in messages}
            said = [d for d in plan.facts if set(d.message_ids) <= own]
            drafts = [d for m in messages for d in typed_drafts(m, typed_of(m, typed))] + said
        else:
            drafts = extract_offline(messages, self.config, typed)
        episode = self._episode_record(messages, plan.title if plan is not None else None)
        steps = [episode] + [self._fact_record(d) for d in drafts]
        results = self._run(steps, "episode")
        episode_id = results[0]
        self.state.episodes[episode_id] = EpisodeUnit(
            episode_id,
            episode["args"]["payload"]["text"],
            tuple(episode["args"]["facets"]["source_ids"]),
            tuple(m.memory_id for m in messages),
            tuple(episode["args"]["facets"]["cited"]),
            messages[-1].position,
            messages[0].time,
        )
        vectors = self.vectors.embed([d.text for d in drafts]) if drafts else []
        fact_ids = []
        for draft, fact_id, vector in zip(drafts, results[1:], vectors, strict=True):
            self.state.facts[fact_id] = FactUnit(
                fact_id, draft.text, draft.source_ids, draft.message_ids, draft.time, vector
            )
            fact_ids.append(fact_id)
        self.state.last_position = messages[-1].position
        self.state.open = []
        self.place(fact_ids)

    def _episode_record(self, messages: list[Message], title: str | None = None) -> dict[str, Any]:
        lines = [spoken(m) for m in messages]
        text = summarize(lines, self.config.episode_summary_tokens) or lines[0]
        if title:  # the model's title leads the extractive summary
            text = f"{title}: {text}"
        cited = cited_sources(text, [(spoken(m), m.source_ids) for m in messages])
        sources = [s for m in messages for s in m.source_ids]
        facets = unit_facets(
            self.conversation_id,
            "episode",
            list(dict.fromkeys(sources)),
            message_ids=[m.memory_id for m in messages],
            cited=cited,
            last_position=messages[-1].position,
        )
        return encode_ir(self.tag, facets, text, "episode", messages[0].time, "ladder: episode")

    def _fact_record(self, draft: FactDraft) -> dict[str, Any]:
        facets = unit_facets(
            self.conversation_id, "fact", draft.source_ids, message_ids=list(draft.message_ids)
        )
        return encode_ir(self.tag, facets, draft.text, "fact", draft.time, "ladder: fact")

    # --- themes -------------------------------------------------------------------------------------

    def place(self, fact_ids: list[str]) -> None:
        """Attach facts to themes, split and merge, and write the outcome in one workflow."""
        if not fact_ids:
            return
        # a locked theme (a legal hold) is left as it is: hidden from the plan, it takes no fact, is
        # neither split nor merged, and the facts go to the other themes or found new ones
        held = locked_ids(self.executor, [t for t in self.state.themes if not t.startswith("new:")])
        hidden = {t: self.state.themes.pop(t) for t in held if t in self.state.themes}
        try:
            plan = self.organizer.place(fact_ids)
            self._describe_all([self.state.themes[theme_id] for theme_id in plan.touched])
            steps, new_ids = self._theme_steps(plan)
            results = self._run(steps, "themes")
            for step, theme_id in new_ids.items():
                real = results[step]
                theme = self.state.themes.pop(theme_id)
                theme.id = real
                self.state.themes[real] = theme
                for member in theme.members:
                    self.state.fact_theme[member] = real
        finally:
            self.state.themes.update(hidden)

    def _describe_all(self, themes: list[ThemeUnit]) -> None:
        """The touched themes' texts: the model's titles and summaries (one call), else extractive ones."""
        written = (
            summarise_themes(self.llm, [[self.state.facts[m].text for m in t.members] for t in themes])
            if self.llm is not None and themes
            else None
        )
        for i, theme in enumerate(themes):
            if written is None:
                self._describe(theme)
                continue
            title, summary = written[i]
            theme.text = f"{title}: {summary}"
            theme.cited = tuple(
                dict.fromkeys(s for m in theme.members for s in self.state.facts[m].source_ids)
            )

    def _describe(self, theme: ThemeUnit) -> None:
        """A theme's stored text: a label of its top keywords, then an extractive summary of its facts."""
        texts = [self.state.facts[m].text for m in theme.members]
        label = ", ".join(keywords(" ".join(texts), k=self.config.theme_label_terms))
        summary = summarize(texts, self.config.theme_summary_tokens) or texts[0]
        theme.text = f"{label}: {summary}" if label else summary
        theme.cited = tuple(
            cited_sources(
                summary, [(self.state.facts[m].text, self.state.facts[m].source_ids) for m in theme.members]
            )
        )

    def _theme_facets(self, theme: ThemeUnit) -> dict[str, Any]:
        sources = [s for m in theme.members for s in self.state.facts[m].source_ids]
        extra: dict[str, Any] = {"members": list(theme.members), "cited": list(theme.cited)}
        if theme.split_from:
            extra["split_from"] = theme.split_from
        return unit_facets(self.conversation_id, "theme", list(dict.fromkeys(sources)), **extra)

    def _theme_steps(self, plan: ThemePlan) -> tuple[list[dict[str, Any]], dict[int, str]]:
        steps: list[dict[str, Any]] = []
        new_ids: dict[int, str] = {}
        for theme_id in plan.touched:
            theme = self.state.themes[theme_id]
            if theme_id.startswith("new:"):
                new_ids[len(steps)] = theme_id
                note = f"ladder: theme split from {theme.split_from}" if theme.split_from else "ladder: theme"
                steps.append(
                    encode_ir(self.tag, self._theme_facets(theme), theme.text, "theme", theme.time, note)
                )
        for primary, child in plan.merges:
            steps.append(
                build.merge([primary, child], primary_id=primary, comment="ladder: near-duplicate themes")
            )
        for theme_id in plan.touched:
            if not theme_id.startswith("new:"):
                theme = self.state.themes[theme_id]
                steps.append(
                    build.update(
                        [theme_id],
                        text=theme.text,
                        facets=self._theme_facets(theme),
                        comment="ladder: theme members changed",
                    )
                )
        for theme_id in plan.archived:
            steps.append(build.demote([theme_id], archive=True, comment="ladder: theme split"))
        return steps, new_ids

    # --- execution ----------------------------------------------------------------------------------

    def _run(self, steps: list[dict[str, Any]], what: str) -> list[str | None]:
        """Run the steps (one transaction per chunk of the workflow limit); each step's new id, if any."""
        ids: list[str | None] = []
        for at in range(0, len(steps), WORKFLOW_STEPS):
            chunk = steps[at : at + WORKFLOW_STEPS]
            result = self.executor.execute(build.workflow(chunk))
            if not result.success:
                reasons = "; ".join(f"{d.rule} at {d.path}: {d.message}" for d in result.diagnostics)
                raise LadderWriteError(f"ladder {what} write refused (step {result.failed_step}): {reasons}")
            ids.extend(step.id for step in result.steps or [])
        return ids


def cited_sources(summary: str, units: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """The source ids of the units at least one of whose sentences the summary shows."""
    cited: list[str] = []
    for text, sources in units:
        if any(s and s in summary for s in split_sentences(text)):
            cited.extend(sources)
    return list(dict.fromkeys(cited))
