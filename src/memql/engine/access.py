"""Who may do what: a session's identity (role, consent, clearance), the verbs an agent's consent covers,
and the read and write permissions of a record. Read permissions are a condition of every store query
(memql.ports.store.Access): `admits` states its rules, which every backend reproduces in its SQL; the
rest is checked by the engine in Python.

Roles: `user` (a member of the tenant), `admin` (may do anything the clearance allows), `agent` (acts with
the consent the user gave it: `propose`, `read` or `read_write`). The REST server maps its API keys to
these plain session parameters; nothing here is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from memql.errors import Refusal
from memql.lang.fields import SENSITIVITY_ORDER
from memql.lang.ops import STAGE_OF
from memql.ports.record import PROPOSAL_STATUSES, Record
from memql.ports.store import Access

ROLES = ("user", "admin", "agent")
CONSENTS = ("propose", "read", "read_write")
READ_VERBS = frozenset(op for op, stage in STAGE_OF.items() if stage == "RET")


class Context(Protocol):
    """What the checks below read of an op's context (memql.engine.context.Context): who acts, as what,
    in which op, and how it refuses."""

    actor: str | None
    admin: bool
    role: str
    consent: str | None
    op: str

    def refuse(self, rule: str, message: str, *parts: str | int) -> Refusal: ...


@dataclass(frozen=True)
class Identity:
    """Who a session acts as. `consent` is set for agents only; `clearance` is always resolved."""

    actor: str | None
    role: str
    consent: str | None
    clearance: str

    @property
    def admin(self) -> bool:
        return self.role == "admin"


def identity(
    actor: str | None,
    *,
    role: str | None = None,
    consent: str | None = None,
    clearance: str | None = None,
    admin: bool = False,
) -> Identity:
    """Resolve a session's parameters: `admin=True` means role "admin"; an agent's consent defaults to
    "propose"; the clearance defaults to "restricted" (every level) for users and admins and "standard"
    for agents. Contradictory or unknown values raise ValueError when the session opens."""
    if role is None:
        role = "admin" if admin else "user"
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    if admin and role != "admin":
        raise ValueError(f"admin=True contradicts role {role!r}")
    if consent is not None and role != "agent":
        raise ValueError(f"consent applies to agents; this session's role is {role!r}")
    if role == "agent":
        consent = consent or "propose"
        if consent not in CONSENTS:
            raise ValueError(f"consent must be one of {', '.join(CONSENTS)}, not {consent!r}")
        if not actor:
            raise ValueError(
                "an agent session needs an actor: the agent's name, recorded on what it proposes"
            )
    if clearance is None:
        clearance = "standard" if role == "agent" else SENSITIVITY_ORDER[-1]
    if clearance not in SENSITIVITY_ORDER:
        raise ValueError(f"clearance must be one of {', '.join(SENSITIVITY_ORDER)}, not {clearance!r}")
    return Identity(actor=actor, role=role, consent=consent, clearance=clearance)


# --- read rules: the reference semantics of the Access condition every backend applies in SQL ---------


def unaccepted_proposal(record: Record) -> bool:
    """A proposal nobody has accepted: pending or rejected, or expired while it had no owner yet (an
    approved proposal has an owner: its approver)."""
    return record.status in PROPOSAL_STATUSES or (
        record.status == "expired" and record.owner is None and record.agent is not None
    )


def read_level(record: Record) -> str:
    """The record's effective read level: its own, else custom when it has a read whitelist, else public."""
    if record.read_perm_level is not None:
        return record.read_perm_level
    return "custom" if record.read_whitelist else "public"


def admits(access: Access, record: Record) -> bool:
    """Whether `access` (a reader other than an admin) may read the record: the rules the Access
    condition stands for (memql.ports.store.Access), in Python."""
    me = access.actor
    listed = me is not None
    if unaccepted_proposal(record):
        if access.agent:
            return listed and record.agent == me
        return not (listed and me in (record.read_blacklist or ()))
    if access.proposals_only:
        return False
    if listed and record.owner == me:
        return True
    if listed and me in (record.read_blacklist or ()):
        return False
    level = read_level(record)
    whitelisted = listed and me in (record.read_whitelist or ())
    if level == "public":
        return True
    if level == "team":
        return whitelisted or not access.agent
    if level == "custom":
        return whitelisted
    return False


