"""English items of state-v1, continued: values that change twice, relative dates, and mixes with chit-chat
(same shape as items_en.py)."""

from __future__ import annotations

from benchmarks.state_set.items_en import day, item

ITEMS = [
    # --- values that change twice ----------------------------------------------------------------
    item(
        "twice",
        "Mira",
        [
            ("2026-03-02T09:00:00Z", ["My passport renewal deadline is July 15."]),
            ("2026-03-02T09:01:00Z", ["A:Noted."]),
            ("2026-03-20T18:00:00Z", ["Correction: the passport deadline is June 30."]),
            ("2026-04-10T10:00:00Z", ["They extended it again, the passport deadline is now August 5."]),
            ("2026-04-10T10:01:00Z", ["A:More time, good."]),
        ],
        [
            ("When is Mira's passport renewal due?", None, day(8, 5), day(7, 15) + day(6, 30)),
            (
                "What was Mira's passport deadline in early April?",
                "2026-04-01",
                day(6, 30),
                day(7, 15) + day(8, 5),
            ),
            (
                "What was Mira's passport deadline in early March?",
                "2026-03-10",
                day(7, 15),
                day(6, 30) + day(8, 5),
            ),
        ],
    ),
    item(
        "twice",
        "Sam",
        [
            ("2026-01-05T09:00:00Z", ["I live in Austin.", "A:Great food there."]),
            ("2026-04-06T09:00:00Z", ["We relocated to Denver in March.", "A:Mountains!"]),
            ("2026-09-07T09:00:00Z", ["And we've moved again, Seattle this time. Last move, I promise."]),
        ],
        [
            ("Where does Sam live?", None, ["Seattle"], ["Austin", "Denver"]),
            ("Where did Sam live in June?", "2026-06-15", ["Denver"], ["Austin", "Seattle"]),
        ],
    ),
    item(
        "twice",
        "Rosa",
        [
            ("2026-02-02T09:00:00Z", ["I'm a junior designer at Figma.", "A:Nice."]),
            ("2026-05-04T09:00:00Z", ["I got promoted, I'm a senior designer now!"]),
            ("2026-10-05T09:00:00Z", ["Another step up: I'm design lead as of this month."]),
            ("2026-10-05T09:01:00Z", ["A:Well deserved."]),
        ],
        [
            ("What is Rosa's role?", None, ["design lead"], ["junior designer", "senior designer"]),
            (
                "What was Rosa's role in July?",
                "2026-07-01",
                ["senior designer"],
                ["junior designer", "design lead"],
            ),
        ],
    ),
    item(
        "twice",
        "Ethan",
        [
            ("2026-03-09T10:00:00Z", ["The quarterly review is scheduled for May 14."]),
            ("2026-03-16T10:00:00Z", ["They pushed the quarterly review to May 21."]),
            ("2026-03-16T10:01:00Z", ["A:Noted."]),
            ("2026-03-30T10:00:00Z", ["Ugh, review moved once more, now it's May 28."]),
        ],
        [
            ("When is Ethan's quarterly review?", None, day(5, 28), day(5, 14) + day(5, 21)),
            (
                "When was Ethan's quarterly review planned as of March 20?",
                "2026-03-20",
                day(5, 21),
                day(5, 14) + day(5, 28),
            ),
        ],
    ),
    item(
        "twice",
        "Maya",
        [
            ("2026-01-12T08:00:00Z", ["I'm training for a half marathon, my goal is 2:05."]),
            ("2026-01-12T08:01:00Z", ["A:Doable."]),
            ("2026-03-01T08:00:00Z", ["Training is going well, new goal is 1:58."]),
            ("2026-04-01T08:00:00Z", ["Sprained my ankle. Goal is back to just finishing under 2:15."]),
        ],
        [
            ("What is Maya's half marathon goal?", None, ["2:15"], ["2:05", "1:58"]),
            ("What was Maya's goal in mid-March?", "2026-03-15", ["1:58"], ["2:05", "2:15"]),
        ],
    ),
    item(
        "twice",
        "Arjun",
        [
            ("2026-02-18T21:00:00Z", ["Our office is on the 4th floor of the Granite building."]),
            ("2026-05-18T21:00:00Z", ["We moved up to the 9th floor, more light."]),
            ("2026-05-18T21:01:00Z", ["A:Nice."]),
            ("2026-08-18T21:00:00Z", ["Company downsized, we're on the 2nd floor now."]),
        ],
        [
            ("Which floor is Arjun's office on?", None, ["2nd"], ["4th", "9th"]),
            ("Which floor was Arjun's office on in July?", "2026-07-01", ["9th"], ["4th", "2nd"]),
        ],
    ),
    item(
        "twice",
        "Helen",
        [
            ("2026-04-14T12:00:00Z", ["My son Max plays the violin."]),
            ("2026-04-14T12:01:00Z", ["A:Lovely."]),
            ("2026-06-14T12:00:00Z", ["Max gave that up, he's into the drums now. Loud house."]),
            ("2026-09-14T12:00:00Z", ["Max is on the trumpet now. Pray for our neighbours."]),
        ],
        [
            ("Which instrument does Max play?", None, ["trumpet"], ["violin", "drums"]),
            ("Which instrument did Max play in August?", "2026-08-01", ["drums"], ["violin", "trumpet"]),
        ],
    ),
    # --- relative dates resolved against the session's time ------------------------------------
    item(
        "relative",
        "Mira",
        [
            ("2026-03-07T09:00:00Z", ["The contract signing is next Friday.", "A:I'll keep it in mind."]),
            ("2026-03-07T09:05:00Z", ["Also the coffee machine broke again."]),
        ],
        [("When is Mira's contract signing?", None, day(3, 13), [])],
    ),
    item(
        "relative",
        "Owen",
        [
            ("2026-05-04T10:00:00Z", ["My exam is on June 2.", "A:Good luck."]),
            ("2026-05-11T10:00:00Z", ["They moved my exam up, it's tomorrow now! Panic."]),
        ],
        [("When is Owen's exam?", None, day(5, 12), day(6, 2))],
    ),
    item(
        "relative",
        "Grace",
        [
            ("2026-06-01T09:00:00Z", ["The movers come in two weeks.", "A:Packing time."]),
            ("2026-06-01T09:02:00Z", ["Boxes everywhere already."]),
        ],
        [("When do the movers come for Grace?", None, day(6, 15), [])],
    ),
    item(
        "relative",
        "Leo",
        [
            ("2026-04-06T18:00:00Z", ["The team dinner is on April 24."]),
            ("2026-04-06T18:01:00Z", ["A:Noted."]),
            ("2026-04-13T18:00:00Z", ["Change of plan: team dinner is this Thursday instead."]),
        ],
        [
            ("When is Leo's team dinner?", None, day(4, 16), day(4, 24)),
            ("When was Leo's team dinner planned as of April 10?", "2026-04-10", day(4, 24), day(4, 16)),
        ],
    ),
    item(
        "relative",
        "Nina",
        [
            ("2026-02-02T12:00:00Z", ["I fly to Oslo the day after tomorrow.", "A:Pack warm."]),
        ],
        [("When does Nina fly to Oslo?", None, day(2, 4), [])],
    ),
    item(
        "relative",
        "Paul",
        [
            ("2026-09-07T09:00:00Z", ["The board meeting is on September 30."]),
            ("2026-09-07T09:01:00Z", ["A:Noted."]),
            ("2026-09-14T09:00:00Z", ["Board meeting got moved, it's Wednesday next week now."]),
        ],
        [("When is Paul's board meeting?", None, day(9, 23), day(9, 30))],
    ),
    item(
        "relative",
        "Ivy",
        [
            ("2026-01-05T20:00:00Z", ["My lease ends in three months, so I need to decide soon."]),
            ("2026-01-05T20:01:00Z", ["A:Staying or moving?", "Probably moving."]),
        ],
        [("When does Ivy's lease end?", None, day(4, 5), [])],
    ),
    item(
        "relative",
        "Hugo",
        [
            ("2026-10-05T08:00:00Z", ["Car service is booked for October 20."]),
            ("2026-10-12T08:00:00Z", ["Garage called, they can do the car service this Friday instead."]),
            ("2026-10-12T08:01:00Z", ["A:Earlier is better."]),
        ],
        [("When is Hugo's car service?", None, day(10, 16), day(10, 20))],
    ),
    # --- more changes, corrections and mixes, with chit-chat between facts -------------------
    item(
        "change",
        "Chen",
        [
            ("2026-02-09T10:00:00Z", ["I take the 7:45 train to work every day."]),
            ("2026-02-09T10:01:00Z", ["A:Long commute?", "Forty minutes. I read."]),
            ("2026-02-20T10:00:00Z", ["Read a great thriller this week, couldn't put it down."]),
            ("2026-03-30T10:00:00Z", ["New timetable: I catch the 8:10 train now."]),
        ],
        [
            ("Which train does Chen take to work?", None, ["8:10"], ["7:45"]),
            ("Which train did Chen take in early March?", "2026-03-05", ["7:45"], ["8:10"]),
        ],
    ),
    item(
        "change",
        "Ella",
        [
            ("2026-01-21T11:00:00Z", ["I'm learning Spanish, I'm at A2 level.", "A:Keep going!"]),
            ("2026-07-21T11:00:00Z", ["Passed the exam, officially B1 in Spanish now."]),
        ],
        [
            ("What level is Ella's Spanish?", None, ["B1"], ["A2"]),
            ("What level was Ella's Spanish in March?", "2026-03-01", ["A2"], ["B1"]),
        ],
    ),
    item(
        "correction",
        "Martin",
        [
            ("2026-03-11T09:00:00Z", ["The plumber comes Tuesday at 2 pm."]),
            ("2026-03-11T09:01:00Z", ["A:Noted, Tuesday 2 pm."]),
            ("2026-03-11T09:30:00Z", ["Ah I misread the text, it's 4 pm, not 2."]),
        ],
        [("What time does the plumber come to Martin's?", None, ["4 pm", "16:00"], ["2 pm", "14:00"])],
    ),
    item(
        "third-party",
        "Alice",
        [
            ("2026-04-21T09:00:00Z", ["My neighbour Tom drives a red Volvo."]),
            ("2026-04-21T09:01:00Z", ["A:Why do you mention it?", "He keeps parking in my spot."]),
            ("2026-06-02T09:00:00Z", ["Tom has a white Audi now. Still parks in my spot."]),
        ],
        [
            ("What car does Alice's neighbour Tom drive?", None, ["Audi"], ["Volvo"]),
            ("What car did Tom drive in May?", "2026-05-10", ["Volvo"], ["Audi"]),
        ],
    ),
    item(
        "other-subject",
        "Rita",
        [
            ("2026-05-25T10:00:00Z", ["My dentist is Dr. Lopez on Elm Street."]),
            ("2026-05-25T10:01:00Z", ["A:Noted."]),
            ("2026-05-27T10:00:00Z", ["My kids' dentist is Dr. Tan, she's great with children."]),
        ],
        [
            ("Who is Rita's dentist?", None, ["Lopez"], []),
            ("Who is the dentist of Rita's kids?", None, ["Tan"], []),
        ],
    ),
    item(
        "correction",
        "George",
        [
            ("2026-08-03T15:00:00Z", ["My locker at the pool is number 117."]),
            ("2026-08-03T15:01:00Z", ["A:Saved.", "I meant 171, I always mix those up."]),
        ],
        [("What is George's locker number?", None, ["171"], ["117"])],
    ),
    item(
        "change",
        "Bianca",
        [
            ("2026-02-23T09:00:00Z", ["My rent is 1,450 a month."]),
            ("2026-02-23T09:01:00Z", ["A:That's reasonable for the area."]),
            ("2026-07-01T09:00:00Z", ["Landlord raised the rent, it's 1,620 a month from July."]),
        ],
        [
            ("How much is Bianca's rent?", None, ["1,620", "1620"], ["1,450", "1450"]),
            ("How much was Bianca's rent in May?", "2026-05-01", ["1,450", "1450"], ["1,620", "1620"]),
        ],
    ),
    item(
        "third-party",
        "Diego",
        [
            ("2026-03-04T19:00:00Z", ["My daughter Lucia is in third grade."]),
            ("2026-03-04T19:01:00Z", ["A:Fun age."]),
            ("2026-09-02T19:00:00Z", ["School started again, Lucia is in fourth grade now."]),
        ],
        [
            ("Which grade is Lucia in?", None, ["fourth"], ["third"]),
            ("Which grade was Lucia in last spring?", "2026-05-01", ["third"], ["fourth"]),
        ],
    ),
    item(
        "twice",
        "Kate",
        [
            ("2026-01-07T09:00:00Z", ["My go-to coffee order is a flat white."]),
            ("2026-03-07T09:00:00Z", ["Switched to oat cappuccinos, dairy was bothering me."]),
            ("2026-03-07T09:01:00Z", ["A:Noted."]),
            ("2026-06-07T09:00:00Z", ["Cutting caffeine, so it's decaf americano for me now."]),
        ],
        [
            ("What is Kate's usual coffee order?", None, ["decaf americano"], ["flat white", "cappuccino"]),
            ("What did Kate usually order in April?", "2026-04-15", ["cappuccino"], ["flat white", "decaf"]),
        ],
    ),
    item(
        "relative",
        "Sean",
        [
            (
                "2026-05-04T08:00:00Z",
                ["The vet appointment for our cat is next Monday.", "A:Hope it's routine."],
            ),
            ("2026-05-04T08:02:00Z", ["Just vaccines."]),
        ],
        [("When is the vet appointment for Sean's cat?", None, day(5, 11), [])],
    ),
    item(
        "other-subject",
        "Hana",
        [
            ("2026-02-03T10:00:00Z", ["My shoe size is 38."]),
            ("2026-02-03T10:01:00Z", ["A:Noted."]),
            ("2026-02-05T10:00:00Z", ["My husband's shoe size is 44, in case you find a deal for him too."]),
        ],
        [
            ("What is Hana's shoe size?", None, ["38"], []),
            ("What is Hana's husband's shoe size?", None, ["44"], []),
        ],
    ),
]
