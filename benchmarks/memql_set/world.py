"""The generator's own model of a store: records before and after a program, and the assertions that
pin the post-state.

The model applies the verbs as DESIGN §5 and docs/engine.md specify them — written here independently of
the engine, from the specification — so that the expected post-state is a statement about what memql must
do, which running the gold program then verifies. Where the specification leaves a value open (the exact
wording of a merged text, the weight of an archived record) the model records only what is specified:
the sentences a merged text must keep, the status an archived record must have.

Every record ends as one assertion over the `memory` view: `id = :id AND <each known field>` must match
exactly one row. A record the program must not touch is checked in full (text, tags, type, weight,
status, time, lock, expiry), which is what "other records untouched" means; a hard-deleted record must
match no row; `record_count` catches strays.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta

WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_DURATION = re.compile(r"^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$")
_SENTENCE = re.compile(r"[^.。!?！？]+[.。!?！？]")


class GenerationError(Exception):
    """A template produced a scenario its own model contradicts (a bug in the template)."""


@dataclass(frozen=True)
class Contains:
    """A text (or a tag list) known only in part: these must be in it, those must not."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()


@dataclass
class Rec:
    id: str
    text: str | Contains | None
    tags: list[str] | Contains = field(default_factory=list)
    kind: str | None = None
    weight: float | None = 0.5  # None: not specified (not asserted)
    status: str = "active"  # active | archived | deleted
    split_parent: bool = False  # the view shows split parents as deleted
    time: str | None = None  # ISO instant; None: not asserted
    facets: dict[str, Any] = field(default_factory=dict)  # asserted keys only
    lock_mode: str | None = None
    expire_at: str | None = None
    on_expire: str | None = None
    next_remind_at: str | None = None  # asserted with `remind IS NOT NULL`
    gone: bool = False  # hard-deleted
    touched: list[str] = field(default_factory=list)  # what the program did to it, for assertion names
    loose: frozenset[str] = frozenset()  # fields not asserted (left open by the instruction)

    def copy(self) -> Rec:
        return replace(
            self,
            tags=list(self.tags) if isinstance(self.tags, list) else self.tags,
            facets=dict(self.facets),
            touched=list(self.touched),
        )


