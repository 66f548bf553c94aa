"""Pre-parse normalisation: rewrite the spellings memql accepts into the one it emits.

Runs on raw JSON (a deep copy) before the typed parse. Two kinds of rewrite:
- equivalent official spellings (ids as a string, Expire `expire_at`, `all: false`, Merge
  `primary_id: "auto"`, Demote `archive: false`): rewritten silently;
- legacy and variant spellings seen in the Text2Mem reference code and data (flat Split params,
  `by_topics`, `hydration`, `overrides.limit`, priority words, `facet_*` filters, padded keys...):
  rewritten with a `compat.*` warning, which strict mode turns into an error.
Times written as naive ISO strings are read as UTC (warning); natural-language times ("next Friday",
"下周五") are resolved against `now` (warning). A write through filter/search without a limit gets
the default cap (warning `write.default_limit`).
Nothing here raises: anything of an unexpected type is left for the typed parse to report.
"""

from __future__ import annotations

import difflib
from datetime import UTC, datetime
from typing import Any

from memql.lang.diagnostics import Diagnostics, join
from memql.lang.facts import is_fact
from memql.lang.ops import OPS, STAGE_OF, EncodeArgs, UpdateSet
from memql.lang.reference_spellings import expire_horizon, expire_reason, flat_time_range, lock_mode
from memql.lang.time import (
    TimeParseError,
    format_instant,
    parse_instant,
    parse_natural,
    priority_weight,
)

DEFAULT_WRITE_LIMIT = 100

# Instant-valued keys, by where a natural-language phrase should land in its span:
# deadline-like keys take the end of "next Friday", the others its start.
END_INSTANTS = frozenset({"until", "expire_at", "expire_before", "expires", "end", "as_of"})
START_INSTANTS = frozenset({"time", "start", "expire_after", "timestamp", "next_auto_update_at"})
_INSTANTS = END_INSTANTS | START_INSTANTS

_UNIT_ALIASES = {
    "minute": "minutes",
    "min": "minutes",
    "mins": "minutes",
    "hour": "hours",
    "hr": "hours",
    "hrs": "hours",
    "day": "days",
    "d": "days",
    "week": "weeks",
    "w": "weeks",
    "month": "months",
    "mon": "months",
    "year": "years",
    "yr": "years",
    "yrs": "years",
    "y": "years",
}
_RELATIVE_ALIASES = {"past": "last", "previous": "last", "prev": "last", "future": "next", "coming": "next"}
_LABEL_MODES = {
    "append": "add",
    "union": "add",
    "set": "replace",
    "overwrite": "replace",
    "delete": "remove",
    "del": "remove",
    "subtract": "remove",
}
_LOCK_MODES = {
    "readonly": "read_only",
    "read-only": "read_only",
    "ro": "read_only",
    "appendonly": "append_only",
    "append-only": "append_only",
    "none": "unlock",
    "unlocked": "unlock",
    "release": "unlock",
    "lift": "unlock",
    "off": "unlock",
    "disabled": "unlock",  # the Text2Mem reference's way to lift a lock
}
_ON_EXPIRE = {
    "delete": "soft_delete",
    "soft": "soft_delete",
    "soft-delete": "soft_delete",
    "hard": "hard_delete",
    "hard-delete": "hard_delete",
    "purge": "hard_delete",
    "keep": "none",
    "nothing": "none",
}
_ORDER_BY = {
    "priority_desc": "weight_desc",
    "newest": "time_desc",
    "oldest": "time_asc",
    "recent": "time_desc",
}
_SPLIT_STRATEGIES = {
    "sentences": "by_sentences",
    "by_sentence": "by_sentences",
    "chunks": "by_chunks",
    "by_chunk": "by_chunks",
}
_SPLIT_NAMED_PARTS = ("by_sections", "by_topics", "sections", "topics", "by_section", "by_topic")
_SPLIT_PARAM_HOME = {
    "lang": "by_sentences",
    "max_sentences": "by_sentences",
    "chunk_size": "by_chunks",
    "num_chunks": "by_chunks",
    "instruction": "custom",
    "max_splits": "custom",
    "delimiters": "custom",
    "topics": "custom",
    "sections": "custom",
}
# the fields an Encode's args and an Update's set have: any other key is a facet (normalised per step)
_ENCODE_FIELDS = frozenset(EncodeArgs.model_fields)
_UPDATE_FIELDS = frozenset(UpdateSet.model_fields) | {"embedding"}
_FACET_FILTERS = {"facet_subject": "subject", "facet_location": "location", "facet_topic": "topic"}


