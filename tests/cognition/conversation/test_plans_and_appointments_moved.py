"""A holiday trip planned, then moved sessions later with the turns between (held turns named by the
holiday), and an appointment booked, moved and corrected: the last value is the current one, on both
backends."""

from __future__ import annotations

from conversation_helpers import conversation


def test_a_holiday_trip_moved_sessions_later_supersedes_the_plan(memory):
    m = memory(actor="安安", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "五一打算去大阪！！机票已经在看了✈️", "2026-03-02T12:00:00Z"),
            ("assistant", "五一去日本人会很多，酒店要早点订。几个人去？", "2026-03-02T12:00:01Z"),
            ("user", "我和我妈俩人，5月1号到5号", "2026-03-02T12:00:02Z"),
            ("assistant", "行程有大概想法吗？", "2026-03-02T12:00:03Z"),
            ("user", "环球影城必去！然后京都一日游", "2026-03-02T12:00:04Z"),
            ("user", "崩溃 我妈护照过期了，重新办来不及签证了😭", "2026-03-30T12:00:00Z"),
            ("assistant", "啊太可惜了。那五一还出去吗？", "2026-03-30T12:00:01Z"),
            ("user", "出！改去清迈了，泰国免签，机票都买好了", "2026-03-30T12:00:02Z"),
        ],
    )
    history = m.facts.history("安安", "五一旅行.location").facts
    assert [f.value for f in history] == ["大阪", "清迈"]
    assert history[-1].valid_to is None  # the moved plan holds now, not only until the holiday
    text = conv.context("安安五一去哪里旅行？", budget_tokens=300).text
    assert "清迈" in text and text.index("清迈") < text.index("大阪")


def test_an_appointment_booked_moved_and_corrected(memory):
    m = memory(actor="莉莉", embedder="none")
    conversation(
        m,
        [
            ("user", "牙疼死了 约了这周四下午3点拔智齿😭", "2026-05-04T03:00:00Z"),
            ("user", "诊所打电话说周四医生请假，给我改到周五上午10点了", "2026-05-06T08:00:00Z"),
            ("user", "不对不对，我刚翻短信，是周五上午10点半 不是10点，我记错了", "2026-05-07T12:30:00Z"),
        ],
    )
    values = [f.value for f in m.facts.history("莉莉", "拔智齿.date").facts]
    assert values == ["2026-05-07T15:00:00Z", "2026-05-08T10:00:00Z", "2026-05-08T10:30:00Z"]
