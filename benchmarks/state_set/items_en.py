"""English items of state-v1, written by hand. A session is (ISO time, lines); a line "A:..." is the
assistant, "Name|..." another person, anything else the user. A question is (q, as_of or None, answer
spellings, stale spellings); as_of None asks for the current value."""

from __future__ import annotations

import calendar

MONTHS = list(calendar.month_name)[1:]


def day(month: int, d: int, year: int = 2026) -> list[str]:
    """The spellings of a date a context may use."""
    name = MONTHS[month - 1]
    return [f"{name} {d}", f"{d} {name}", f"{name[:3]} {d}", f"{year}-{month:02d}-{d:02d}"]


def item(construct: str, user: str, sessions: list, questions: list) -> dict:
    return {"construct": construct, "user": user, "sessions": sessions, "questions": questions}


ITEMS = [
    # --- changes of place, job, status --------------------------------------------------------
    item(
        "change",
        "Mira",
        [
            (
                "2026-01-12T09:00:00Z",
                ["We rent a flat in Berlin, close to Tempelhof field.", "A:Lovely area."],
            ),
            ("2026-02-20T19:00:00Z", ["Weather has been awful, rain every day.", "A:Sorry to hear."]),
            (
                "2026-04-15T08:30:00Z",
                ["Big news: we moved to Lisbon at the start of the month!", "A:Congratulations!"],
            ),
        ],
        [
            ("Which city does Mira live in now?", None, ["Lisbon"], ["Berlin"]),
            ("Where was Mira living in March 2026?", "2026-03-10", ["Berlin"], ["Lisbon"]),
        ],
    ),
    item(
        "change",
        "Tom",
        [
            ("2026-02-03T10:00:00Z", ["I work as a backend engineer at Shopify.", "A:Cool, Ruby?"]),
            ("2026-02-03T10:05:00Z", ["Mostly Ruby, some Go."]),
            ("2026-06-09T17:00:00Z", ["Quick update - I'm at Stripe now, started Monday.", "A:Exciting!"]),
        ],
        [
            ("Where does Tom work?", None, ["Stripe"], ["Shopify"]),
            ("Which company employed Tom in April?", "2026-04-01", ["Shopify"], ["Stripe"]),
        ],
    ),
    item(
        "change",
        "Priya",
        [
            ("2026-03-01T12:00:00Z", ["My phone number is 415-555-0132 if the courier needs it."]),
            ("2026-03-01T12:01:00Z", ["A:Saved."]),
            ("2026-05-18T09:00:00Z", ["I got a new number, it's 415-555-0199. The old one is dead."]),
        ],
        [
            ("What is Priya's phone number?", None, ["415-555-0199"], ["415-555-0132"]),
            ("What was Priya's phone number in April?", "2026-04-10", ["415-555-0132"], ["415-555-0199"]),
        ],
    ),
    item(
        "change",
        "Daniel",
        [
            ("2026-01-20T20:00:00Z", ["I drive a 2015 Honda Civic, still runs great.", "A:Reliable car."]),
            ("2026-03-22T11:00:00Z", ["I drive a Tesla Model 3 these days, sold the old one."]),
            ("2026-03-22T11:02:00Z", ["A:How do you like it?", "Quiet. Charging is a bit of a hassle."]),
        ],
        [
            ("What car does Daniel drive?", None, ["Model 3", "Tesla"], ["Civic"]),
            ("What was Daniel driving in February?", "2026-02-15", ["Civic"], ["Tesla", "Model 3"]),
        ],
    ),
    item(
        "change",
        "Grace",
        [
            ("2026-04-02T08:00:00Z", ["I'm vegetarian, so no meat in the recipes please."]),
            ("2026-04-02T08:01:00Z", ["A:Got it, vegetarian recipes only."]),
            ("2026-07-10T18:00:00Z", ["I've gone fully vegan since June, so no dairy or eggs either."]),
        ],
        [
            ("What diet does Grace follow?", None, ["vegan"], ["vegetarian"]),
            ("What diet did Grace follow in May?", "2026-05-15", ["vegetarian"], ["vegan"]),
        ],
    ),
    item(
        "change",
        "Omar",
        [
            ("2026-01-05T09:00:00Z", ["My manager is Claire Dubois.", "A:Noted."]),
            ("2026-01-05T09:02:00Z", ["She's strict about Friday demos but fair."]),
            (
                "2026-05-11T09:00:00Z",
                ["Reorg happened. I report to Kenji Watanabe now.", "A:Hope the transition is smooth."],
            ),
        ],
        [
            ("Who is Omar's manager?", None, ["Kenji"], ["Claire", "Dubois"]),
            ("Who did Omar report to in March?", "2026-03-15", ["Claire"], ["Kenji"]),
        ],
    ),
    item(
        "change",
        "Lena",
        [
            ("2026-02-10T15:00:00Z", ["I'm single, and honestly happy that way."]),
            ("2026-02-10T15:01:00Z", ["A:That's great."]),
            (
                "2026-09-01T15:00:00Z",
                ["Guess what, Jonas and I got engaged last weekend!", "A:Congratulations!"],
            ),
        ],
        [("What is Lena's relationship status?", None, ["engaged"], ["single"])],
    ),
    item(
        "change",
        "Felix",
        [
            ("2026-03-03T10:00:00Z", ["Our team standup is at 9:30 every morning."]),
            ("2026-03-03T10:01:00Z", ["A:Early start."]),
            (
                "2026-04-20T10:00:00Z",
                ["From this week the standup moved to 10:15 because of the US folks.", "A:Makes sense."],
            ),
        ],
        [
            ("What time is Felix's team standup?", None, ["10:15"], ["9:30"]),
            ("What time was Felix's standup at the end of March?", "2026-03-31", ["9:30"], ["10:15"]),
        ],
    ),
    item(
        "change",
        "Sofia",
        [
            ("2026-01-15T21:00:00Z", ["My email is sofia.r@gmail.com for the newsletter."]),
            ("2026-04-01T21:00:00Z", ["Please use sofia@ruizstudio.com from now on, I'm closing the gmail."]),
            ("2026-04-01T21:01:00Z", ["A:Updated."]),
        ],
        [("What is Sofia's email address?", None, ["sofia@ruizstudio.com"], ["sofia.r@gmail.com"])],
    ),
    item(
        "change",
        "Marcus",
        [
            ("2026-02-14T13:00:00Z", ["My favourite band is Radiohead, always has been."]),
            ("2026-02-14T13:01:00Z", ["A:Which album?", "OK Computer, obviously."]),
            ("2026-08-30T13:00:00Z", ["Honestly these days my favourite band is Khruangbin."]),
        ],
        [("What is Marcus's favourite band now?", None, ["Khruangbin"], ["Radiohead"])],
    ),
    # --- corrections ---------------------------------------------------------------------------
    item(
        "correction",
        "Hannah",
        [
            (
                "2026-03-02T09:00:00Z",
                [
                    "The dentist appointment is on March 18.",
                    "A:I'll remind you the day before.",
                    "Actually no, I checked the card, it's March 24.",
                ],
            ),
        ],
        [("When is Hannah's dentist appointment?", None, day(3, 24), day(3, 18))],
    ),
    item(
        "correction",
        "Ravi",
        [
            ("2026-05-05T14:00:00Z", ["My flight to Toronto leaves at 6:40 pm on Thursday."]),
            ("2026-05-05T14:01:00Z", ["A:Want a reminder?"]),
            ("2026-05-05T14:03:00Z", ["Scratch that, the airline moved it to 8:05 pm."]),
        ],
        [("What time does Ravi's flight to Toronto leave?", None, ["8:05"], ["6:40"])],
    ),
    item(
        "correction",
        "Chloe",
        [
            ("2026-02-09T11:00:00Z", ["My daughter's school is Maple Grove Elementary."]),
            ("2026-02-09T11:02:00Z", ["A:Noted.", "Sorry, I meant Maple Ridge Elementary."]),
        ],
        [("Which school does Chloe's daughter attend?", None, ["Maple Ridge"], ["Maple Grove"])],
    ),
    item(
        "correction",
        "Ben",
        [
            ("2026-06-01T09:00:00Z", ["Budget for the offsite is 12,000 euros.", "A:OK."]),
            ("2026-06-02T09:00:00Z", ["Correction on the offsite budget: finance approved 9,500 euros."]),
        ],
        [("What is the offsite budget Ben mentioned?", None, ["9,500", "9500"], ["12,000", "12000", "12k"])],
    ),
    item(
        "correction",
        "Isla",
        [
            (
                "2026-03-09T16:00:00Z",
                [
                    "Book the table for six people.",
                    "A:Six it is.",
                    "Wait, make it eight, my cousins are coming.",
                ],
            ),
        ],
        [("How many people is Isla's table for?", None, ["eight", "8 people", "8 guests"], ["six"])],
    ),
    item(
        "correction",
        "Noah",
        [
            ("2026-04-13T10:00:00Z", ["My gym membership renews on the 1st of every month."]),
            ("2026-04-13T10:02:00Z", ["A:Noted."]),
            ("2026-04-20T10:00:00Z", ["I was wrong earlier, the gym actually renews on the 15th."]),
        ],
        [("When does Noah's gym membership renew?", None, ["15th"], ["1st"])],
    ),
    item(
        "correction",
        "Eva",
        [
            (
                "2026-01-26T19:00:00Z",
                [
                    "My size is a medium for the team hoodie.",
                    "A:Medium, noted.",
                    "Hmm, on second thought put me down for a large, they run small.",
                ],
            ),
        ],
        [("What hoodie size does Eva want?", None, ["large"], ["medium"])],
    ),
    item(
        "correction",
        "Lucas",
        [
            ("2026-05-12T08:00:00Z", ["The wifi password at the cabin is pinecone42."]),
            ("2026-05-12T08:01:00Z", ["A:Saved."]),
            ("2026-05-12T20:00:00Z", ["Oops, typo before - the cabin wifi password is pinecone24."]),
        ],
        [("What is the cabin's wifi password?", None, ["pinecone24"], ["pinecone42"])],
    ),
    item(
        "correction",
        "Amara",
        [
            ("2026-07-06T09:00:00Z", ["My allergy is to peanuts, please tell the caterer."]),
            (
                "2026-07-06T09:02:00Z",
                ["A:Will do.", "No wait, it's tree nuts. I mixed it up with my brother's."],
            ),
        ],
        [("What is Amara allergic to?", None, ["tree nut"], ["peanut"])],
    ),
    item(
        "correction",
        "Jack",
        [
            ("2026-02-16T12:00:00Z", ["The launch is set for September 9.", "A:Big day."]),
            ("2026-02-16T12:30:00Z", ["Let me correct that: the launch is September 23."]),
            ("2026-02-16T12:31:00Z", ["A:Updated."]),
        ],
        [("When is Jack's launch?", None, day(9, 23), day(9, 9))],
    ),
    # --- third-party facts ------------------------------------------------------------------
    item(
        "third-party",
        "Mira",
        [
            ("2026-02-02T10:00:00Z", ["My sister Ana lives in Madrid with her two cats."]),
            ("2026-02-02T10:01:00Z", ["A:Do you visit often?", "Every summer."]),
            ("2026-06-15T10:00:00Z", ["My sister Ana now lives in Porto, she got a job at the university."]),
        ],
        [
            ("Where does Ana live?", None, ["Porto"], ["Madrid"]),
            ("Where did Mira's sister live in May?", "2026-05-01", ["Madrid"], ["Porto"]),
        ],
    ),
    item(
        "third-party",
        "Kofi",
        [
            ("2026-03-10T18:00:00Z", ["My brother Yaw works at Deloitte as an auditor."]),
            ("2026-03-10T18:01:00Z", ["A:Busy season for him."]),
            ("2026-08-04T18:00:00Z", ["Yaw changed jobs, he's with the central bank now."]),
        ],
        [
            ("Where does Kofi's brother Yaw work?", None, ["central bank"], ["Deloitte"]),
            ("Where did Yaw work in June?", "2026-06-01", ["Deloitte"], ["central bank"]),
        ],
    ),
    item(
        "third-party",
        "Sarah",
        [
            ("2026-01-08T09:00:00Z", ["Our dog Biscuit weighs 14 kilos, the vet says he's fine."]),
            (
                "2026-04-08T09:00:00Z",
                ["A:How's Biscuit?", "He's up to 17 kilos, too many treats from grandma."],
            ),
        ],
        [
            ("How much does Biscuit weigh?", None, ["17 kilo", "17 kg"], ["14 kilo", "14 kg"]),
            (
                "How much did Biscuit weigh in February?",
                "2026-02-15",
                ["14 kilo", "14 kg"],
                ["17 kilo", "17 kg"],
            ),
        ],
    ),
    item(
        "third-party",
        "Jun",
        [
            (
                "2026-02-01T07:00:00Z",
                ["My mom's birthday dinner is at Osteria Nonna.", "A:Sounds delicious."],
            ),
            (
                "2026-02-05T07:00:00Z",
                ["My mom changed her mind, she wants the dinner at Sakura House instead."],
            ),
        ],
        [("Where is Jun's mom's birthday dinner?", None, ["Sakura House"], ["Osteria Nonna"])],
    ),
    item(
        "third-party",
        "Olivia",
        [
            ("2026-03-16T13:00:00Z", ["My colleague Pete is the on-call lead this quarter."]),
            ("2026-03-16T13:02:00Z", ["A:OK."]),
            (
                "2026-05-04T13:00:00Z",
                ["Dana took over as on-call lead while the old lead is on paternity leave."],
            ),
        ],
        [("Who is the on-call lead at Olivia's work?", None, ["Dana"], ["Pete"])],
    ),
    item(
        "third-party",
        "Carlos",
        [
            ("2026-01-19T20:00:00Z", ["My dad is 64 and still runs every morning."]),
            ("2026-01-19T20:01:00Z", ["A:Impressive."]),
            ("2026-02-28T20:00:00Z", ["We celebrated dad's birthday yesterday, he's 65 now!"]),
        ],
        [("How old is Carlos's dad?", None, ["65"], ["64"])],
    ),
    item(
        "third-party",
        "Yuki",
        [
            ("2026-04-04T10:00:00Z", ["My roommate Beth studies law at McGill."]),
            ("2026-04-04T10:01:00Z", ["A:Tough program."]),
            ("2026-09-12T10:00:00Z", ["Beth is doing architecture now, can you believe it."]),
        ],
        [
            ("What does Beth study?", None, ["architecture"], ["law"]),
            ("What was Beth studying in the summer?", "2026-07-15", ["law"], ["architecture"]),
        ],
    ),
    item(
        "third-party",
        "Nadia",
        [
            ("2026-05-20T11:00:00Z", ["My grandmother is in St. Mary's hospital after the fall."]),
            ("2026-05-20T11:01:00Z", ["A:I hope she recovers quickly."]),
            ("2026-06-03T11:00:00Z", ["Good news, grandma is back home now and walking with a cane."]),
        ],
        [("Where is Nadia's grandmother now?", None, ["home"], ["hospital"])],
    ),
    # --- a similar fact about a different subject must not supersede ------------------------------
    item(
        "other-subject",
        "Mira",
        [
            ("2026-03-02T09:00:00Z", ["My passport expires on August 20.", "A:Noted."]),
            ("2026-03-04T09:00:00Z", ["My son Leo's passport expires on November 3."]),
            ("2026-03-04T09:01:00Z", ["A:Two renewals then.", "Mine first, I guess."]),
        ],
        [
            ("When does Mira's passport expire?", None, day(8, 20), []),
            ("When does Leo's passport expire?", None, day(11, 3), []),
        ],
    ),
    item(
        "other-subject",
        "Ahmed",
        [
            ("2026-02-11T08:00:00Z", ["I live in Manchester, in Didsbury."]),
            ("2026-02-11T08:01:00Z", ["A:Nice."]),
            ("2026-02-25T08:00:00Z", ["My brother Karim just moved to Leeds for his PhD."]),
        ],
        [
            ("Which city does Ahmed live in?", None, ["Manchester"], []),
            ("Where does Karim live?", None, ["Leeds"], []),
        ],
    ),
    item(
        "other-subject",
        "Julia",
        [
            ("2026-04-07T12:00:00Z", ["My birthday is October 2."]),
            ("2026-04-07T12:01:00Z", ["A:I'll remember."]),
            ("2026-04-09T12:00:00Z", ["My husband Marco's birthday is December 14, help me plan something."]),
        ],
        [
            ("When is Julia's birthday?", None, day(10, 2), []),
            ("When is Marco's birthday?", None, day(12, 14), []),
        ],
    ),
    item(
        "other-subject",
        "Peter",
        [
            ("2026-01-13T09:00:00Z", ["I work at Siemens in Munich."]),
            ("2026-01-13T09:01:00Z", ["A:Which division?", "Mobility."]),
            ("2026-03-03T09:00:00Z", ["My wife started at BMW last week, she's thrilled."]),
        ],
        [
            ("Where does Peter work?", None, ["Siemens"], []),
            ("Where does Peter's wife work?", None, ["BMW"], []),
        ],
    ),
    item(
        "other-subject",
        "Emma",
        [
            ("2026-05-06T17:00:00Z", ["My flight home is on June 12."]),
            ("2026-05-06T17:02:00Z", ["A:Noted."]),
            ("2026-05-08T17:00:00Z", ["My mum's flight is June 19, she's staying a week longer."]),
        ],
        [
            ("When is Emma's flight home?", None, day(6, 12), []),
            ("When is Emma's mum's flight?", None, day(6, 19), []),
        ],
    ),
    item(
        "other-subject",
        "Victor",
        [
            ("2026-02-17T10:00:00Z", ["My phone is a Pixel 8."]),
            ("2026-02-17T10:01:00Z", ["A:Good camera."]),
            ("2026-02-24T10:00:00Z", ["Bought my daughter an iPhone 15 for her birthday."]),
        ],
        [
            ("What phone does Victor have?", None, ["Pixel 8"], []),
            ("What phone does Victor's daughter have?", None, ["iPhone 15"], []),
        ],
    ),
    item(
        "other-subject",
        "Zara",
        [
            ("2026-06-22T09:00:00Z", ["My team's deadline for the audit is July 31."]),
            ("2026-06-22T09:01:00Z", ["A:Tight."]),
            ("2026-06-24T09:00:00Z", ["The marketing team's deadline for the campaign is July 10."]),
            ("2026-06-24T09:02:00Z", ["A:Two deadlines in July."]),
        ],
        [("When is the audit deadline for Zara's team?", None, day(7, 31), [])],
    ),
    item(
        "other-subject",
        "Liam",
        [
            ("2026-03-23T19:00:00Z", ["My favourite food is ramen."]),
            ("2026-03-23T19:01:00Z", ["A:Tonkotsu or shoyu?", "Tonkotsu."]),
            (
                "2026-03-25T19:00:00Z",
                ["My girlfriend's favourite food is paella, for the anniversary dinner."],
            ),
        ],
        [
            ("What is Liam's favourite food?", None, ["ramen"], []),
            ("What is Liam's girlfriend's favourite food?", None, ["paella"], []),
        ],
    ),
]
