"""A change said sessions later that names the value it ends ("okafor is going on sabbatical …") finds it,
each fact of a message that stated two is shown by its own words, and a line that speaks of one's doctor
by the title alone ("dr okafor retired") is history once another doctor is one's own (held.held_turns,
superseded._anchors), on both backends."""

from __future__ import annotations

from conversation_helpers import conversation, current

SMALL_TALK = [("user" if i % 2 else "assistant", f"ok, noted {i}.", "2026-02-10T09:00:00Z") for i in range(8)]


def test_a_change_naming_the_old_value_finds_it_sessions_later(memory):
    m = memory(actor="Priya", embedder="none")
    conversation(
        m,
        [
            ("user", "final submission is april 17 and my advisor dr okafor wants a full draft by march 20",
             "2026-02-03T14:10:00Z"),
            *SMALL_TALK,
            ("user", "plot twist. okafor is going on sabbatical so im getting handed over to prof lindqvist",
             "2026-03-05T21:40:00Z"),
            ("user", "faculty gave everyone 2 extra weeks so final deadline is may 1 now",
             "2026-03-05T21:45:00Z"),
        ],
    )  # fmt: skip
    assert [f.value for f in m.facts.history("Priya", "advisor").facts] == ["Dr Okafor", "Prof Lindqvist"]
    # the message stated two facts; the change finds the one it moves, not the other
    assert [f.value for f in m.facts.history("Priya", "deadline").facts] == ["2026-04-17", "2026-05-01"]
    assert [f.value for f in m.facts.history("Priya", "full_draft.deadline").facts] == ["2026-03-20"]


def test_a_line_of_ones_doctor_by_title_is_history_after_a_new_one(memory):
    m = memory(actor="Ruth", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "annual physical w dr okafor on friday", "2026-01-14T16:00:00Z"),
            ("user", "dr okafor retired 😢 had her for 12 years", "2026-02-11T15:00:00Z"),
            ("user", "patel isnt taking new patients so i got dr lindqvist", "2026-02-27T17:00:00Z"),
        ],
    )
    assert [f.value for f in m.facts.history("Ruth", "doctor").facts] == ["Dr Lindqvist"]
    text = conv.context("Who is Ruth's primary care doctor now?", budget_tokens=300).text
    assert "Lindqvist" in text and "okafor" not in current(text).lower()


def test_a_pet_renamed_and_a_dose_doubled_sessions_later_find_the_value_held(memory):
    m = memory(actor="Sofia", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "GUYS. i adopted her. meet pickle 🐱🐱", "2026-09-03T23:15:00Z"),
            ("user", "I'm on 50mg of sertraline, take it in the morning", "2026-09-03T23:20:00Z"),
            *SMALL_TALK,
            *SMALL_TALK,
            ("user", "not sure pickle is her name anymore, she looks more like a mochi",
             "2026-09-08T17:45:00Z"),
            ("user", "vet went great. its officially mochi now, changed it on the microchip too",
             "2026-09-11T22:30:00Z"),
            ("user", "saw the doc. shes doubling my dose since the 50 wasnt doing much",
             "2026-09-12T10:00:00Z"),
        ],
    )  # fmt: skip
    assert [f.value for f in m.facts.history("Sofia", "cat.name").facts] == ["pickle", "mochi"]
    assert [f.value for f in m.facts.history("Sofia", "sertraline").facts] == ["50mg", "100mg"]
    text = conv.context("What is Sofia's cat called now?", budget_tokens=300).text
    assert "mochi" in current(text).lower()


def test_a_day_said_again_shows_the_held_turn_of_that_day_sessions_later(memory):
    m = memory(actor="Lena", embedder="none")
    conversation(
        m,
        [
            ("user", "booked lisbon!! TAP flight on march 19, leaves newark 6:55pm", "2026-03-02T13:30:00Z"),
            ("user", "my coworker Ben flies out the day after me bc he has a client thing",
             "2026-03-02T13:32:00Z"),
            *SMALL_TALK,
            ("user", "ugh TAP cabin crew strike announced for the 19th", "2026-03-16T22:00:00Z"),
            ("user", "yeah they moved me to the 21st same time", "2026-03-16T22:02:00Z"),
        ],
    )  # fmt: skip
    # the flight held moves (not a "date" of the strike's turn); Ben's day after is not the speaker's
    assert [f.value for f in m.facts.history("Lena", "flight").facts] == ["2026-03-19", "2026-03-21"]


def test_a_correction_of_a_changed_value_finds_the_turn_the_change_moved(memory):
    # "push me to 4:30 same day" reads as the dentist only beside "dentist is … at 3pm", which the recent
    # turns of the correction no longer hold: the held turns show it again (formation's held.held_turns)
    m = memory(actor="Marco", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "remind me dentist is tuesday feb 17 at 3pm", "2026-02-09T10:00:00Z"),
            ("assistant", "Got it: dentist on Tuesday, February 17 at 3pm.", "2026-02-09T10:00:00Z"),
            *SMALL_TALK[:3],
            ("user", "dentist office called, they need to push me to 4:30 same day", "2026-02-12T14:45:00Z"),
            ("assistant", "Updated: Tuesday Feb 17 at 4:30pm.", "2026-02-12T14:45:00Z"),
            ("user", "cool means i dont have to leave work early at least", "2026-02-12T14:46:00Z"),
            ("user", "wait sorry i misheard the receptionist, its 4:15 not 4:30", "2026-02-13T08:05:00Z"),
        ],
    )
    history = [f.value for f in m.facts.history("Marco", "dentist").facts]
    assert history == ["2026-02-17T15:00:00Z", "2026-02-17T16:30:00Z", "2026-02-17T16:15:00Z"]
    assert m.facts.history("Marco", "time").facts == []  # the agent's "Updated: …" is no fact of its own
    text = conv.context("What time is Marco's dentist appointment?", budget_tokens=300).text
    assert "4:15" in current(text) and "4:30" not in current(text)


