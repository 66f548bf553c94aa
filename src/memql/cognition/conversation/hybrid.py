"""The hybrid strategy: several strategies' candidate pieces under one budget.

Generic over its components (by default flat plus every higher level present: tiers' segments and
persona, the ladder's themes and facts). Each component proposes pieces best first — through its
`candidates(query, budget)` when it has one (undated message pieces, see assemble), else the pieces of
its own `context(query, budget)`. Scores of different strategies are not on one scale, so each
component's are divided by its best (times the component's weight); the pooled pieces are then packed
best first by `assemble`, which skips a piece whose source turns are already cited by raw messages or by
a piece of its own level: a summary over turns already shown, or one turn found by two components.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from memql.cognition.conversation.assemble import assemble
from memql.cognition.conversation.base import Context, Message, Piece, Strategy
from memql.ports.models import LLM

if TYPE_CHECKING:
    from memql.engine.executor import Executor


@dataclass(frozen=True)
class HybridConfig:
    components: tuple[str, ...] | None = None  # strategy names (None: flat + the available higher levels)
    weights: Mapping[str, float] = field(default_factory=dict)  # component name -> score factor (1)
    configs: Mapping[str, Any] = field(default_factory=dict)  # component name -> its config


class Hybrid:
    name = "hybrid"

    def __init__(
        self,
        executor: Executor,
        conversation_id: str,
        config: HybridConfig | None = None,
        llm: LLM | None = None,
        components: Sequence[Strategy] | None = None,
    ) -> None:
        """`components`: strategy instances to combine (a Conversation passes the ones it already feeds,
        and observes them itself); without them, hybrid builds its own by name and feeds them."""
        from memql.cognition.conversation import registry

        self.executor, self.conversation_id = executor, conversation_id
        self.config = config or HybridConfig()
        self._feeds = components is None
        if components is None:
            components = [
                registry.strategy_class(name)(
                    executor, conversation_id, config=self.config.configs.get(name), llm=llm
                )
                for name in registry.components("hybrid", self.config)
            ]
        if not components:
            raise ValueError("hybrid needs at least one component strategy")
        self.components = list(components)

    def observe(self, message: Message) -> None:
        if self._feeds:
            for component in self.components:
                component.observe(message)

    def context(self, query: str, budget_tokens: int) -> Context:
        proposals: list[list[Piece]] = []
        llm_calls = 0
        for component in self.components:
            pieces, calls = _proposals(component, query, budget_tokens)
            llm_calls += calls
            weight = self.config.weights.get(component.name, 1.0)
            best = max((p.score for p in pieces), default=0.0)
            # on one scale: a share of the component's best (by rank when it gives no scores)
            proposals.append(
                [
                    replace(p, score=weight * (p.score / best if best > 0 else 1.0 / (1 + rank)))
                    for rank, p in enumerate(pieces)
                ]
            )
        pieces = assemble(_merge(proposals), budget_tokens)
        return Context(query, self.name, budget_tokens, pieces, llm_calls=llm_calls)


def _merge(proposals: list[list[Piece]]) -> list[Piece]:
    """One ranking from several: repeatedly the best head. Each component's own order is kept (flat
    places a hit's neighbour right after it, whatever its score)."""
    heads = [0] * len(proposals)
    merged: list[Piece] = []
    while True:
        live = [i for i, pieces in enumerate(proposals) if heads[i] < len(pieces)]
        if not live:
            return merged
        best = max(live, key=lambda i: (proposals[i][heads[i]].score, -i))
        merged.append(proposals[best][heads[best]])
        heads[best] += 1


def _proposals(component: Strategy, query: str, budget_tokens: int) -> tuple[list[Piece], int]:
    """A component's pieces best first, and the LLM calls it made proposing them."""
    candidates = getattr(component, "candidates", None)
    if callable(candidates):
        return list(candidates(query, budget_tokens)), 0
    context = component.context(query, budget_tokens)
    return sorted(context.pieces, key=lambda p: -p.score), context.llm_calls