class _Pass:
    def __init__(self, diags: Diagnostics, now: datetime | None, write_limit: int) -> None:
        self.d = diags
        self.now = now
        self.write_limit = write_limit

    # --- helpers ---------------------------------------------------------------------------------

    def alias(self, path: str, message: str) -> None:
        self.d.warning(path, "compat.alias", message)

    def ignored(self, path: str, message: str) -> None:
        self.d.warning(path, "compat.ignored", message)

    def trim_keys(self, obj: dict, path: str) -> None:
        """Keys with stray whitespace (" facets") become the trimmed key, unless that would collide."""
        for key in [k for k in obj if isinstance(k, str) and k != k.strip()]:
            clean = key.strip()
            if clean and clean not in obj:
                obj[clean] = obj.pop(key)
                self.alias(join(path, key), f"key {key!r} read as {clean!r}")

    def rename(self, obj: dict, old: str, new: str, path: str, silent: bool = False) -> None:
        if old not in obj:
            return
        if new in obj:
            if obj[old] == obj[new]:
                obj.pop(old)
                if not silent:
                    self.ignored(join(path, old), f"{old!r} repeats {new!r}; dropped")
            return  # conflicting values: leave both for the typed parse to reject `old` as unknown
        obj[new] = obj.pop(old)
        if not silent:
            self.alias(join(path, old), f"{old!r} is spelled {new!r}")

    def instant(self, obj: dict, key: str, path: str) -> None:
        value = obj.get(key)
        if not isinstance(value, str):
            return
        try:
            instant, assumed_utc = parse_instant(value)
        except TimeParseError:
            self.natural_instant(obj, key, value, join(path, key))
            return
        if assumed_utc:
            here = join(path, key)
            obj[key] = format_instant(instant)
            self.d.warning(here, "time.assumed_utc", f"{value!r} has no UTC offset; read as UTC")

    def natural_instant(self, obj: dict, key: str, value: str, here: str) -> None:
        if self.now is None:
            try:
                parse_natural(value, datetime(2000, 1, 1, tzinfo=UTC))
            except TimeParseError:
                return  # not a time at all: the typed parse reports time.invalid
            self.d.error(
                here, "time.needs_now", f"{value!r} is relative; give an ISO-8601 instant or a reference time"
            )
            return
        try:
            span = parse_natural(value, self.now)
        except TimeParseError:
            return
        chosen = span.end if key in END_INSTANTS else span.start
        obj[key] = format_instant(chosen)
        self.d.warning(here, "time.natural_resolved", f"{value!r} resolved to {obj[key]}")

    def instants(self, obj: Any, path: str, keys: frozenset[str] = _INSTANTS) -> None:
        if isinstance(obj, dict):
            for key in [key for key in obj if key in keys]:
                self.instant(obj, key, path)

    def priority(self, obj: dict, path: str) -> None:
        """Legacy `priority: high` becomes a weight (low .2, normal .5, high .8, urgent 1)."""
        word = obj.get("priority")
        if not isinstance(word, str) or "weight" in obj:
            return
        weight = priority_weight(word)
        if weight is not None:
            obj.pop("priority")
            obj["weight"] = weight
            self.alias(join(path, "priority"), f"priority {word!r} is weight {weight}")

    def enum_alias(self, obj: dict, key: str, table: dict[str, str], path: str) -> None:
        value = obj.get(key)
        if isinstance(value, str):
            canon = table.get(value.strip().lower())
            if canon is not None:
                obj[key] = canon
                self.alias(join(path, key), f"{key} {value!r} is spelled {canon!r}")

    def box(self, obj: dict, key: str, inner: str, path: str) -> None:
        """A bare string where an object belongs: {key: "x"} becomes {key: {inner: "x"}}."""
        if isinstance(obj.get(key), str):
            obj[key] = {inner: obj[key]}
            self.alias(join(path, key), f"{key} is an object: {{{inner}: ...}}")

    def lift(self, obj: dict, loose: str, key: str, path: str) -> None:
        """A field given beside its object: {loose: "x"} becomes {key: {loose: "x"}} when key is absent."""
        if key not in obj and isinstance(obj.get(loose), str):
            obj[key] = {loose: obj.pop(loose)}
            self.alias(join(path, loose), f"{loose} belongs in {key}.{loose}")

    def to_facets(self, obj: dict, known: frozenset[str], path: str) -> None:
        """Unknown keys that are not near-misses of a known field are kept as free facets."""
        for key in [k for k in obj if isinstance(k, str) and k not in known]:
            if difflib.get_close_matches(key, known, n=1, cutoff=0.8):
                continue  # probably a typo of a real field: let the typed parse say "unknown, did you mean"
            facets = obj.setdefault("facets", {})
            if not isinstance(facets, dict) or key in facets:
                continue
            facets[key] = obj.pop(key)
            self.d.warning(
                join(path, key), "compat.moved_to_facets", f"unknown field {key!r} kept as facet {key!r}"
            )

    # --- the IR ----------------------------------------------------------------------------------

    def ir(self, ir: dict, path: str) -> None:
        self.trim_keys(ir, path)
        op = ir.get("op")
        if isinstance(op, str) and op not in STAGE_OF:
            match = {o.lower(): o for o in STAGE_OF}.get(op.strip().lower())
            if match:
                ir["op"] = match
                self.alias(join(path, "op"), f"op {op!r} is spelled {match!r}")
        op = ir.get("op")
        op = op if isinstance(op, str) and op in STAGE_OF else None  # (any JSON value may stand there)
        if "stage" not in ir and op is not None:
            ir["stage"] = STAGE_OF[op]
        elif isinstance(ir.get("stage"), str) and ir["stage"] != ir["stage"].strip().upper():
            ir["stage"] = ir["stage"].strip().upper()
            self.alias(join(path, "stage"), "stage names are upper case")
        meta = ir.get("meta")
        if isinstance(meta, dict):
            self.trim_keys(meta, join(path, "meta"))
            self.rename(meta, "confirm", "confirmation", join(path, "meta"))
            self.rename(meta, "confirmed", "confirmation", join(path, "meta"))
            self.instants(meta, join(path, "meta"), frozenset({"timestamp"}))
        target = ir.get("target")
        if isinstance(target, dict):
            self.target(target, join(path, "target"))
        args = ir.get("args")
        if isinstance(args, dict) and op is not None:
            self.trim_keys(args, join(path, "args"))
            special = getattr(self, "args_" + op.lower(), None)  # a verb's own spellings, if it has any
            if special is not None:
                special(args, join(path, "args"))
            if op == "Expire":
                expire_reason(ir, path, self.alias)
            self.nested_times(args, join(path, "args"))
        if op is not None and STAGE_OF[op] == "STO" and isinstance(target, dict):
            self.write_cap(target, join(path, "target"))

    def nested_times(self, args: dict, path: str) -> None:
        self.instants(args, path)
        for key in ("facets", "remind", "policy"):
            if isinstance(args.get(key), dict):  # the path is spelled out only where there is one
                self.instants(args[key], join(path, key))
        if isinstance(args.get("time_range"), dict):
            self.time_range(args["time_range"], join(path, "time_range"))

    def target(self, t: dict, path: str) -> None:
        self.trim_keys(t, path)
        ids = t.get("ids")
        if isinstance(ids, str):
            t["ids"] = [ids]
        elif isinstance(ids, int) and not isinstance(ids, bool):
            t["ids"] = [str(ids)]
            self.alias(join(path, "ids"), "ids are strings")
        elif isinstance(ids, list) and any(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            t["ids"] = [str(i) if isinstance(i, int) and not isinstance(i, bool) else i for i in ids]
            self.alias(join(path, "ids"), "ids are strings")
        if t.get("all") is False:
            t.pop("all")
        if isinstance(t.get("search"), dict):
            self.search(t["search"], join(path, "search"))
        if isinstance(t.get("filter"), dict):
            self.filter(t["filter"], join(path, "filter"))

    def search(self, s: dict, path: str) -> None:
        self.trim_keys(s, path)
        self.box(s, "intent", "query", path)
        self.lift(s, "query", "intent", path)
        over = s.get("overrides")
        if isinstance(over, dict):
            opath = join(path, "overrides")
            if "limit" in over:
                if "limit" not in s:
                    s["limit"] = over.pop("limit")
                    self.alias(join(opath, "limit"), "overrides.limit is search.limit")
                elif over["limit"] == s["limit"]:
                    over.pop("limit")
                    self.ignored(join(opath, "limit"), "overrides.limit repeats search.limit; dropped")
            if "hydration" in over:
                over.pop("hydration")
                self.ignored(join(opath, "hydration"), "hydration has no effect: include selects the fields")
            self.enum_alias(over, "order_by", _ORDER_BY, opath)

    def filter(self, f: dict, path: str) -> None:
        self.trim_keys(f, path)
        self.rename(f, "tags", "has_tags", path)
        for key in [k for k in f if isinstance(k, str) and k.startswith("facet_")]:
            canon = _FACET_FILTERS.get(key)
            if canon is not None:
                self.rename(f, key, canon, path)
            else:
                facets = f.setdefault("facets", {})
                if isinstance(facets, dict) and key[6:] and key[6:] not in facets:
                    facets[key[6:]] = f.pop(key)
                    self.alias(join(path, key), f"{key!r} is facets.{key[6:]}")
        self.instants(f, path, frozenset({"expire_before", "expire_after"}))
        if isinstance(f.get("fact"), dict):
            self.trim_keys(f["fact"], join(path, "fact"))
            self.instants(f["fact"], join(path, "fact"), frozenset({"valid_at"}))
        if isinstance(f.get("time_range"), dict):
            self.time_range(f["time_range"], join(path, "time_range"))

    def time_range(self, tr: dict, path: str) -> None:
        self.trim_keys(tr, path)
        flat_time_range(tr, path, self.alias)
        self.enum_alias(tr, "unit", _UNIT_ALIASES, path)
        self.enum_alias(tr, "relative", _RELATIVE_ALIASES, path)
        for key in ("unit", "relative"):
            if isinstance(tr.get(key), str) and tr[key] != tr[key].strip().lower():
                tr[key] = tr[key].strip().lower()
        self.instants(tr, path, frozenset({"start", "end"}))

    def write_cap(self, t: dict, path: str) -> None:
        if any(t.get(key) is not None for key in ("from_step", "ids", "all")):  # null is no selector
            return
        search, flt = t.get("search"), t.get("filter")
        if isinstance(search, dict):
            if search.get("limit") is None:  # absent or null: either way the write is unbounded
                search["limit"] = self.write_limit
                self.d.warning(
                    join(path, "search", "limit"),
                    "write.default_limit",
                    f"a write through search without limit is capped at {self.write_limit}",
                )
        elif isinstance(flt, dict) and flt.get("limit") is None:
            flt["limit"] = self.write_limit
            self.d.warning(
                join(path, "filter", "limit"),
                "write.default_limit",
                f"a write through filter without limit is capped at {self.write_limit}",
            )

    # --- per-op args -----------------------------------------------------------------------------

    def args_encode(self, a: dict, path: str) -> None:
        self.box(a, "payload", "text", path)
        self.lift(a, "text", "payload", path)
        self.priority(a, path)
        self.to_facets(a, _ENCODE_FIELDS, path)
        payload = a.get("payload")
        if isinstance(payload, dict) and is_fact(payload.get("structured")):
            fact = payload["structured"]
            self.instants(fact, join(path, "payload", "structured"), frozenset({"valid_from"}))

    def args_update(self, a: dict, path: str) -> None:
        s = a.get("set")
        if isinstance(s, dict):
            spath = join(path, "set")
            self.trim_keys(s, spath)
            self.priority(s, spath)
            self.instants(s, spath, frozenset({"time", "expire_at", "next_auto_update_at"}))
            self.to_facets(s, _UPDATE_FIELDS, spath)

    def args_label(self, a: dict, path: str) -> None:
        self.enum_alias(a, "mode", _LABEL_MODES, path)

    def args_promote(self, a: dict, path: str) -> None:
        self.priority(a, path)
        self.box(a, "remind", "rrule", path)

    def args_demote(self, a: dict, path: str) -> None:
        self.priority(a, path)
        if a.get("archive") is False:
            a.pop("archive")

    def args_merge(self, a: dict, path: str) -> None:
        if a.get("primary_id") == "auto":
            a.pop("primary_id")
        strategy = a.get("strategy")
        if strategy == "fold_into_primary":
            a["strategy"] = "merge_into_primary"
            self.alias(join(path, "strategy"), "fold_into_primary is merge_into_primary")
        elif strategy == "link_and_keep":
            a["strategy"] = "merge_into_primary"
            a.setdefault("soft_delete_children", False)
            self.alias(
                join(path, "strategy"), "link_and_keep is merge_into_primary with soft_delete_children false"
            )

    def args_delete(self, a: dict, path: str) -> None:
        self.rename(a, "expire_reason", "reason", path)
        if isinstance(a.get("hard"), bool) and "soft" not in a:
            a["soft"] = not a.pop("hard")
            self.alias(join(path, "hard"), "hard is spelled soft (its negation)")

    def args_lock(self, a: dict, path: str) -> None:
        if a.get("unlock") is True and "mode" not in a:
            a.pop("unlock")
            a["mode"] = "unlock"
            self.alias(join(path, "unlock"), "unlock: true is mode unlock")
        self.enum_alias(a, "mode", _LOCK_MODES, path)
        lock_mode(a, path, self.alias)
        policy = a.get("policy")
        if isinstance(policy, dict):
            for key in ("allow", "deny"):
                ops = policy.get(key)
                if isinstance(ops, list):
                    lower = {o.lower(): o for o in OPS}
                    policy[key] = [lower.get(o.lower(), o) if isinstance(o, str) else o for o in ops]

    def args_expire(self, a: dict, path: str) -> None:
        self.rename(a, "expire_at", "until", path, silent=True)
        expire_horizon(a, path, self.alias)
        self.enum_alias(a, "on_expire", _ON_EXPIRE, path)

    def args_split(self, a: dict, path: str) -> None:
        self.rename(a, "link_back", "_link_back", path, silent=True)
        if "_link_back" in a:
            a.pop("_link_back")
            self.ignored(join(path, "link_back"), "split parts are always linked both ways (split_from)")
        strategy = a.get("strategy")
        if isinstance(strategy, str):
            low = strategy.strip().lower()
            if low in _SPLIT_STRATEGIES:
                a["strategy"] = _SPLIT_STRATEGIES[low]
                self.alias(join(path, "strategy"), f"{strategy!r} is {a['strategy']!r}")
            elif low in _SPLIT_NAMED_PARTS:
                a["strategy"] = "custom"
                self.alias(join(path, "strategy"), f"{strategy!r} is custom with named topics")
        params = a.get("params")
        if isinstance(params, dict):
            self.split_params(params, a.get("strategy", "by_sentences"), join(path, "params"))

    def split_params(self, params: dict, strategy: Any, path: str) -> None:
        flat = [k for k in params if k in _SPLIT_PARAM_HOME]
        for key in flat:
            home = _SPLIT_PARAM_HOME[key]
            if home != strategy:
                continue  # belongs to another strategy: the typed parse reports it
            sub = params.setdefault(home, {})
            if not isinstance(sub, dict) or key in sub:
                continue
            sub[key] = params.pop(key)
            self.alias(join(path, key), f"params.{key} belongs in params.{home}.{key}")
        custom = params.get("custom")
        if isinstance(custom, dict):
            self.rename(custom, "sections", "topics", join(path, "custom"))
            delims = custom.get("delimiters")
            if isinstance(delims, list):
                custom["delimiters"] = [_unescape(x) if isinstance(x, str) else x for x in delims]
                if custom["delimiters"] != delims:
                    self.alias(
                        join(path, "custom", "delimiters"), "escaped \\n and \\t read as newline and tab"
                    )
        chunks = params.get("by_chunks")
        if isinstance(chunks, dict):
            size = chunks.get("chunk_size")
            if isinstance(size, int) and not isinstance(size, bool) and size < 50:
                here = join(path, "by_chunks", "chunk_size")
                if isinstance(chunks.get("num_chunks"), int):
                    chunks.pop("chunk_size")
                    self.ignored(here, f"chunk_size {size} is below 50; num_chunks decides the split")
                else:
                    chunks["chunk_size"] = 50
                    self.d.warning(here, "compat.clamped", f"chunk_size {size} raised to the minimum, 50")


def _unescape(text: str) -> str:
    return text.replace("\\n", "\n").replace("\\t", "\t") if "\\" in text else text


def normalize_ir(
    ir: dict, path: str, diags: Diagnostics, now: datetime | None, write_limit: int = DEFAULT_WRITE_LIMIT
) -> dict:
    """Rewrite one raw IR (already a private copy) in place into canonical spelling; returns it."""
    _Pass(diags, now, write_limit).ir(ir, path)
    return ir
