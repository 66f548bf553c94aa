"""Time expressions as the extractor resolves them against the message's own time."""

from datetime import UTC, datetime

import pytest

from memql.lang.delta import Utterance
from memql.lang.time import parse_natural
from memql.services.extract import make_extractor
from memql.services.extract.times_found import find_times

MONDAY = datetime(2026, 3, 2, 10, tzinfo=UTC)
SATURDAY = datetime(2026, 3, 7, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "now", "start"),
    [
        ("The signing is next Friday.", MONDAY, datetime(2026, 3, 6, tzinfo=UTC)),
        ("The signing is next Friday.", SATURDAY, datetime(2026, 3, 13, tzinfo=UTC)),
        ("We meet next Friday at 10:30.", MONDAY, datetime(2026, 3, 6, 10, 30, tzinfo=UTC)),
        ("The vet is next Monday.", MONDAY, datetime(2026, 3, 9, tzinfo=UTC)),
        ("The vet is next Tuesday.", MONDAY, datetime(2026, 3, 10, tzinfo=UTC)),
        ("The vet is next Thursday.", MONDAY, datetime(2026, 3, 5, tzinfo=UTC)),
        ("It's next week.", MONDAY, datetime(2026, 3, 9, tzinfo=UTC)),
        ("合同下周五签。", MONDAY, datetime(2026, 3, 13, tzinfo=UTC)),
    ],
)
def test_next_weekday_in_a_message_is_the_coming_one(text, now, start):
    (found,) = find_times(text, now)
    assert found[2].start == start


def test_the_command_language_keeps_next_weeks_day():
    # instructions ("remind me next Friday") keep lang/time's documented reading
    assert parse_natural("next Friday", MONDAY).start == datetime(2026, 3, 13, tzinfo=UTC)


def test_a_delta_dates_next_friday_from_the_message_time():
    delta = make_extractor("rules").extract(
        Utterance(speaker="Mira", text="My passport appointment is next Friday.", time=MONDAY)
    )
    assert [t.start for t in delta.times] == [datetime(2026, 3, 6, tzinfo=UTC)]
