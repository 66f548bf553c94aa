"""The attribute vocabulary: many phrasings of one attribute land on one key, in both languages; unknown
attributes are kept; a vocabulary is extended without editing memql."""

from __future__ import annotations

import pytest
from extract_helpers import message

from memql.services.extract import DEFAULT_VOCABULARY, Attribute, RuleExtractor
from memql.services.extract.vocabulary import snake

V = DEFAULT_VOCABULARY


@pytest.mark.parametrize(
    "phrase, key",
    [
        ("deadline for the passport", "passport.deadline"),
        ("passport due date", "passport.deadline"),
        ("passport renewal deadline", "passport.deadline"),
        ("my passport deadline", "passport.deadline"),
        ("the due date of my passport", "passport.deadline"),
        ("Passport Deadline", "passport.deadline"),
        ("护照截止日期", "passport.deadline"),
        ("我的护照续签截止日期", "passport.deadline"),
        ("护照的截止日期", "passport.deadline"),
        ("lives in", "residence"),
        ("moved to", "residence"),
        ("住在", "residence"),
        ("搬到", "residence"),
        ("current city", "residence"),
        ("works at", "employer"),
        ("company", "employer"),
        ("公司", "employer"),
        ("job title", "job_title"),
        ("职位", "job_title"),
        ("phone number", "phone"),
        ("mobile", "phone"),
        ("手机号", "phone"),
        ("new phone number", "phone"),
        ("新手机号", "phone"),
        ("e-mail address", "email"),
        ("邮箱", "email"),
        ("date of birth", "birthday"),
        ("生日", "birthday"),
        ("favourite colour", "favorite.color"),
        ("favorite food", "favorite.food"),
        ("最喜欢的颜色", "favorite.color"),
        ("visa expiration date", "visa.expiry"),
        ("签证有效期", "visa.expiry"),
        ("driver's license expiry date", "driver_license.expiry"),
        ("rent due date", "rent.deadline"),
        ("房租截止日期", "rent.deadline"),
        ("dentist appointment", "dentist.appointment"),
        ("deadline", "deadline"),
        ("blood pressure", "blood_pressure"),
        ("Shoe Size", "shoe_size"),
        ("血压", "血压"),
        ("", ""),
    ],
)
def test_phrasings_land_on_one_key(phrase, key):
    assert V.normalize(phrase) == key


@pytest.mark.parametrize(
    "key, category, kind",
    [
        ("residence", "a2p:context", "place"),
        ("employer", "a2p:professional", "organization"),
        ("salary", "a2p:financial", "number"),
        ("allergy.peanuts", "a2p:health", "text"),
        ("favorite.color", "a2p:preferences", "text"),
        ("preference.sushi", "a2p:preferences", "text"),
        ("relation.sister_of", "a2p:relationships", "text"),
        ("passport.deadline", "a2p:context", "date"),
        ("shoe_size", None, "text"),
    ],
)
def test_categories_and_value_kinds(key, category, kind):
    assert (V.category(key), V.kind(key)) == (category, kind)


def test_relations_know_their_gender():
    assert V.relation("sister") == ("sister", "f")
    assert V.relation("Mom") == ("mother", "f")
    assert V.relation("哥哥") == ("brother", "m")
    assert V.relation("colleague") == ("colleague", None)
    assert V.relation("spaceship") is None


def test_snake():
    assert snake("Loud  Music!") == "loud_music"
    assert snake("Ana's colour") == "ana_color"


def test_extended_vocabulary_is_a_new_one_that_the_rules_use():
    extended = V.extended(
        attributes=[Attribute("loyalty_tier", ("loyalty tier", "status level", "会员等级"), "a2p:context")],
        aspects={"deadline": ("closing date",)},
        things={"房贷": "mortgage"},
        relations={"godmother": ("godmother", "f")},
    )
    assert extended.normalize("status level") == "loyalty_tier"
    assert extended.normalize("closing date for the mortgage") == "mortgage.deadline"
    assert extended.normalize("房贷截止日期") == "mortgage.deadline"
    assert V.normalize("status level") == "status_level"  # the default is untouched
    extractor = RuleExtractor(extended)
    (fact,) = extractor.extract(message("My status level is gold.")).facts
    assert (fact.attribute, fact.value, fact.category) == ("loyalty_tier", "gold", "a2p:context")
    got = {
        (f.subject, f.attribute) for f in extractor.extract(message("My godmother Eva lives in Rome.")).facts
    }
    assert got == {("Eva", "residence"), ("Eva", "relation.godmother_of")}
