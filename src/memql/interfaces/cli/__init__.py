"""The `memql` command line: a thin shell over the Python API.

Human output (rich) when stdout is a terminal, JSON otherwise or with --json.
Exit codes: 0 success/valid, 1 invalid or refused, 2 unreadable input or a usage error.
"""

from memql.interfaces.cli import (  # noqa: F401  (importing a module registers its commands)
    bench_cmds,
    bench_concurrency,
    bench_conversation,
    bench_instructions,
    bench_locomo,
    bench_perf,
    bench_serve,
    bench_state,
    bench_text2mem,
    conversation_cmds,
    facts_cmds,
    lang_cmds,
    maintain_cmds,
    mcp_cmds,
    plan_cmds,
    profile_cmds,
    proposal_cmds,
    record_cmds,
    serve_cmds,
    store_cmds,
    store_copy,
)
from memql.interfaces.cli.common import main

__all__ = ["main"]
