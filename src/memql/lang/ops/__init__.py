"""The twelve verbs, one module per family; OP_MODELS maps each verb name to its model."""

from memql.lang.ops.annotate import LabelArgs, LabelIR, UpdateArgs, UpdateIR, UpdateSet
from memql.lang.ops.base import OPS, STAGE_OF, WRITE_OPS, Meta, OpBase, OpName, Stage
from memql.lang.ops.encode import EncodeArgs, EncodeIR, Payload
from memql.lang.ops.lifecycle import DeleteArgs, DeleteIR, ExpireArgs, ExpireIR, LockArgs, LockIR, LockPolicy
from memql.lang.ops.read import RetrieveArgs, RetrieveIR, SummarizeArgs, SummarizeIR
from memql.lang.ops.restructure import MergeArgs, MergeIR, SplitArgs, SplitIR, SplitParams
from memql.lang.ops.weight import DemoteArgs, DemoteIR, PromoteArgs, PromoteIR, Remind

OP_MODELS: dict[str, type[OpBase]] = {
    "Encode": EncodeIR,
    "Update": UpdateIR,
    "Label": LabelIR,
    "Promote": PromoteIR,
    "Demote": DemoteIR,
    "Merge": MergeIR,
    "Delete": DeleteIR,
    "Split": SplitIR,
    "Lock": LockIR,
    "Expire": ExpireIR,
    "Retrieve": RetrieveIR,
    "Summarize": SummarizeIR,
}
assert tuple(OP_MODELS) == OPS

__all__ = [
    "OPS",
    "OP_MODELS",
    "STAGE_OF",
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
    "RetrieveArgs",
    "RetrieveIR",
    "SplitArgs",
    "SplitIR",
    "SplitParams",
    "Stage",
    "SummarizeArgs",
    "SummarizeIR",
    "UpdateArgs",
    "UpdateIR",
    "UpdateSet",
]
