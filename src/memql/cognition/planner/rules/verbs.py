"""One clause -> its planned steps (two for "remind me to …"): the verb's reader, by verb."""

from __future__ import annotations

from collections.abc import Callable

from memql.cognition.planner.rules import changes, lexicon_en, lexicon_zh, lifecycle, reads
from memql.cognition.planner.rules.model import Clarify, Clause, Reading, Step


def build(clause: Clause, reading: Reading, index: int) -> list[Step]:
    """The steps one clause stands for. `index` is the position of its first step in the program."""
    lex = lexicon_zh if reading.lang == "zh" else lexicon_en
    external = lex.EXTERNAL.match(clause.body)
    if external:  # "send it to the team": not something a memory does; left out, and said so
        reading.notes.append(
            f"left out '{clause.text.strip()}': {external.group(0)} is not a memory operation"
        )
        return []
    verb = clause.verb
    if verb is None:
        if lex.QUESTION.search(clause.body.strip()):  # a question about the memory is a search
            return [reads.retrieve_step(clause, reading, index, question=True)]
        raise Clarify(
            "operation",
            f"no memory operation found in '{clause.text.strip()}': say what to do (save, find, tag, "
            "update, delete, summarize …)",
            index,
        )
    return BUILDERS[verb](clause, reading, index)


BUILDERS: dict[str, Callable[[Clause, Reading, int], list[Step]]] = {
    "Encode": reads.encode_step,
    "Retrieve": lambda c, r, i: [reads.retrieve_step(c, r, i)],
    "Summarize": reads.summarize_step,
    "Update": changes.update_step,
    "Label": changes.label_step,
    "Promote": changes.promote_step,
    "Demote": changes.demote_step,
    "Priority": changes.priority_step,
    "Delete": lifecycle.delete_step,
    "Merge": lifecycle.merge_step,
    "Split": lifecycle.split_step,
    "Lock": lifecycle.lock_step,
    "Expire": lifecycle.expire_step,
}
