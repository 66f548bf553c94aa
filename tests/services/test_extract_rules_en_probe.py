"""A probe set of everyday English conversations written apart from the bench set: first statements in
many forms, changes, corrections, third parties and relative dates. Each message names the fact it must
form as (subject, a fragment of the attribute or "=" for the attribute the conversation's first fact took,
a fragment of the value); None means the message must form no fact. No message may form a fact whose
value is a filler word ("wrong", "instead")."""

from __future__ import annotations

import pytest
from extract_helpers import extract

M = "Mira"
SAME = "="
# fmt: off
PROBES: list[list[tuple[str, tuple[str, str, str] | None]]] = [
    [("The dentist appointment is on Thursday at 3.", (M, "dentist", "2026-03-05")),
     ("Oops, I meant 4, not 3.", (M, SAME, "16:00"))],
    [("My new phone number is 555 0134.", (M, "phone", "555 0134")),
     ("Wait, that's wrong — it's 555 0143.", (M, SAME, "555 0143"))],
    [("Our anniversary dinner is at Luca's on Friday.", (M, "anniversary", "Luca")),
     ("Change of plan: we're going to Nopa instead.", (M, SAME, "Nopa"))],
    [("My gym is Equinox on 5th.", (M, "gym", "Equinox")),
     ("I switched gyms, I go to Crunch now.", (M, SAME, "Crunch"))],
    [("I weigh 82 kg.", (M, "weight", "82")),
     ("Down to 79 kg this month!", (M, SAME, "79"))],
    [("My daughter Zoe goes to Hillside Elementary.", ("Zoe", "school", "Hillside")),
     ("Zoe transferred to Maple Leaf this fall.", ("Zoe", SAME, "Maple Leaf"))],
    [("The team offsite is in Denver.", (M, "offsite", "Denver")),
     ("Update: the offsite moved to Boulder.", (M, SAME, "Boulder"))],
    [("My landlord is Mr Patel.", (M, "landlord", "Patel"))],
    [("My dog's vet is Dr Alvarez.", (M, "vet", "Alvarez"))],
    [("Rent is 1,450 a month.", (M, "rent", "1,450")),
     ("They raised it, rent is now 1,600.", (M, SAME, "1,600"))],
    [("My flight to Lisbon leaves at 7:40 am.", (M, "flight", "7:40")),
     ("Scratch that, it leaves at 9:15 am.", (M, SAME, "9:15"))],
    [("My doctor is Dr Kim.", (M, "doctor", "Kim")),
     ("I no longer see Dr Kim, my doctor is Dr Osei now.", (M, "doctor", "Osei"))],
    [("My wifi password: sunflower42", (M, "wifi", "sunflower42"))],
    [("My car is a Toyota Corolla.", (M, "car", "Corolla")),
     ("I sold the Corolla, I drive a Mazda 3 now.", (M, SAME, "Mazda"))],
    [("I work at Shopify.", (M, "employer", "Shopify")),
     ("I'm at Stripe now.", (M, SAME, "Stripe"))],
    [("I live in Austin.", (M, "residence", "Austin")),
     ("We moved to Denver last month.", (M, SAME, "Denver"))],
    [("My sister Ana lives in Porto.", ("Ana", "residence", "Porto")),
     ("She moved to Braga in June.", ("Ana", SAME, "Braga"))],
    [("My son Leo is 7.", ("Leo", "age", "7"))],
    [("My brother works at Google.", ("Mira's brother", "employer", "Google")),
     ("My brother joined Apple.", ("Mira's brother", SAME, "Apple"))],
    [("The parent-teacher meeting is on May 12.", (M, "meeting", "2026-05-12")),
     ("Correction: it's May 14.", (M, SAME, "2026-05-14"))],
    [("My passport expires on August 3, 2027.", (M, "passport", "2027-08-03"))],
    [("The plumber comes tomorrow at 10.", (M, "plumber", "2026-03-03"))],
    [("Our book club meets on Wednesdays.", None)],
    [("I'm vegetarian.", (M, "diet", "vegetarian")),
     ("I've gone vegan.", (M, SAME, "vegan"))],
    [("My favourite coffee shop is Blue Bottle.", (M, "coffee", "Blue Bottle")),
     ("These days my favourite coffee shop is Sightglass.", (M, SAME, "Sightglass"))],
    [("Book a table for four people at 8.", (M, "table", "four")),
     ("Make it six.", (M, SAME, "six"))],
    [("My manager is Priya.", (M, "manager", "Priya")),
     ("Priya left, my new manager is Tom.", (M, SAME, "Tom"))],
    [("The wedding is on June 20.", (M, "wedding", "2026-06-20")),
     ("Update: the wedding got pushed to June 27.", (M, SAME, "2026-06-27"))],
    [("My cat is called Miso.", (M, "cat", "Miso"))],
    [("The recital is at 6 pm on Saturday.", (M, "recital", "18:00")),
     ("Make it 6:30.", (M, SAME, "18:30"))],
    [("My email is mira@example.com.", (M, "email", "mira@example.com")),
     ("Please use mira.lee@work.com from now on.", (M, SAME, "mira.lee@work.com"))],
    [("My hairdresser is Jo.", (M, "hairdresser", "Jo")),
     ("Actually, it's Joanna, not Jo.", (M, SAME, "Joanna"))],
    [("My goal is 10,000 steps a day.", (M, "goal", "10,000")),
     ("My goal is now 12,000 steps.", (M, SAME, "12,000"))],
    [("My salary is 85k.", (M, "salary", "85k")),
     ("I got a raise, my salary is 92k now.", (M, SAME, "92k"))],
    [("I'm allergic to penicillin.", (M, "allergy.penicillin", "true"))],
    [("My mom lives in Cork.", ("Mira's mother", "residence", "Cork")),
     ("Actually she lives in Galway.", ("Mira's mother", SAME, "Galway"))],
    [("I'm learning the violin.", (M, "instrument", "violin"))],
    [("It was a lovely day at the beach.", None)],
    [("What time is the dentist appointment?", None)],
    [("If I move to Berlin I'll need a new bank.", None)],
    [("My new address is 12 Elm Street.", (M, "address", "12 Elm Street")),
     ("No wait, it's 21 Elm Street.", (M, SAME, "21 Elm Street"))],
    [("The car service is booked for next Tuesday.", (M, "car_service", "2026-03-10")),
     ("They moved it to Thursday.", (M, SAME, "2026-03-12"))],
    [("My train is at 8:10.", (M, "train", "8:10")),
     ("New timetable: I catch the 8:25 now.", (M, SAME, "8:25"))],  # the ride held is the train
]
# a second batch, written after the first passed and measured before any fix for it (10 of 25 passed on
# the grammar before this work, 19 of 25 after the first batch's fixes), with negatives for the new rules
PROBES += [
    [("Diet is hard.", None)],
    [("Weight is a problem for me.", None)],
    [("Book a table for four people.", (M, "table", "four")), ("Make it 6.", (M, SAME, "6"))],
    [("The dentist is on Friday at 2.", (M, "dentist", "2026-03-06T14:00")),
     ("Book a table for two people.", (M, "table", "two")), ("Make it 3.", (M, "table", "3"))],
    [("The problem is my boss.", None)],
    [("My yoga class is on Tuesdays at 6.", (M, "yoga", "Tuesdays"))],
    [("The kids' swim lesson is on Saturday at 9.", (M, "swim", "2026-03-07T09:00")),
     ("Sorry, I meant 10, not 9.", (M, SAME, "2026-03-07T10:00"))],
    [("Our vet is Dr Ruiz.", (M, "vet", "Ruiz")),
     ("We switched vets, we take Biscuit to Dr Chen now.", (M, SAME, "Chen"))],
    [("My commute is 40 minutes.", (M, "commute", "40")),
     ("Down to 25 minutes since the new line opened!", (M, SAME, "25"))],
    [("The book launch is in Chicago.", (M, "launch", "Chicago")),
     ("Update: the launch moved to Milwaukee.", (M, SAME, "Milwaukee"))],
    [("My son Max goes to Oakridge Middle.", ("Max", "school", "Oakridge")),
     ("Max switched to Brookside this year.", ("Max", SAME, "Brookside"))],
    [("My pharmacy is Walgreens on Main.", (M, "pharmacy", "Walgreens")),
     ("I changed pharmacies, I use CVS now.", (M, SAME, "CVS"))],
    [("The board meeting is on March 18 at 2.", (M, "board", "2026-03-18T14:00")),
     ("Make it 3.", (M, SAME, "2026-03-18T15:00"))],
    [("My locker code is 4471.", (M, "locker", "4471")),
     ("Wait, that's not right — it's 4417.", (M, SAME, "4417"))],
    [("Rent is $2,100 a month.", (M, "rent", "2,100")),
     ("Update: rent is now $2,250.", (M, SAME, "2,250"))],
    [("Sam is in Paris this week.", None)],
    [("I switched teams at work.", None)],
    [("Make it to the gym if you can!", None)],
    [("Life is good.", None)],
    [("Dinner was at Nopa last night.", None)],
    [("Our neighbour's cat is in the garden again.", None)],
    [("My train leaves at 8:05.", (M, "train", "8:05")),
     ("Correction: it leaves at 8:35.", (M, SAME, "8:35"))],
    [("The housewarming is at Priya's on Saturday.", (M, "housewarming", "")),
     ("Change of plans, we're going to Dev's instead.", (M, SAME, "Dev"))],
    [("My blood pressure goal is 120.", (M, "blood", "120"))],
    [("I weigh 180 lbs.", (M, "weight", "180")),
     ("I'm down to 172 lbs now.", (M, SAME, "172"))],
    [("My brother Omar works at Tesla.", ("Omar", "employer", "Tesla")),
     ("Omar transferred to SpaceX in May.", ("Omar", SAME, "SpaceX"))],
    [("The school play is on Friday.", (M, "play", "2026-03-06")),
     ("Oops, it's on Thursday, not Friday.", (M, SAME, "2026-03-05"))],
    [("My PIN: 2580", (M, "pin", "2580"))],
    [("The deadline is May 1.", (M, "deadline", "2026-05-01")),
     ("Update: the deadline got pushed to May 8.", (M, SAME, "2026-05-08"))],
    [("Weight is 70 kg.", (M, "weight", "70"))],
]
# a third batch, measured before its fixes (12 of 19 passed): amounts moving up, parts of a day, a
# weekday read against the day it moves, "no longer X, it's Y"
PROBES += [
    [("Our plumber is Gus.", (M, "plumber", "Gus")),
     ("We don't use Gus anymore, our plumber is now Ray.", (M, SAME, "Ray"))],
    [("Parent conference is next Wednesday at 4.", (M, "conference", "2026-03-11T16:00"))],
    [("My internet bill is $65.", (M, "internet", "65")),
     ("Internet bill went up to $80.", (M, SAME, "80"))],
    [("The tournament is in Reno.", (M, "tournament", "Reno")),
     ("Heads up: the tournament moved to Sparks.", (M, SAME, "Sparks"))],
    [("My therapist is Dr Lowe.", (M, "therapist", "Lowe")),
     ("I meant Dr Lowry, not Dr Lowe.", (M, SAME, "Lowry"))],
    [("My daughter's bedtime is 8:30.", ("Mira's daughter", "bedtime", "8:30")),
     ("We moved her bedtime to 8.", ("Mira's daughter", SAME, "8"))],
    [("The dog's vet appointment is Monday at 11.", (M, "vet", "2026-03-09T11:00")),
     ("They moved it to Tuesday.", (M, SAME, "2026-03-10"))],
    [("My running buddy is Kai.", (M, "running", "Kai"))],
    [("I'm at 3 km a day.", None)],
    [("I run 5k every morning.", None)],
    [("My sister Lena works at Deloitte.", ("Lena", "employer", "Deloitte")),
     ("Lena's at PwC now.", ("Lena", SAME, "PwC"))],
    [("The field trip is on April 9.", (M, "field", "2026-04-09")),
     ("Actually it's April 10.", (M, SAME, "2026-04-10"))],
    [("My monthly budget is 2,000.", (M, "budget", "2,000")),
     ("Make that 1,800.", (M, SAME, "1,800"))],
    [("I take the 7:15 bus.", (M, "bus", "7:15")),
     ("These days I take the 7:45 bus.", (M, SAME, "7:45"))],
    [("Our landlord is Greg.", (M, "landlord", "Greg")),
     ("The building was sold, our landlord is now Hana.", (M, SAME, "Hana"))],
    [("My favorite restaurant is Zuni.", (M, "restaurant", "Zuni")),
     ("No longer Zuni, it's Flour + Water now.", (M, SAME, "Flour"))],
    [("The concert is tonight at 8.", (M, "concert", "2026-03-02T20:00"))],
    [("I owe Sam 40 dollars.", None)],
    [("That was fun.", None)],
]
# a fourth batch, written after the fixes above and measured before its own (11 of 15 passed)
PROBES += [
    [("My mechanic is Luis.", (M, "mechanic", "Luis")),
     ("Luis retired, so my mechanic is now Bea.", (M, SAME, "Bea"))],
    [("The recital is on May 3 at 5.", (M, "recital", "2026-05-03T17:00")),
     ("Oops, 6 not 5.", (M, SAME, "2026-05-03T18:00"))],
    [("My gate code is 1962.", (M, "gate", "1962")),
     ("Sorry, that's wrong, it's 1692.", (M, SAME, "1692"))],
    [("Our Friday standup is at 9:30.", (M, "standup", "9:30")),
     ("Standup moved to 10.", (M, SAME, "10"))],
    [("The reunion is in Cleveland.", (M, "reunion", "Cleveland")),
     ("The reunion moved to Columbus.", (M, SAME, "Columbus"))],
    [("My physio is Dr Brandt.", (M, "physio", "Brandt")),
     ("I changed physios, I see Dr Moss now.", (M, SAME, "Moss"))],
    [("My cholesterol is 240.", (M, "cholesterol", "240")),
     ("Cholesterol is down to 190!", (M, SAME, "190"))],
    [("My nephew Theo studies at Reed College.", ("Theo", "school", "Reed")),
     ("Theo transferred to Whitman.", ("Theo", SAME, "Whitman"))],

    [("My savings goal is $5,000.", (M, "goal", "5,000")),
     ("Make it $6,000.", (M, SAME, "6,000"))],
    [("Our babysitter is Nora.", (M, "babysitter", "Nora")),
     ("Not Nora anymore, it's Bella now.", (M, SAME, "Bella"))],
    [("I'm tired today.", None)],
    [("The movie was great.", None)],
    [("My boss is in Tokyo this week.", None)],
    [("Can you move my meeting to 3?", None)],
]
# a fifth batch, written last (9 of 14 passed before its fixes: "extended it to", "they changed it, …")
PROBES += [
    [("We're doing Thanksgiving at my mom's this year.", None)],
    [("Piano lessons are on Wednesdays now.", None)],
    [("I get paid on the 15th.", None)],
    [("My husband Raj is a nurse.", ("Raj", "job", "nurse")),
     ("Raj is a nurse practitioner now.", ("Raj", SAME, "nurse practitioner"))],
    [("I have two cats.", (M, "cat", "2")),
     ("We adopted another one, so three cats now.", (M, SAME, "3"))],
    [("The lease ends June 30.", (M, "lease", "2026-06-30")),
     ("Landlord extended it to August 31.", (M, SAME, "2026-08-31"))],
    [("My daughter Ivy is allergic to eggs.", ("Ivy", "allergy.eggs", "true"))],
    [("Our flight lands at 4:15 pm on Sunday.", (M, "flight", "2026-03-08T16:15"))],
    [("My new address: 88 Birch Lane.", (M, "address", "88 Birch Lane"))],
    [("I'm now going by Alex.", None)],
    # read since replacements.py binds a switch to the earlier value of its shape
    [("My hotel is the Marriott downtown.", (M, "hotel", "Marriott")),
     ("We switched hotels — we're at the Hilton now.", (M, SAME, "Hilton"))],
    # a noun with 's as its copula (a known gap until the bare-noun reading took it)
    [("Flight's at 6:50 tomorrow morning.", (M, "flight", "2026-03-03")),
     ("They changed it, it's 8:20 now.", (M, SAME, "8:20"))],
]
# "at 7" with no am/pm is read as the morning; an evening class is a reading the grammar does not make
AMBIGUOUS = [
    [("The pottery class is on Thursday at 7.", (M, "pottery", "2026-03-05T19:00")),
     ("They moved it to Friday.", (M, SAME, "2026-03-06"))],
]
# fmt: on
FILLER = {"wrong", "instead", "that", "it", "now", "this", "right", "correct"}


