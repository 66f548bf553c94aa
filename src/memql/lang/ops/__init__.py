"""The verbs, one module per family. Each model registers itself (`@verb` in base.py); the tables below
derive from that registry, so a verb is added by defining its model in a family module imported here.

OPS are the twelve Text2Mem verbs (OP_MODELS their models); SYSTEM_OPS the housekeeping verbs memql adds
(Sweep, Remind, Restore: lang/ops/housekeeping.py). VERB_MODELS holds both: what the language accepts.
"""

from memql.lang.ops.annotate import LabelArgs, LabelIR, UpdateArgs, UpdateIR, UpdateSet
from memql.lang.ops.base import TEXT2MEM_ORDER, Meta, OpBase, OpName, Stage, op_of, registered, stage_of, verb
from memql.lang.ops.encode import EncodeArgs, EncodeIR, Payload
from memql.lang.ops.housekeeping import RemindArgs, RemindIR, RestoreArgs, RestoreIR, SweepArgs, SweepIR
from memql.lang.ops.lifecycle import DeleteArgs, DeleteIR, ExpireArgs, ExpireIR, LockArgs, LockIR, LockPolicy
from memql.lang.ops.read import RetrieveArgs, RetrieveIR, SummarizeArgs, SummarizeIR
from memql.lang.ops.restructure import MergeArgs, MergeIR, SplitArgs, SplitIR, SplitParams
from memql.lang.ops.weight import DemoteArgs, DemoteIR, PromoteArgs, PromoteIR, Remind

OP_MODELS: dict[str, type[OpBase]] = {op_of(m): m for m in registered(system=False)}
SYSTEM_MODELS: dict[str, type[OpBase]] = {op_of(m): m for m in registered(system=True)}
VERB_MODELS: dict[str, type[OpBase]] = {**OP_MODELS, **SYSTEM_MODELS}
OPS: tuple[str, ...] = tuple(OP_MODELS)
SYSTEM_OPS: tuple[str, ...] = tuple(SYSTEM_MODELS)
STAGE_OF: dict[str, str] = {op: stage_of(model) for op, model in VERB_MODELS.items()}
WRITE_OPS = frozenset(op for op, stage in STAGE_OF.items() if stage == "STO")

__all__ = [
    "OPS",
    "OP_MODELS",
    "STAGE_OF",
    "SYSTEM_MODELS",
    "SYSTEM_OPS",
    "TEXT2MEM_ORDER",
    "VERB_MODELS",
    "WRITE_OPS",
    "DeleteArgs",
    "DeleteIR",
    "DemoteArgs",
    "DemoteIR",
    "EncodeArgs",
    "EncodeIR",
    "ExpireArgs",
    "ExpireIR",
    "LabelArgs",
    "LabelIR",
    "LockArgs",
    "LockIR",
    "LockPolicy",
    "MergeArgs",
    "MergeIR",
    "Meta",
    "OpBase",
    "OpName",
    "Payload",
    "PromoteArgs",
    "PromoteIR",
    "Remind",
    "RemindArgs",
    "RemindIR",
    "RestoreArgs",
    "RestoreIR",
    "RetrieveArgs",
    "RetrieveIR",
    "SplitArgs",
    "SplitIR",
    "SplitParams",
    "Stage",
    "SummarizeArgs",
    "SummarizeIR",
    "SweepArgs",
    "SweepIR",
    "UpdateArgs",
    "UpdateIR",
    "UpdateSet",
    "op_of",
    "registered",
    "stage_of",
    "verb",
]