# --- consent ---------------------------------------------------------------------------------------


def check_consent(ctx: Context, op: str) -> None:
    """An agent's consent covers: propose — Encode (as a proposal) and Retrieve (of its own proposals);
    read — also Summarize and every Retrieve within permissions; read_write — every verb."""
    if ctx.role != "agent" or ctx.consent == "read_write" or op in ("Encode", "Retrieve"):
        return
    if op in READ_VERBS and ctx.consent == "read":
        return
    rule = "consent.read" if op in READ_VERBS else "consent.write"
    raise ctx.refuse(
        rule,
        f"agent {ctx.actor} has consent {ctx.consent!r}, which does not cover {op}"
        + ("" if op in READ_VERBS else " (writes need read_write)"),
    )


def proposes(ctx: Context, asked: bool | None) -> bool:
    """Whether an Encode stores a proposal: when asked to, and always for an agent below read_write."""
    return bool(asked) or (ctx.role == "agent" and ctx.consent != "read_write")


# --- write permissions -----------------------------------------------------------------------------


def write_level(record: Record) -> str:
    """The effective write level: the record's own, else custom with a write whitelist, else open."""
    if record.write_perm_level is not None:
        return record.write_perm_level
    return "custom" if record.write_whitelist else "open"


def may_write(ctx: Context, record: Record) -> bool:
    """Whether the session may change a record it can read (docs/engine.md, Permissions):

    admins and the owner always; a proposal nobody accepted yet — the tenant's users and its proposer;
    an ownerless record — anyone not in its write_blacklist; otherwise by write level: open — anyone not
    in the write_blacklist; maintainer — the write_whitelist; owner_only — nobody else; custom — the
    write_whitelist minus the write_blacklist.
    """
    me = ctx.actor
    if ctx.admin or (me is not None and record.owner == me):
        return True
    if unaccepted_proposal(record):
        return ctx.role != "agent" or (me is not None and record.agent == me)
    whitelisted = me is not None and me in (record.write_whitelist or ())
    blacklisted = me is not None and me in (record.write_blacklist or ())
    if record.owner is None:
        return not blacklisted
    level = write_level(record)
    if level == "open":
        return not blacklisted
    if level == "maintainer":
        return whitelisted
    if level == "custom":
        return whitelisted and not blacklisted
    return False


def check_write(ctx: Context, record: Record) -> None:
    if not may_write(ctx, record):
        raise ctx.refuse(
            "permission.write",
            f"record {record.id}: its write permissions ({write_level(record)}) do not let "
            f"{_who(ctx)} {ctx.op or 'change it'}",
            "target",
        )


def may_govern(ctx: Context, record: Record) -> bool:
    """Who may change a record's read governance — its owner or permission fields, or lower its
    sensitivity or its category's sensitivity floor: its owner and admins; on an ownerless record (or a
    proposal nobody accepted yet), also the tenant's users."""
    if ctx.admin or (ctx.actor is not None and record.owner == ctx.actor):
        return True
    return record.owner is None and ctx.role == "user"


def audience(record: Record) -> tuple:
    """Who can read a record, as a comparable value (records with equal audiences have the same readers).
    The owner only matters where it changes the answer: a level other than public, or a blacklist."""
    level = read_level(record)
    proposal = unaccepted_proposal(record)
    owner_matters = proposal or level != "public" or bool(record.read_blacklist)
    return (
        proposal,
        record.agent if proposal else None,
        level,
        frozenset(record.read_whitelist or ()),
        frozenset(record.read_blacklist or ()),
        record.owner if owner_matters else None,
    )


def public(record: Record) -> bool:
    """Readable by everyone the tenant lets read: an accepted record, public, with no blacklist."""
    return not unaccepted_proposal(record) and read_level(record) == "public" and not record.read_blacklist


def _who(ctx: Context) -> str:
    name = ctx.actor or "an anonymous session"
    return f"{ctx.role} {name}" if ctx.actor else name
