"""Automatic promotion of episodic memories to semantic ones (a2p: confidence > 0.9, use count > 10,
and similar episodes that repeat).

A run reads with Retrieve — one scan of the episodic memories, then one search per candidate for the
memories like it — and writes with Update (memory_type: semantic), all promotions in one workflow. The
reads are dry runs: looking at a memory to decide on it is not a use of it, so a promotion run never
raises the use counts it tests. With `dry_run` the plan is shown and nothing changes.

Similar means: the embedding cosine (the engine's embedder, over the stored vectors) when the engine
embeds, else the Jaccard overlap of the two texts' content terms (stemmed, stop words dropped). A
candidate is promoted when at least `min_similar` other active episodic memories are that similar to
it. Within one run the best candidate of a group of repeats is promoted and its repeats stay episodic —
they are the evidence for it; a candidate with a semantic memory that similar already is left alone.
`consolidate=True` also folds the repeats into the promoted memory (one Merge recording
consolidatedFrom); it is off by default because the episodes keep what a semantic memory drops: when
and in what context each one happened.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from memql.cognition.profile.a2p import a2p_id, use_count
from memql.cognition.profile.consolidation import CONSOLIDATE_NOTE, RECLASSIFY_NOTE
from memql.engine.result import ExecutionResult
from memql.lang import Limits, build
from memql.lang.diagnostics import Diagnostic
from memql.services.keywords import jaccard
from memql.services.tokenize import query_terms

if TYPE_CHECKING:
    from memql.engine.executor import Executor

DRY_RUN = {"dry_run": True}  # a look that decides is not a use: no visit, no log entry
MAX_QUERY = 10_000  # characters of a memory's text that its similarity search uses (the query limit)


@dataclass(frozen=True)
class PromotionConfig:
    """When an episodic memory becomes semantic. Every threshold is configurable."""

    min_confidence: float = 0.9  # confidence strictly above this
    min_uses: int = 10  # uses (a2p useCount: imported uses + reads here) strictly above this
    min_similar: int = 2  # at least this many OTHER active episodic memories similar to it
    cosine_threshold: float = 0.75  # similar by embedding: cosine at least this
    lexical_threshold: float = 0.5  # similar without embeddings: Jaccard of content terms at least this
    neighbours: int = 50  # memories a candidate's similarity search looks at
    scan_limit: int = 10_000  # episodic memories one run looks at (newest first)
    consolidate: bool = False  # also merge the similar episodes into the promoted memory

    def __post_init__(self) -> None:
        for name in ("min_confidence", "cosine_threshold", "lexical_threshold"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be within [0, 1], not {getattr(self, name)!r}")
        if self.min_uses < 0 or self.min_similar < 1:
            raise ValueError("min_uses must be at least 0 and min_similar at least 1")
        if not 1 <= self.neighbours <= 10_000 or not 1 <= self.scan_limit <= 100_000:
            raise ValueError("neighbours must be within 1..10000 and scan_limit within 1..100000")


@dataclass
class Promotion:
    """One episodic memory the run promotes, with the evidence: its confidence, uses and repeats."""

    id: str
    confidence: float
    uses: int
    similar: list[dict[str, Any]]  # {"id", "similarity", "method": embedding | lexical, "locked", "a2p_id"}
    consolidated: list[str] = field(default_factory=list)  # ids merged into it (consolidate=True)

    def note(self, config: PromotionConfig) -> str:
        repeats = ", ".join(s["id"] for s in self.similar)
        return (
            f"{RECLASSIFY_NOTE}: promote episodic -> semantic (confidence {self.confidence} > "
            f"{config.min_confidence}, {self.uses} uses > {config.min_uses}, "
            f"{len(self.similar)} similar episodes: {repeats})"
        )


@dataclass
class PromotionReport:
    success: bool
    dry_run: bool
    promoted: list[Promotion] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)  # candidates left alone: {"id", "reason"}
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    result: ExecutionResult | None = None  # the promotion workflow's result (None: nothing to do)

    def to_json(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "dry_run": self.dry_run,
            "promoted": [
                {
                    **asdict(p),
                    "similar": [{k: s[k] for k in ("id", "similarity", "method")} for s in p.similar],
                }
                for p in self.promoted
            ],
            "skipped": self.skipped,
            "diagnostics": [d.model_dump() for d in self.diagnostics],
            "warnings": [d.model_dump() for d in self.warnings],
            "preview": [c.model_dump() for c in self.result.preview or []]
            if self.result is not None and self.dry_run
            else None,
        }


def promote_episodes(
    executor: Executor, config: PromotionConfig | None = None, *, dry_run: bool = False
) -> PromotionReport:
    """Promote every episodic memory that qualifies; returns what was (or, dry, would be) done."""
    config = config or PromotionConfig()
    scan = executor.execute(
        build.retrieve(
            filter={"memory_type": "episodic", "limit": config.scan_limit},
            include=["id", "text", "confidence", "visits", "payload_meta", "created_at", "lock"],
            meta=DRY_RUN,
        )
    )
    if not scan.success:
        return PromotionReport(False, dry_run, diagnostics=scan.diagnostics)
    warnings = []
    if scan.data["count"] >= config.scan_limit:
        warnings.append(
            Diagnostic(
                path="",
                rule="promote.scan_limit",
                severity="warning",
                message=f"looked at the newest {config.scan_limit} episodic memories only "
                "(raise scan_limit to look at more)",
            )
        )
    promoted, skipped = plan(executor, scan.data["rows"], config)
    steps = _steps(promoted, config)
    if not steps:
        return PromotionReport(True, dry_run, promoted, skipped, warnings=warnings)
    result = executor.execute(
        build.workflow(steps, name="promote episodes"),
        dry_run=dry_run,
        limits=Limits(max_steps=max(Limits().max_steps, len(steps))),
    )
    return PromotionReport(
        result.success,
        dry_run,
        promoted,
        skipped,
        diagnostics=result.diagnostics,
        warnings=warnings + result.warnings,
        result=result,
    )


def plan(
    executor: Executor, rows: list[dict[str, Any]], config: PromotionConfig
) -> tuple[list[Promotion], list[dict[str, str]]]:
    """Which of the scanned episodic memories to promote, best candidate first, and why others not."""
    candidates = [
        r
        for r in rows
        if r["confidence"] is not None
        and r["confidence"] > config.min_confidence
        and use_count(r) > config.min_uses
    ]
    candidates.sort(key=lambda r: (-r["confidence"], -use_count(r), r["created_at"], _number(r["id"])))
    promoted: list[Promotion] = []
    skipped: list[dict[str, str]] = []
    chosen: dict[str, str] = {}  # a repeat of a memory promoted in this run -> that memory
    for row in candidates:
        rid = row["id"]
        reason = None
        if rid in chosen:
            reason = f"repeats memory {chosen[rid]}, promoted in this run"
        elif row["lock"] is not None:
            reason = "locked"
        elif not (row["text"] or "").strip():
            reason = "no text to compare"
        if reason is not None:
            skipped.append({"id": rid, "reason": reason})
            continue
        similar, known = _similar(executor, row, config, {p.id for p in promoted})
        if known is not None:
            reason = f"already known as semantic memory {known}"
        elif len(similar) < config.min_similar:
            reason = f"{len(similar)} similar episodic memories; needs {config.min_similar}"
        if reason is not None:
            skipped.append({"id": rid, "reason": reason})
            continue
        promoted.append(Promotion(rid, row["confidence"], use_count(row), similar))
        for s in similar:
            chosen.setdefault(s["id"], rid)
    return promoted, skipped


def _similar(
    executor: Executor, row: dict[str, Any], config: PromotionConfig, promoted: set[str]
) -> tuple[list[dict[str, Any]], str | None]:
    """The other active episodic memories similar to `row`, most similar first; and a semantic memory
    (or one promoted in this run) that similar, if there is one."""
    text = row["text"][:MAX_QUERY]
    dense = executor.embedder is not None
    found = executor.execute(
        build.retrieve(
            text,
            k=config.neighbours,
            include=["id", "text", "memory_type", "explain", "lock", "payload_meta"],
            overrides={"alpha": 1.0 if dense else 0.0, "recency": 0.0, "heat": 0.0},
            meta=DRY_RUN,
        )
    )
    terms = set(query_terms(text))
    similar: list[dict[str, Any]] = []
    for other in found.data.get("rows", []) if found.success else []:
        if other["id"] == row["id"]:
            continue
        cosine = (other["explain"] or {}).get("cosine")
        if cosine is not None:
            method, value, threshold = "embedding", float(cosine), config.cosine_threshold
        else:
            method, value, threshold = (
                "lexical",
                jaccard(terms, query_terms(other["text"] or "")),
                config.lexical_threshold,
            )
        if value < threshold:
            continue
        if other["memory_type"] == "semantic" or other["id"] in promoted:
            return [], other["id"]
        if other["memory_type"] == "episodic":
            similar.append(
                {
                    "id": other["id"],
                    "similarity": round(value, 4),
                    "method": method,
                    "locked": other["lock"] is not None,
                    "a2p_id": a2p_id(other, executor.tenant),
                }
            )
    similar.sort(key=lambda s: (-s["similarity"], _number(s["id"])))
    return similar, None


def _steps(promoted: list[Promotion], config: PromotionConfig) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    merged: set[str] = set()
    for p in promoted:
        if config.consolidate:
            fold = [s for s in p.similar if not s["locked"] and s["id"] not in merged]
            if fold:
                p.consolidated = [s["id"] for s in fold]
                merged.update(p.consolidated)
                steps.append(
                    build.merge(
                        [p.id, *p.consolidated],
                        primary_id=p.id,
                        consolidated_from=[s["a2p_id"] for s in fold],
                        comment=f"{CONSOLIDATE_NOTE}: the episodes that repeat memory {p.id}",
                    )
                )
        steps.append(build.update([p.id], memory_type="semantic", comment=p.note(config)))
    return steps


def _number(record_id: str) -> int:
    return int(record_id) if record_id.isdigit() else 0