def run(conversation):
    """For each message, (expected, the facts it formed)."""
    said, out = [], []
    for text, expected in conversation:
        got = [(f.subject, f.attribute, f.value) for f in extract(text, tuple(said)).facts]
        out.append((expected, got))
        said.append(text)
    return out


def passes(conversation) -> bool:
    first_attr = None
    for expected, got in run(conversation):
        got = [g for g in got if not g[1].startswith("relation.")]
        if any(str(v).strip(" .!").lower() in FILLER for _, _, v in got):
            return False
        if expected is None:
            if got:
                return False
            continue
        subject, attr, value = expected
        hits = [
            g
            for g in got
            if g[0] == subject
            and ((g[1] == first_attr) if attr == SAME else attr in g[1])
            and value.lower() in str(g[2]).lower()
        ]
        if not hits:
            return False
        first_attr = first_attr or hits[0][1]
    return True


@pytest.mark.parametrize("conversation", PROBES, ids=[c[0][0][:40] for c in PROBES])
def test_probe(conversation):
    assert passes(conversation), run(conversation)


@pytest.mark.xfail(strict=True, reason="an hour 7-11 without am/pm is read as the morning")
@pytest.mark.parametrize("conversation", AMBIGUOUS)
def test_evening_hour_without_am_pm(conversation):
    assert passes(conversation), run(conversation)