def test_a_new_sum_of_a_key_the_recent_turns_name_finds_the_turn_the_last_change_moved(memory):
    # "$118 a month w them" is the insurance only beside "insurance is 142/mo"; when "its $124/mo now" is
    # said, that turn is out of the recent ones, which still name the insurance: it is shown again
    m = memory(actor="Chris", embedder="none")
    conversation(
        m,
        [
            ("user", "buyout is 17.2k which seems high. insurance is 142/mo thru state farm too",
             "2026-07-07T15:00:00Z"),
            ("assistant", "Compare that to the used market.", "2026-07-07T15:01:00Z"),
            ("user", "turned the corolla in early, bought a 2021 mazda cx-5", "2026-08-10T22:00:00Z"),
            ("assistant", "Nice. Do you need to update your insurance?", "2026-08-10T22:01:00Z"),
            ("user", "already did, moved to geico too, cx-5 is $118 a month w them", "2026-08-10T22:02:00Z"),
            ("assistant", "Great, saving money on both ends.", "2026-08-10T22:03:00Z"),
            ("user", "my brother just got a camry funnily enough", "2026-08-10T22:04:00Z"),
            ("user", "geico sent a 'rate adjustment', its $124/mo now", "2026-09-02T21:00:00Z"),
        ],
    )  # fmt: skip
    history = [f.value for f in m.facts.history("Chris", "insurance").facts]
    assert history == ["142/mo", "$118/mo", "$124"]
    assert m.facts.history("Chris", "geico").facts == []


def test_a_correction_saying_a_clock_finds_the_turn_a_recent_change_moved(memory):
    # the appointment's own turn is no longer among the recent ones when the correction comes: the
    # change's turn is, and the correction (不对 … 是十点半) is of the moment it moved
    m = memory(actor="Vivian", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "牙又疼了 约了周四下午三点看牙 就那家仁爱口腔", "2026-03-09T02:00:00Z"),
            *SMALL_TALK,
            ("user", "诊所刚打电话 说医生周四临时有手术 给我改到周五上午十点了", "2026-03-11T08:00:00Z"),
            ("assistant", "好的，那就是3月13号周五上午十点，我更新提醒。", "2026-03-11T08:00:00Z"),
            ("user", "等下 不对 我再看下短信……是十点半 10:30 sorry", "2026-03-11T08:01:00Z"),
        ],
    )
    history = [f.value for f in m.facts.history("Vivian", "看牙.date").facts]
    assert history[-1] == "2026-03-13T10:30:00Z"
    assert "2026-03-12T15:00:00Z" in history
    text = conv.context("Vivian的看牙预约现在是几点？", budget_tokens=300).text
    assert "10:30" in current(text)


def test_it_said_sessions_later_is_the_speakers_one_animal(memory):
    m = memory(actor="橙子", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "我家猫团子六个月了，约了下周三上午去做绝育", "2026-05-11T12:00:00Z"),
            *SMALL_TALK,
            ("user", "医生说它4.2公斤，有点偏胖，让我少喂零食", "2026-05-23T09:00:00Z"),
        ],
    )
    assert [f.value for f in m.facts.history("团子", "weight").facts] == ["4.2公斤"]
    assert "4.2" in current(conv.context("团子现在体重多少？", budget_tokens=300).text)


def test_a_corrected_network_password_stays_the_wifi_password(memory):
    m = memory(actor="Aaron", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "writing it here. network is Nguyen_5G, password bluemoose88", "2026-05-10T19:00:00Z"),
            *SMALL_TALK,
            ("user", "tech brought a new router. network is CasaNguyen now, password M1ssionBay#7",
             "2026-05-28T23:00:00Z"),
            ("assistant", "Updated: CasaNguyen, password M1ssionBay#7.", "2026-05-28T23:01:00Z"),
            ("user", "wait no sorry its M1ssionBay#4, the 7 was our old apt number",
             "2026-05-28T23:02:00Z"),
        ],
    )  # fmt: skip
    history = [f.value for f in m.facts.history("Aaron", "wifi_password").facts]
    assert history == ["bluemoose88", "M1ssionBay#7", "M1ssionBay#4"]
    text = current(conv.context("What is Aaron's wifi password now?", budget_tokens=300).text)
    assert "M1ssionBay#4" in text and "bluemoose88" not in text


def test_an_echo_of_a_changed_code_leaves_no_old_code_current(memory):
    m = memory(actor="爸爸", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "家里门锁密码改成 520131 了，大家记一下", "2026-07-10T12:00:00Z"),
            ("assistant", "已记下：家里门锁密码520131。", "2026-07-10T12:01:00Z"),
            ("user", "听闺女的，又改了，现在是 860274", "2026-07-12T12:00:00Z"),
            ("user", "怪不得刚才输老的没开", "2026-07-12T12:01:00Z"),
            ("assistant", "已更新：门锁密码是860274。", "2026-07-12T12:02:00Z"),
        ],
    )
    text = current(conv.context("家里门锁密码现在是多少？", budget_tokens=300).text)
    assert "860274" in text and "520131" not in text
