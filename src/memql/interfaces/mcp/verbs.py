"""One tool per verb. Each builds its IR through the Python API (a `Memory` method) and returns the
ExecutionResult; the engine validates, governs, audits and refuses exactly as for `memql exec`."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field

from memql.engine.result import ExecutionResult
from memql.interfaces.mcp.params import (
    Duration,
    FacetsParam,
    FilterParam,
    Ids,
    IncludeField,
    MemoryType,
    OnExpire,
    OpName,
    OrderBy,
    ReadPerm,
    Sensitivity,
    SplitStrategy,
    Tags,
    Text,
    Time,
    Weight,
    WeightDelta,
    WritePerm,
)
from memql.interfaces.mcp.sdk import CallToolResult
from memql.interfaces.mcp.session import Session

# the output schema every verb tool publishes: the API's ExecutionResult
Result = Annotated[CallToolResult, ExecutionResult]

REFUSALS = (
    "Refused (isError, nothing changed): the result's diagnostics give the field (a JSON pointer into "
    "the IR), a stable rule id and a message, e.g. governance.locked, consent.write, permission.write."
)
MISSING_IDS = (
    "An id that does not exist, or that this session may not read, is skipped with the warning "
    "target.not_found."
)


def _given(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def verb_tools(session: Session) -> list[Callable[..., CallToolResult]]:
    """The verb tools, bound to `session`'s Memory."""

    def memory_encode(
        text: Annotated[
            Text | None, Field(description="the memory's text (give exactly one of text, url, structured)")
        ] = None,
        url: Annotated[
            str | None, Field(max_length=8192, description="an absolute http(s) URL to remember")
        ] = None,
        structured: Annotated[
            dict[str, Any] | None,
            Field(
                description="a JSON object; {subject, attribute, value, valid_from?, source?} is a "
                "typed fact that supersedes the current value of (subject, attribute)"
            ),
        ] = None,
        type: Annotated[
            str | None, Field(max_length=512, description="kind: note, task, event, reference, ...")
        ] = None,
        tags: Annotated[Tags | None, Field(description="tags, e.g. ['travel']")] = None,
        facets: FacetsParam | None = None,
        time: Annotated[Time | None, Field(description="when the remembered thing happened")] = None,
        weight: Annotated[Weight | None, Field(description="priority in [0, 1]")] = None,
        memory_type: MemoryType | None = None,
        category: Annotated[str | None, Field(description="a2p category, e.g. a2p:preferences")] = None,
        sensitivity: Sensitivity | None = None,
        confidence: Annotated[float | None, Field(ge=0, le=1)] = None,
        source: Annotated[
            str | None, Field(max_length=2048, description="provenance: a URL, a session, a person")
        ] = None,
        proposal: Annotated[
            bool | None, Field(description="store as a pending proposal a user must approve")
        ] = None,
        dedupe: Annotated[
            bool | None, Field(description="false: store even if identical content exists")
        ] = None,
        interpret: Annotated[
            bool | None,
            Field(
                description="read the text and fill what you left out: entities, resolved times, tasks "
                "and decisions (facets), time, memory_type, category, sensitivity, each with its evidence"
            ),
        ] = None,
        read_perm_level: ReadPerm | None = None,
        write_perm_level: WritePerm | None = None,
    ) -> Result:
        """Remember something: store one new memory (text, URL or structured JSON) with tags, facets and
        a priority. Use it for anything worth recalling later: facts, preferences, tasks, events. The same
        memory again (content, tags, facets, type, permissions) returns the existing record
        (data.deduplicated). Returns the ExecutionResult: data.id is the new record's id. An agent
        without read_write consent stores a pending proposal instead.
        """
        return session.run(
            lambda m: m.encode(
                text,
                url=url,
                structured=structured,
                type=type,
                tags=tags,
                facets=facets,
                time=time,
                weight=weight,
                **_given(
                    memory_type=memory_type,
                    category=category,
                    sensitivity=sensitivity,
                    confidence=confidence,
                    source=source,
                    proposal=proposal,
                    dedupe=dedupe,
                    interpret=interpret,
                    read_perm_level=read_perm_level,
                    write_perm_level=write_perm_level,
                ),
            )
        )

    def memory_retrieve(
        query: Annotated[
            str | None,
            Field(min_length=1, max_length=10_000, description="what to search for, in plain words"),
        ] = None,
        ids: Annotated[Ids | None, Field(description="read these records instead of searching")] = None,
        filter: FilterParam | None = None,
        k: Annotated[
            int | None,
            Field(
                ge=1,
                le=10_000,
                description="how many search results (default 10); a filter alone: filter.limit",
            ),
        ] = None,
        include: Annotated[
            list[IncludeField] | None, Field(min_length=1, description="fields to return (default: all)")
        ] = None,
        as_of: Annotated[Time | None, Field(description="read the memory as it was at this instant")] = None,
        order_by: Annotated[
            OrderBy | None, Field(description="with a query: sort the k best by this (default relevance)")
        ] = None,
        facts: Annotated[
            Literal["current", "history"] | None,
            Field(
                description="also return the typed facts the query names: their value now (or at as_of), "
                "or with history their earlier values too; rows say whether their facts were superseded"
            ),
        ] = None,
    ) -> Result:
        """Recall memories: hybrid search (keywords + meaning) by `query`, narrowed by `filter`, or read
        records by `ids`; a filter alone reads its records in time order. Use it before answering anything
        the user may have told you before. Returns the ExecutionResult: data.rows (ranked; each with its
        fields and an explained score) and data.count. Deleted, archived and expired records are left out
        unless filter.status says otherwise. With `facts`: data.facts (subject, attribute, value,
        valid_from, valid_to, current, source, evidence, derived_from), and on each row superseded_by (the
        facts that replaced what it states; [] when it still holds) and superseded_at.
        """
        return session.run(
            lambda m: m.retrieve(
                query,
                ids=ids,
                filter=filter,
                k=k,
                include=include,
                as_of=as_of,
                order_by=order_by,
                facts=facts,
            )
        )

    def memory_summarize(
        query: Annotated[
            str | None,
            Field(min_length=1, max_length=10_000, description="summarize the memories this search finds"),
        ] = None,
        ids: Annotated[Ids | None, Field(description="summarize these records")] = None,
        filter: FilterParam | None = None,
        focus: Annotated[str | None, Field(max_length=2000, description="what the summary is for")] = None,
        max_tokens: Annotated[
            int | None, Field(ge=1, le=32_768, description="length budget (default 256)")
        ] = None,
    ) -> Result:
        """Summarize memories (found by `query`/`filter`, or given by `ids`) within `max_tokens`, steered
        by `focus`. The summary is stored as a new record linked to its sources. Returns the
        ExecutionResult: data.summary and data.id (the summary record).
        """
        return session.run(
            lambda m: m.summarize(query, ids=ids, filter=filter, focus=focus, max_tokens=max_tokens)
        )

    def memory_update(
        ids: Ids,
        text: Annotated[Text | None, Field(description="new text (re-indexed and re-embedded)")] = None,
        type: Annotated[str | None, Field(max_length=512)] = None,
        tags: Annotated[
            Tags | None, Field(description="replaces the record's tags (memory_label adds or removes)")
        ] = None,
        facets: FacetsParam | None = None,
        time: Time | None = None,
        weight: Weight | None = None,
        memory_type: MemoryType | None = None,
        category: Annotated[str | None, Field(description="a2p category")] = None,
        sensitivity: Sensitivity | None = None,
        confidence: Annotated[float | None, Field(ge=0, le=1)] = None,
        ttl: Annotated[Duration | None, Field(description="expire this long from now")] = None,
        status: Annotated[
            Literal["active", "rejected"] | None,
            Field(description="decide a pending proposal: active approves it, rejected rejects it"),
        ] = None,
        owner: Annotated[
            str | None, Field(min_length=1, max_length=256, description="hand the record over")
        ] = None,
        read_perm_level: ReadPerm | None = None,
        write_perm_level: WritePerm | None = None,
    ) -> Result:
        """Change fields of existing memories in place (give at least one field): correct a text, re-tag,
        reclassify, approve or reject a proposal. The id stays; old values stay in the audit history.
        Returns the ExecutionResult with affected_ids.
        """
        fields = _given(
            text=text,
            type=type,
            tags=tags,
            facets=facets,
            time=time,
            weight=weight,
            memory_type=memory_type,
            category=category,
            sensitivity=sensitivity,
            confidence=confidence,
            ttl=ttl,
            status=status,
            owner=owner,
            read_perm_level=read_perm_level,
            write_perm_level=write_perm_level,
        )
        return session.run(lambda m: m.update(ids, **fields))

    def memory_label(
        ids: Ids,
        tags: Tags | None = None,
        facets: FacetsParam | None = None,
        mode: Annotated[
            Literal["add", "replace", "remove"],
            Field(description="add: union; replace: overwrite; remove: take these tags / facet keys away"),
        ] = "add",
        infer: Annotated[
            bool,
            Field(
                description="also add lower-case tags read from each memory's text: the people, places, "
                "organisations and products it names, its facts' attributes, its category"
            ),
        ] = False,
    ) -> Result:
        """Add, replace or remove tags and facets on memories (give tags or facets, or infer). Use it to
        organise memories so filters (has_tags, facets) find them. Returns the ExecutionResult.
        """
        return session.run(lambda m: m.label(ids, tags, facets=facets, mode=mode, infer=infer))

    def memory_promote(
        ids: Ids,
        weight: Annotated[Weight | None, Field(description="set the priority (0..1)")] = None,
        delta: Annotated[
            WeightDelta | None, Field(description="raise the priority by this much (clamped)")
        ] = None,
        remind: Annotated[
            str | None,
            Field(max_length=1000, description="an RFC 5545 RRULE for a reminder, e.g. FREQ=WEEKLY;BYDAY=MO"),
        ] = None,
        until: Annotated[Time | None, Field(description="the reminder's last occurrence")] = None,
    ) -> Result:
        """Make memories more important (weight or delta — one of them) and/or schedule a reminder. Higher
        weight ranks them higher in retrieval; an archived record becomes active again. Returns the
        ExecutionResult (data.next_remind_at when a reminder was set).
        """
        return session.run(lambda m: m.promote(ids, weight=weight, delta=delta, remind=remind, until=until))

    def memory_demote(
        ids: Ids,
        weight: Annotated[Weight | None, Field(description="set the priority (0..1)")] = None,
        delta: Annotated[
            WeightDelta | None, Field(description="lower the priority by this much, e.g. -0.2")
        ] = None,
        archive: Annotated[bool, Field(description="archive: kept, but out of default retrieval")] = False,
    ) -> Result:
        """Make memories less important (weight or delta), or archive them (give exactly one). Archived
        memories are kept but no longer retrieved by default. Returns the ExecutionResult.
        """
        return session.run(lambda m: m.demote(ids, weight=weight, delta=delta, archive=archive))

    def memory_merge(
        ids: Annotated[Ids, Field(min_length=2, description="the records to fold into one (at least two)")],
        primary: Annotated[
            str | None,
            Field(min_length=1, description="the surviving record (default: highest weight, then oldest)"),
        ] = None,
        keep_children: Annotated[
            bool, Field(description="keep the merged records active (default: soft-delete them)")
        ] = False,
    ) -> Result:
        """Merge duplicate or overlapping memories into one: texts merged, tags and facets unioned, the
        highest weight kept; the others are soft-deleted and linked merged_into it. Returns the
        ExecutionResult: data.id is the surviving record. Any locked record refuses the merge.
        """
        return session.run(lambda m: m.merge(ids, primary=primary, keep_children=keep_children))

    def memory_delete(
        ids: Ids,
        hard: Annotated[
            bool, Field(description="remove for good (needs confirm); default: soft, restorable for 30 days")
        ] = False,
        confirm: Annotated[bool, Field(description="confirm a hard delete (ask the user first)")] = False,
        reason: Annotated[
            str | None, Field(max_length=2000, description="why (kept in the audit log)")
        ] = None,
    ) -> Result:
        """Forget memories. Soft by default (status deleted, restorable for 30 days); hard removes them and
        their links, and only runs with confirm=true. Locked records are refused. Returns the
        ExecutionResult with affected_ids.
        """
        return session.run(lambda m: m.delete(ids, hard=hard, confirm=confirm, reason=reason))

    def memory_split(
        ids: Ids,
        strategy: SplitStrategy = "by_sentences",
        max_sentences: Annotated[
            int | None, Field(ge=1, le=10_000, description="by_sentences: sentences per part")
        ] = None,
        chunk_size: Annotated[
            int | None, Field(ge=50, le=1_000_000, description="by_chunks: most characters per part")
        ] = None,
        num_chunks: Annotated[
            int | None, Field(ge=1, le=10_000, description="by_chunks: exactly this many parts")
        ] = None,
        delimiters: Annotated[
            list[str] | None, Field(min_length=1, max_length=100, description="custom: cut at these strings")
        ] = None,
        topics: Annotated[
            list[str] | None, Field(min_length=1, max_length=100, description="custom: one part per topic")
        ] = None,
        instruction: Annotated[
            str | None, Field(min_length=1, max_length=10_000, description="custom: how to split (LLM)")
        ] = None,
    ) -> Result:
        """Split a long memory into parts (by sentences, by chunks, or custom: delimiters, topics or an
        LLM instruction). Each part becomes a record linked split_from the original, which is archived.
        Parameters belong to their strategy. Returns the ExecutionResult: data lists the new records.
        """
        params = _given(
            max_sentences=max_sentences,
            chunk_size=chunk_size,
            num_chunks=num_chunks,
            delimiters=delimiters,
            topics=topics,
            instruction=instruction,
        )
        return session.run(lambda m: m.split(ids, strategy=strategy, **params))

    def memory_lock(
        ids: Ids,
        mode: Annotated[
            Literal["read_only", "append_only"],
            Field(
                description="read_only: no writes; append_only: only additions (Label add, text extension)"
            ),
        ] = "read_only",
        reason: Annotated[str | None, Field(max_length=2000)] = None,
        allow: Annotated[
            list[OpName] | None, Field(description="ops still allowed on the locked records")
        ] = None,
        deny: Annotated[list[OpName] | None, Field(description="ops always refused")] = None,
        reviewers: Annotated[
            list[str] | None, Field(description="actors who may change or lift the lock")
        ] = None,
        expires: Annotated[Time | None, Field(description="the lock lifts itself then")] = None,
    ) -> Result:
        """Protect memories from change (legal hold, confirmed facts). Only a record's owner or an admin
        may lock it; only the locker, a listed reviewer or an admin may change or lift the lock. Reads
        are never refused. Returns the ExecutionResult.
        """
        policy = _given(allow=allow, deny=deny, reviewers=reviewers, expires=expires) or None
        return session.run(lambda m: m.lock(ids, mode=mode, reason=reason, policy=policy))

    def memory_unlock(ids: Ids) -> Result:
        """Lift the lock on memories. Only the locker, a listed reviewer or an admin may; anyone else is
        refused with governance.lock_owner. Returns the ExecutionResult.
        """
        return session.run(lambda m: m.unlock(ids))

    def memory_expire(
        ids: Ids,
        on_expire: Annotated[
            OnExpire,
            Field(
                description="what happens once expired: soft_delete, hard_delete, demote, archive, "
                "anonymize or none"
            ),
        ],
        ttl: Annotated[
            Duration | None, Field(description="expire this long from now (give ttl or until)")
        ] = None,
        until: Annotated[Time | None, Field(description="expire at this time (give ttl or until)")] = None,
    ) -> Result:
        """Give memories an expiry: after it they are no longer retrieved, and the sweeper applies
        on_expire. Use it for temporary facts (a draft, a one-off code). Returns the ExecutionResult.
        """
        return session.run(lambda m: m.expire(ids, ttl=ttl, until=until, on_expire=on_expire))

    tools = [
        memory_encode,
        memory_retrieve,
        memory_summarize,
        memory_update,
        memory_label,
        memory_promote,
        memory_demote,
        memory_merge,
        memory_delete,
        memory_split,
        memory_lock,
        memory_unlock,
        memory_expire,
    ]
    for tool in tools:  # every verb tool ends with the same account of refusals
        ending = [REFUSALS, MISSING_IDS] if "ids" in inspect.signature(tool).parameters else [REFUSALS]
        tool.__doc__ = " ".join([*(tool.__doc__ or "").split(), *ending])
    return tools
