"""Progress bars (memql.interfaces.cli.progress): drawn on standard error only when it is a terminal and
`memql --quiet` is not given; never on standard output, so --json stays parseable."""

from __future__ import annotations

import io
import json
from pathlib import Path

from click.testing import CliRunner

from memql.interfaces.cli import main
from memql.interfaces.cli.progress import progress_bars, shows_progress
from memql.ports.progress import silent

FIXTURES = Path(__file__).parents[2] / "bench" / "fixtures"


class Terminal(io.StringIO):
    """A stream that says it is a terminal (what rich and the helper check)."""

    def isatty(self) -> bool:
        return True


def test_silent_when_the_stream_is_not_a_terminal():
    stream = io.StringIO()
    with progress_bars(quiet=False, stream=stream) as progress:
        assert progress is silent
        progress("working", 1, 2)
    assert stream.getvalue() == ""


def test_silent_on_a_terminal_when_quiet():
    stream = Terminal()
    with progress_bars(quiet=True, stream=stream) as progress:
        progress("working", 1, 2)
    assert stream.getvalue() == ""
    assert not shows_progress(quiet=True, stream=stream) and shows_progress(quiet=False, stream=stream)


def test_draws_one_task_per_message_on_a_terminal():
    stream = Terminal()
    with progress_bars(quiet=False, stream=stream) as progress:
        assert progress is not silent
        progress("load 0 -> 40 records", 0, 40)
        progress("load 0 -> 40 records", 40, 40)
        progress("copying records", 7)  # no total: finished as 7 of 7
    drawn = stream.getvalue()
    assert "load 0 -> 40 records" in drawn and "40/40" in drawn
    assert "copying records" in drawn and "7/7" in drawn


def test_quiet_is_a_global_option_read_by_the_helper():
    seen = {}

    @main.command("probe-quiet", hidden=True)
    def probe() -> None:
        seen["quiet"] = not shows_progress(stream=Terminal())

    try:
        assert CliRunner().invoke(main, ["--quiet", "probe-quiet"]).exit_code == 0
        assert seen["quiet"] is True
        assert CliRunner().invoke(main, ["probe-quiet"]).exit_code == 0
        assert seen["quiet"] is False
        assert CliRunner().invoke(main, ["probe-quiet"], env={"MEMQL_QUIET": "1"}).exit_code == 0
        assert seen["quiet"] is True
    finally:
        main.commands.pop("probe-quiet")


def test_bench_json_off_a_terminal_has_nothing_but_json_on_stdout():
    result = CliRunner().invoke(
        main, ["bench", "text2mem", "--data", str(FIXTURES / "text2mem-mini.jsonl"), "--json", "--limit", "3"]
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout)["n"] == 3
    # standard error is not a terminal here: no bars, but a long bench's progress as plain lines
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith("memql: text2mem-mini.jsonl") for line in lines)
    assert lines[0].endswith(": 0/3 (0 s)") and " 3/3 (" in lines[-1]
    quiet = CliRunner().invoke(
        main,
        [
            "--quiet",
            "bench",
            "text2mem",
            "--data",
            str(FIXTURES / "text2mem-mini.jsonl"),
            "--json",
            "--limit",
            "3",
        ],
    )
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_lines_off_a_terminal_only_when_asked():
    stream = io.StringIO()
    with progress_bars(quiet=False, stream=stream, lines=True) as progress:
        progress("load", 0, 40)
        progress("load", 1, 40)  # within the interval: no line
        progress("load", 40, 40)
    assert stream.getvalue().splitlines() == ["memql: load: 0/40 (0 s)", "memql: load: 40/40 (0 s)"]


def test_a_task_cut_short_is_not_drawn_complete():
    stream = Terminal()
    with progress_bars(quiet=False, stream=stream) as progress:
        progress("load 0 -> 40 records", 10, 40)
    assert "10/40" in stream.getvalue() and "40/40" not in stream.getvalue()