def iso(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def add_duration(instant: datetime, duration: str) -> datetime:
    """ISO-8601 duration arithmetic with calendar months and years (DESIGN §6)."""
    m = _DURATION.match(duration)
    if not m or not any(m.groups()):
        raise GenerationError(f"unsupported duration {duration!r}")
    years, months, weeks, days, hours, minutes = (int(g or 0) for g in m.groups())
    return instant + relativedelta(
        years=years, months=months, weeks=weeks, days=days, hours=hours, minutes=minutes
    )


def next_reminder(rule: str, now: datetime) -> datetime:
    """The first occurrence strictly after `now` of the RRULE shapes the set uses (DAILY, WEEKLY with
    BYDAY, MONTHLY with BYMONTHDAY, optionally BYHOUR/BYMINUTE). The series starts at `now`, so a rule
    without a time of day recurs at now's time."""
    parts = dict(p.split("=", 1) for p in rule.split(";"))
    hour, minute = int(parts.get("BYHOUR", now.hour)), int(parts.get("BYMINUTE", now.minute))
    freq = parts["FREQ"]
    for offset in range(0, 800):
        at = (now + timedelta(days=offset)).replace(hour=hour, minute=minute)
        if at <= now:
            continue
        if (
            freq == "DAILY"
            or (freq == "WEEKLY" and WEEKDAYS[at.weekday()] == parts.get("BYDAY", WEEKDAYS[now.weekday()]))
            or (freq == "MONTHLY" and at.day == int(parts.get("BYMONTHDAY", now.day)))
        ):
            return at
    raise GenerationError(f"no occurrence of {rule}")


def sentences(text: str) -> list[str]:
    """The sentences of a bank text (they all end with . or 。, see content.py)."""
    return [s.strip() for s in _SENTENCE.findall(text)]


class World:
    """Records keyed by id, in creation order, at the instant `now`."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.records: dict[str, Rec] = {}
        self.step_ids: list[list[str]] = []

    def snapshot(self) -> dict[str, Rec]:
        return {k: r.copy() for k, r in self.records.items()}

    def next_id(self) -> str:
        return str(len(self.records) + 1)

    def add(self, rec: Rec) -> Rec:
        if rec.id != self.next_id():
            raise GenerationError(f"record {rec.id} created out of order")
        self.records[rec.id] = rec
        return rec

    def get(self, record_id: str) -> Rec:
        rec = self.records.get(record_id)
        if rec is None or rec.gone:
            raise GenerationError(f"no record {record_id}")
        return rec

    # --- targets -------------------------------------------------------------------------------------

    def select(self, flt: dict[str, Any] | None, *, write: bool) -> list[str]:
        """The ids a filter selects (reads: active records, newest first; writes: active or archived)."""
        flt = flt or {}
        status = flt.get("status")
        statuses = {"any": None, None: ("active", "archived") if write else ("active",)}.get(
            status, (status,)
        )
        found = []
        for rec in self.records.values():
            if rec.gone or (statuses is not None and rec.status not in statuses):
                continue
            if rec.expire_at is not None and parse_iso(rec.expire_at) <= self.now and status != "any":
                continue
            if not self._matches(rec, flt):
                continue
            found.append(rec)
        found.sort(key=lambda r: (r.time or iso(self.now), int(r.id)), reverse=True)
        ids = [r.id for r in found]
        return ids[: flt["limit"]] if "limit" in flt and not write else ids

    def _matches(self, rec: Rec, flt: dict[str, Any]) -> bool:
        tags = {t.casefold() for t in rec.tags} if isinstance(rec.tags, list) else set()
        if any(t.casefold() not in tags for t in flt.get("has_tags", ())):
            return False
        if any(t.casefold() in tags for t in flt.get("not_tags", ())):
            return False
        if "type" in flt and rec.kind != flt["type"]:
            return False
        if "weight_gte" in flt and (rec.weight is None or rec.weight < flt["weight_gte"]):
            return False
        if "weight_lte" in flt and (rec.weight is None or rec.weight > flt["weight_lte"]):
            return False
        if "time_range" in flt:
            start, end = self.window(flt["time_range"])
            when = parse_iso(rec.time) if rec.time else self.now
            if not start <= when <= end:
                return False
        return True

    def window(self, tr: dict[str, Any]) -> tuple[datetime, datetime]:
        """A time range as [start, end]: "last N units" ends now, "next N units" starts now."""
        if "relative" in tr:
            span = relativedelta(**{tr["unit"]: tr["amount"]})
            return (self.now - span, self.now) if tr["relative"] == "last" else (self.now, self.now + span)
        return parse_iso(tr["start"]), parse_iso(tr["end"])

    def resolve(self, target: dict[str, Any], *, write: bool, hits: list[str] | None) -> list[str]:
        if "ids" in target:
            return [str(int(i)) for i in target["ids"]]
        if "from_step" in target:
            return list(self.step_ids[target["from_step"]])
        if "search" in target:
            if hits is None:
                raise GenerationError("a search target needs the template's expected hits")
            return list(hits)
        found = self.select(target.get("filter"), write=write)
        if hits is not None and sorted(hits, key=int) != sorted(found, key=int):
            raise GenerationError(f"the filter selects {found}, the template expects {hits}")
        return found


def _sorted_json(tags: list[str]) -> str:
    return json.dumps(sorted(tags), ensure_ascii=False, separators=(",", ":"))


_TAG_SET = "(SELECT json_group_array(value) FROM (SELECT value FROM json_each(tags) ORDER BY value)) = :tags"
_HAS_TAG = "EXISTS (SELECT 1 FROM json_each(tags) WHERE value = :{name})"


def record_assertion(rec: Rec, name: str) -> dict[str, Any]:
    """One assertion: exactly one row of the `memory` view has this record's id and every known field."""
    if rec.gone:
        return _count(name, ["id = :id"], {"id": rec.id}, 0)
    where, params = ["id = :id"], {"id": rec.id}
    loose = rec.loose

    def add(clause: str, **values: Any) -> None:
        where.append(clause)
        params.update(values)

    add("status = :status", status=rec.status)
    add("deleted = :deleted", deleted=1 if rec.status == "deleted" or rec.split_parent else 0)
    if isinstance(rec.text, str) and "text" not in loose:
        add("text = :text", text=rec.text)
    elif isinstance(rec.text, Contains):
        for i, phrase in enumerate(rec.text.include):
            add(f"instr(text, :has_{i}) > 0", **{f"has_{i}": phrase})
        for i, phrase in enumerate(rec.text.exclude):
            add(f"instr(text, :not_{i}) = 0", **{f"not_{i}": phrase})
    if isinstance(rec.tags, list) and "tags" not in loose:
        add(_TAG_SET, tags=_sorted_json(rec.tags))
    elif isinstance(rec.tags, Contains):
        for i, tag in enumerate(rec.tags.include):
            add(_HAS_TAG.format(name=f"tag_{i}"), **{f"tag_{i}": tag})
        for i, tag in enumerate(rec.tags.exclude):
            add("NOT " + _HAS_TAG.format(name=f"no_tag_{i}"), **{f"no_tag_{i}": tag})
    if "kind" not in loose:
        add("type IS :type", type=rec.kind)
    if rec.weight is not None and "weight" not in loose:
        add("abs(weight - :weight) < 0.0005", weight=round(rec.weight, 6))
    if rec.time is not None and "time" not in loose:
        add("time = :time", time=rec.time)
    for i, (key, value) in enumerate(sorted(rec.facets.items())):
        add(
            f"json_extract(facets, :facet_path_{i}) = :facet_{i}",
            **{f"facet_path_{i}": f'$."{key}"', f"facet_{i}": value},
        )
    if "lock" not in loose:
        add("lock_mode IS :lock_mode", lock_mode=rec.lock_mode)
    if "expire" not in loose:
        add("expire_at IS :expire_at", expire_at=rec.expire_at)
        add("on_expire IS :on_expire", on_expire=rec.on_expire)
    if rec.next_remind_at is not None:
        add("remind IS NOT NULL AND next_remind_at = :next_remind_at", next_remind_at=rec.next_remind_at)
    elif "remind" not in loose:
        add("remind IS NULL")
    return _count(name, where, params, 1)


def _count(name: str, where: list[str], params: dict[str, Any], value: int) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": name, "select": {"from": "memory", "where": where}}
    spec["expect"] = {"op": "==", "value": value}
    if params:
        spec["params"] = params
    return spec


def state_assertions(before: dict[str, Rec], after: dict[str, Rec]) -> list[dict[str, Any]]:
    """The post-state as assertions: one per record (named by what happened to it) and the row count."""
    out = []
    for rec in after.values():
        if rec.id in before and not rec.touched:
            name = f"record_{rec.id}_untouched"
        else:
            name = f"record_{rec.id}_" + "_then_".join(dict.fromkeys(rec.touched or ["created"]))
        out.append(record_assertion(rec, name))
    out.append(_count("record_count", [], {}, sum(1 for r in after.values() if not r.gone)))
    return out
