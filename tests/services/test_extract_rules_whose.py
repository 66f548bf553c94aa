"""Whose a value is when the words do not say it: a reply to a question about someone (豆豆最近怎么样？ …
胖了，现在有15公斤了), and a change a person named before opens with (阿关为了工作搬去重庆了) — never the
value someone else held."""

from __future__ import annotations

from extract_helpers import facts, own

ZH = "许晴"


def test_a_reply_to_a_question_about_someone_gives_them_the_value():
    recent = ((ZH, "我家狗豆豆现在12公斤，兽医说正好。"), ("assistant", "豆豆最近怎么样？"))
    assert own("胖了，现在有15公斤了，都怪我妈老喂它。", recent, ZH) == {("豆豆", "weight", "15公斤")}


def test_the_speakers_own_words_or_a_key_they_held_stay_theirs():
    asked = ("assistant", "豆豆最近怎么样？")
    dog = (ZH, "我家狗豆豆现在12公斤，兽医说正好。")
    # 我 names the speaker; a question about nobody named moves nothing
    assert ("豆豆", "weight", "15公斤") not in own("我现在有15公斤了。", (dog, asked), ZH)
    vague = ("assistant", "最近怎么样？")
    assert ("豆豆", "weight", "15公斤") not in own("现在有15公斤了。", (dog, vague), ZH)
    # the speaker held the key too: who it is about is not for the question to say
    mine = (ZH, "我现在50公斤。")
    assert ("豆豆", "weight", "15公斤") not in own("现在有15公斤了。", (mine, dog, asked), ZH)
    # no question: no move
    assert ("豆豆", "weight", "15公斤") not in own("现在有15公斤了。", (dog, ("assistant", "好的。")), ZH)


def test_a_change_a_named_person_opens_with_is_theirs_not_the_relatives_who_held_the_value():
    recent = ((ZH, "我哥住在成都。"), (ZH, "我闺蜜阿关也在成都。"))
    found = facts("阿关为了工作搬去重庆了。", recent, ZH)
    assert ("阿关", "residence", "重庆") in found
    assert not {f for f in found if f[0] == f"{ZH}的哥哥"}
