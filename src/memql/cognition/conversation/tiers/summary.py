"""A segment's offline summary, kept incrementally: the previous summary's sentences and the new page's
compete in one extractive summary (memql.services.summarize), so a segment of any size costs the same to
update, and every kept sentence remembers the turns it came from (the segment's citation)."""

from __future__ import annotations

from memql.services import split_sentences, summarize


def update_parts(
    parts: list[tuple[str, tuple[str, ...]]], page_text: str, page_sources: tuple[str, ...], max_tokens: int
) -> list[tuple[str, tuple[str, ...]]]:
    candidates: list[tuple[str, tuple[str, ...]]] = list(parts)
    for line in page_text.split("\n"):
        candidates.extend((s.strip(), page_sources) for s in split_sentences(line) if s.strip())
    if not candidates:
        return parts
    sources: dict[str, tuple[str, ...]] = {}
    for sentence, ids in candidates:
        sources.setdefault(sentence, ids)
    chosen = summarize([s for s, _ in candidates], max_tokens)
    kept = [s.strip() for s in split_sentences(chosen) if s.strip()]
    result = [(s, sources[s]) for s in kept if s in sources]
    if not result:  # the summary cut its only sentence short: keep that (truncated) text as one part
        result = [(chosen.replace("\n", " "), candidates[0][1])] if chosen else parts
    return result
