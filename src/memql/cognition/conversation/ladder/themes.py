"""Theme maintenance (DESIGN §9), in memory: where new facts go, which themes split, which merge.

The outcome is a `ThemePlan`; `writer.py` turns it into memql verbs. Rules, in order, per closed episode:

1. attach: each new fact joins the theme whose centroid is nearest if the cosine is >= `theme_attach`
   (0.62), else it starts a theme of its own;
2. split: a touched theme with more than `theme_max_members` (12) members, or of at least 4 members whose
   mean member-to-centroid cosine is below `theme_coherence`, is cut in two by 2-means (seeded with the
   member farthest from the centroid and the member farthest from that one; deterministic), repeatedly,
   until every part is small and coherent;
3. merge: a touched theme whose centroid is within `theme_merge` (0.78) of another theme's is folded into
   the larger one — only when the union stays within `theme_max_members`, so a split is never undone by
   the next merge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .config import LadderConfig
from .units import LadderState, ThemeUnit
from .vectors import centroid

KMEANS_ROUNDS = 10
MIN_COHERENCE_MEMBERS = 4


@dataclass
class ThemePlan:
    touched: list[str] = field(default_factory=list)  # theme ids (new ones "new:<n>") to write
    archived: list[str] = field(default_factory=list)  # existing themes replaced by their split parts
    merges: list[tuple[str, str]] = field(default_factory=list)  # (primary, child), both existing


class ThemeOrganizer:
    def __init__(self, state: LadderState, config: LadderConfig) -> None:
        self.state, self.config = state, config
        self._next = 0

    def place(self, fact_ids: list[str]) -> ThemePlan:
        touched: dict[str, None] = {}
        for fact_id in fact_ids:
            touched[self._attach(fact_id)] = None
        plan = ThemePlan()
        queue = list(touched)
        while queue:
            theme_id = queue.pop()
            theme = self.state.themes.get(theme_id)
            if theme is None or not self._needs_split(theme):
                continue
            parts = self._split(theme)
            if parts is None:
                continue
            touched.pop(theme_id, None)
            if not theme_id.startswith("new:"):
                plan.archived.append(theme_id)
            for part in parts:
                touched[part.id] = None
                queue.append(part.id)
        queue = list(touched)
        while queue:  # each merge removes a theme, so this ends; a survivor is looked at again
            theme_id = queue.pop()
            if theme_id not in self.state.themes:
                continue
            survivor = self._merge(theme_id, plan)
            if survivor != theme_id or theme_id not in self.state.themes:
                touched.pop(theme_id, None)
                touched[survivor] = None
                queue.append(survivor)
        plan.touched = [t for t in touched if t in self.state.themes]
        return plan

    # --- the three rules ----------------------------------------------------------------------------

    def _attach(self, fact_id: str) -> str:
        fact = self.state.facts[fact_id]
        best_id, best = None, -1.0
        if self.state.themes:
            ids = list(self.state.themes)
            sims = np.stack([self.state.themes[i].centroid for i in ids]) @ fact.vector
            at = int(np.argmax(sims))
            best_id, best = ids[at], float(sims[at])
        if best_id is not None and best >= self.config.theme_attach:
            theme = self.state.themes[best_id]
            theme.members.append(fact_id)
            theme.centroid = self._centroid(theme.members)
        else:
            theme = self._new([fact_id])
        self.state.fact_theme[fact_id] = theme.id
        return theme.id

    def _needs_split(self, theme: ThemeUnit) -> bool:
        if len(theme.members) > self.config.theme_max_members:
            return True
        if len(theme.members) < MIN_COHERENCE_MEMBERS:
            return False
        return coherence(self._vectors(theme.members)) < self.config.theme_coherence

    def _split(self, theme: ThemeUnit) -> list[ThemeUnit] | None:
        groups = two_means(self._vectors(theme.members))
        if groups is None:
            return None
        del self.state.themes[theme.id]
        parent = theme.split_from if theme.id.startswith("new:") else theme.id
        parts = []
        for group in groups:
            part = self._new([theme.members[i] for i in group])
            part.split_from = parent
            parts.append(part)
        return parts

    def _merge(self, theme_id: str, plan: ThemePlan) -> str:
        theme = self.state.themes[theme_id]
        best_id, best = None, -1.0
        for other_id, other in self.state.themes.items():
            if other_id == theme_id:
                continue
            if len(theme.members) + len(other.members) > self.config.theme_max_members:
                continue
            sim = float(np.dot(theme.centroid, other.centroid))
            if sim > best:
                best_id, best = other_id, sim
        if best_id is None or best < self.config.theme_merge:
            return theme_id
        other = self.state.themes[best_id]
        # the larger theme survives; an already written one over a new one, so no record is lost
        primary, child = sorted((theme, other), key=lambda t: (t.id.startswith("new:"), -len(t.members)))
        primary.members.extend(m for m in child.members if m not in primary.members)
        primary.centroid = self._centroid(primary.members)
        for member in child.members:
            self.state.fact_theme[member] = primary.id
        del self.state.themes[child.id]
        if not child.id.startswith("new:"):
            plan.merges.append((primary.id, child.id))
        return primary.id

    # --- helpers ------------------------------------------------------------------------------------

    def _new(self, members: list[str]) -> ThemeUnit:
        self._next += 1
        theme_id = f"new:{self._next}"
        first = min((self.state.facts[m].time for m in members if self.state.facts[m].time), default=None)
        theme = ThemeUnit(theme_id, list(members), self._centroid(members), time=first)
        self.state.themes[theme_id] = theme
        for member in members:
            self.state.fact_theme[member] = theme_id
        return theme

    def _vectors(self, members: list[str]) -> np.ndarray:
        return np.stack([self.state.facts[m].vector for m in members])

    def _centroid(self, members: list[str]) -> np.ndarray:
        return centroid(self._vectors(members))


def coherence(vectors: np.ndarray) -> float:
    """Mean cosine of the members to their centroid (1.0 for one member)."""
    return float(np.mean(vectors @ centroid(vectors)))


def two_means(vectors: np.ndarray) -> tuple[list[int], list[int]] | None:
    """Two groups of row indexes by spherical 2-means, or None when the rows cannot be told apart."""
    n = len(vectors)
    if n < 2:
        return None
    middle = centroid(vectors)
    first = int(np.argmin(vectors @ middle))
    second = int(np.argmin(vectors @ vectors[first]))
    if first == second:
        return None
    seeds = np.stack([vectors[first], vectors[second]])
    assign = np.zeros(n, dtype=int)
    for _ in range(KMEANS_ROUNDS):
        new_assign = np.argmax(vectors @ seeds.T, axis=1)
        new_assign[first], new_assign[second] = 0, 1  # the seeds stay apart
        if np.array_equal(new_assign, assign) and _ > 0:
            break
        assign = new_assign
        seeds = np.stack([centroid(vectors[assign == g]) for g in (0, 1)])
    groups = ([i for i in range(n) if assign[i] == 0], [i for i in range(n) if assign[i] == 1])
    return groups if groups[0] and groups[1] else None
