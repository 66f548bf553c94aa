"""The English grammar's vocabulary of patterns: openers, correction markers, questions and hypotheticals,
the verb predicates with the attribute each one states, statuses, preferences, counts, value edges, tasks
and decisions. The reading itself is memql.services.extract.rules_en."""

from __future__ import annotations

import re

from memql.lang.time.natural_en import MONTHS
from memql.lang.time.numbers import EN_NUMBER_RE

from .makes import CAR_MAKES

_I = re.I
_SPACE = re.compile(r"\s+")
# Sun-hee, Jean-Luc, Ana Lima, Mrs. Ortiz (a title with its period is part of the name)
# "Dr. Kline", "Mrs. Ortiz": a person by their title (never an organisation)
TITLED_NAME = re.compile(r"(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?")
_NAME = r"(?-i:(?:(?:Mr|Mrs|Ms|Dr|Prof)\.\s)?[A-Z][a-z]+(?:-[a-z]+|[- ][A-Z][a-z]+)?)"
# capitalised words that are not names (sentence openers, pronouns, days, months)
# fmt: off
NOT_NAMES = frozenset((
    "I", "The", "This", "That", "These", "Those", "It", "Its", "My", "Our", "Your", "His", "Her",
    "Their", "We", "He", "She", "They", "There", "Here", "What", "When", "Where", "Who", "Whom",
    "Whose", "How", "Why", "Which", "Yes", "No", "Ok", "Okay", "Oh", "Well", "So", "And", "But", "Or",
    "Also", "Actually", "Finally", "Still", "Recently", "Currently", "Already", "Eventually", "Officially",
    "Correction", "Sorry", "Today", "Tomorrow", "Yesterday", "Monday", "Tuesday",
    "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February", "March", "April",
    "May", "June", "July", "August", "September", "October", "November", "December", "Just", "Now",
    "Then", "Maybe", "Please", "Thanks", "Hey", "Hi", "Hello", "Btw", "Anyway", "Update", "Scratch",
    "Wait", "Nope", "Mine", "Everyone", "Nobody", "Someone", "Everything", "Nothing", "Last", "Next",
    "Every", "Each", "All", "Both", "Dear", "Mr", "Mrs", "Ms", "Dr", "Wow", "Yeah", "Yep", "Sure",
    "Sounds", "Looks", "Seems", "Feels", "Thank", "Congrats", "Congratulations", "Awesome", "Great",
    "Cool", "Nice", "Absolutely", "Definitely", "Totally", "Haha", "Lol", "Omg", "Aww", "Ugh", "Hmm",
    "Noted", "Done", "Got", "Gotcha", "Understood", "Right", "True", "Exactly", "Perfect", "Fine", "Alright",
    "Agreed", "Correct", "Indeed", "Interesting", "Lovely", "Brilliant", "Fantastic", "Wonderful", "Amazing",
    "Welcome", "Bye", "Cheers", "Ah", "Ooh", "Oops", "Yikes", "Whoa", "Oof", "Ouch", "Phew", "Aha",
    "Good", "Glad", "Love", "Happy", "Nah", "Not", "Let", "Can", "Could", "Would", "Should", "Did", "Do",
    "Does", "Is", "Are", "Was", "Were", "Have", "Has", "Had", "Will", "If", "Ha", "Hah", "Heh", "Yay", "Lmao",
    # roles said at the start of a sentence ("Vet put Rex on a diet"): who they are, not a name
    "Vet", "Doctor", "Doc", "Nurse", "Teacher", "Coach", "Boss", "Landlord", "Therapist", "Dentist",
    "Manager", "Mechanic", "Neighbor", "Neighbour", "Babysitter", "Nanny", "Trainer", "Pharmacist",
    # amounts said at the start of a sentence ("Goal is 165"): what they measure, not who
    "Goal", "Target", "Budget", "Rent", "Price", "Score", "Total", "Weight", "Deadline", "Rate",
))
ROLE_OPENING = (  # "Doctor upped my metformin": a role that opens a clause, no name
    r"(?:the\s+|my\s+|our\s+)?(?:vet|doctor|doc|nurse|teacher|coach|boss|landlord|therapist|dentist|manager|"
    r"mechanic|neighbou?r|babysitter|nanny|trainer|pharmacist)\s+"
)
# fmt: on

_DISCOURSE = re.compile(
    r"(?:(?:oh|ok|okay|so|well|also|and|but|btw|by the way|anyway|hey|hi|yeah|yes|fyi|update|news|ah|hmm|um|"
    r"ugh|argh|hm|meh|oof|"
    r"(?:good|big|great|exciting|some) news|guess what|just so you know|quick update|heads up|"
    r"one more thing|in other news|remind me(?: that)?(?!\s+to\b)|"
    r"back from [^,.:;]+|oh and|(?:i )?just wanted to (?:let you know|say|tell you|mention)(?: that)?|"
    r"(?:i )?wanted to (?:let you know|tell you|mention)(?: that)?|just a heads up|quick note|"
    r"(?:a )?little update|life update|these days|nowadays|currently|now|so yeah|honestly|frankly|"
    r"basically|seriously|to be honest|tbh|fun fact|funny enough|turns out|as it turns out|"
    r"long story short|for the record|at the moment|right now)\b[\s,:;!.\-]*)+",
    _I,
)
_CORRECTION = re.compile(
    r"(?:actually|correction|oops|no wait|wait,?\s+no|hold on|hang on|no no|scratch that|strike that|"
    r"(?:scratch|ignore|forget|disregard) what i (?:said|told you)(?: (?:about|regarding|on) "
    r"(?P<about>[^,:.;]+))?|i meant(?: to say)?|i mean|make that|let me correct (?:that|myself)|"
    r"to correct myself|my bad|my mistake|i was wrong|(?:i\s+)?got (?:that|it|the [\w ]{1,20}?) wrong|"
    r"i misspoke|"
    r"not quite|(?:small|quick|minor|one)\s+(?:correction|fix)|fix(?=\s*:)|make it(?=\s+\S)|typo|"
    r"i misremembered|misremembered|wrong \w+(?:,\s*sorry)?(?=\s*[,:;.!\-–—])|"
    r"(?:they|we|i|he|she)\s+(?:have\s+|'ve\s+|just\s+)?(?:changed|updated|moved)\s+(?:it|that)(?=\s*[,:;\-–—])|"
    r"one correction|on second thoughts?|come to think of it|to be (?:precise|exact)|more precisely|"
    r"i (?:misread|misheard|mixed up|mixed (?:it|that|them) up|got confused|confused)(?: [^,;.]+)?|"
    # "sorry", "no", "wait" open a correction only as an interjection: not "sorry to hear", "no problem"
    r"that'?s (?:wrong|not right|incorrect|a mistake)|that was (?:wrong|a mistake)|change of plans?|"
    r"(?:sorry|no|nope|wait)(?=\s*[,:;.!\-–—]|\s*$))\b[\s,:;.!\-–—]*",
    _I,
)
_ACTUALLY = re.compile(r"\b(?:actually|in fact)\b", _I)  # mid-sentence: "the deadline is actually June 30"
_WH_OR_PRONOUN = re.compile(
    r"(?:how|what|that|when|where|why|who|which|whether|your|his|her|their|our|its|it|them|you|him|us|me|"
    r"this|these|those)\b|.*\b(?:them|him|her|you|us|me|it)\b",
    _I,
)  # a preference's object that is a clause or someone else's thing: "I love how…", "I love your turtles"
_BASE_VERB = re.compile(r"(?:love|like|enjoy|adore|hate|dislike|detest|prefer)\b", _I)
_LEADING_TIME = re.compile(r"(?:as of|since|starting|from|beginning)?\s*$", _I)
_AND_PREDICATE = re.compile(
    r",?\s+and\s+(?=(?:now\s+|then\s+|just\s+)?(?:joined|moved|started|switched|relocated|work|works|live|"
    r"lives|am|'m|got|became|is|'s|took|landed|signed|weigh|weighs|drive|drives|teach|teaches)\b)",
    _I,
)
# a change under way or to come: "my landlord is raising my rent to …", "they're going to move it to …"
CHANGING = (
    r"(?:is|are|am|'s|'re|'m|will\s+be)\s+(?:changing|moving|pushing|switching|bumping|upping|raising|"
    r"increasing|lowering|reducing|cutting|dropping|hiking|adjusting|rescheduling|postponing)|"
    r"(?:will|'ll|(?:is|are|'s|'re)\s+going\s+to)\s+(?:change|move|push|switch|bump|up|raise|increase|"
    r"lower|reduce|cut|drop|hike|adjust|reschedule|postpone)"
)
_SUBJECTLESS = re.compile(
    r"(?:just\s+|finally\s+|recently\s+|now\s+)*(?:working|living|moved|relocated|started|joined|based|"
    r"settled|got hired|got a job|got promoted|got posted|got (?:my|our) own|transferred|turned|am turning|"
    r"'m turning|driving|got engaged|got married|got divorced|went (?:vegan|vegetarian|pescatarian|keto)|"
    r"got laid off|got let go|"
    r"cut back|cut down|weighed in|signed up for|(?:usually|normally)\s+(?:in bed|asleep)|"
    r"first\s+(?:full\s+)?(?:day|week|month|shift)\s+(?:at|with))\b|"
    r"(?:my|our|the)\s+landlord\s+(?:charges|is charging|'s charging)\s+(?:me|us)\b|"  # the tenant's rent
    + ROLE_OPENING
    + r"(?:(?:just\s+|finally\s+)?(?:changed|upped|raised|increased|lowered|reduced|cut|adjusted|moved|"
    r"pushed|bumped)|" + CHANGING + r")\s+(?:my|our)\b",
    _I,
)
_HEDGE = re.compile(r"i (?:think|believe|guess|suppose|reckon)(?: that)?\s+", _I)
_QUESTION_START = re.compile(
    r"(?:is|are|am|was|were|do|does|did|can|could|will|would|should|shall|have|has|what|when|where|who|"
    r"whom|whose|how|why|which|isn't|aren't|don't|doesn't|didn't|won't)\b",
    _I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|what if|in case|whether|would|wouldn't|could|couldn't|"
    r"might|maybe|perhaps|possibly|hopefully|wish|wishes|'d|thinking (?:about|of)|considering|dream of|"
    r"plan(?:s|ning)? to|want(?:s|ed)? to|hope to|hoping to|going to|gonna)\b",
    _I,
)
_CONDITIONAL = re.compile(r"(?:if|unless|suppose|supposing|imagine|what if|in case|whether|when)\b", _I)
_PAST = re.compile(r"\b(?:\w+ed|was|were|began|took|got|have|'ve|has)\b", _I)
_REPORTED = re.compile(r"\b(?:said|says|told me|tells me|heard|apparently|claims|rumou?r)\b", _I)
_NEGATION = re.compile(r"\b(?:not|never|no longer)\b|n't\b", _I)  # no word boundary inside "don't"
_ADVERBS = (
    r"(?:(?:now|currently|just|finally|recently|actually|still|also|already|officially|both|all|"
    r"really|happily|then|eventually|permanently|fully|completely|strictly|totally)\s+)*"
)

_COFFEE = (
    r"(?:cappuccino|latte|flat white|americano|espresso|mocha|macchiato|cortado|cold brew|iced coffee|"
    r"black coffee|drip coffee|filter coffee|frappuccino|decaf|lungo|ristretto|matcha|chai|hot chocolate)"
)
# verb predicates: (pattern after the subject, attribute, value kind)
_PREDICATES: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(_ADVERBS + pattern + r"\s+" + _ADVERBS, _I), key, kind)
    for pattern, key, kind in (
        (  # "we live at 14 Elm Street": a number after "at" is an address, not a city
            r"(?:live|lives|living|am living|'m living|are living|'re living|is living|'s living)"
            r"\s+at(?=\s+\d)",
            "address",
            "text",
        ),
        (
            r"(?:live|lives|living|am living|'m living|are living|'re living|is living|'s living|"
            r"have been living|'ve been living|has been living|have lived|'ve lived|has lived|reside|"
            r"resides|am residing|'m residing|am based|'m based|are based|'re based|is based|'s based|"
            r"am settled|'m settled|are settled|'re settled|is settled|'s settled|got settled|"
            r"settled|have settled|'ve settled|has settled|live now|"
            r"(?:am|'m|are|'re|is|'s)\s+now\s+based|stay|stays|"
            r"am staying|'m staying|am renting|'m renting|are renting|'re renting|is renting|'s renting)"
            r"\s+(?:down\s+)?(?:in|at|near|outside|on|out of)",
            "residence",
            "place",
        ),
        (  # "we rent a flat in Berlin", "I own a small house near Porto": a home somewhere is a residence
            r"(?:rent|rents|am renting|'m renting|are renting|'re renting|own|owns|have|has|bought|"
            r"have bought|'ve bought|share|shares|closed on|has closed on|'s closed on|are closing on|"
            r"'re closing on)\s+(?:a|an|our|my|the)\s+(?:[\w-]+\s+){0,2}?"
            r"(?:flat|apartment|house|place|studio|condo|home|room|loft)\s+(?:in|near|outside)",
            "residence",
            "place",
        ),
        (  # "I'm on the payments team", "moved to the fraud team", "joined the identity team": a team
            r"(?:(?:am|'m|are|'re|is|'s|was|were)\s+(?:now\s+)?on|"
            r"(?:moved|transferred|switched|went|got moved)\s+(?:over\s+)?to|"
            r"joined|(?:am|'m|is|'s)\s+joining)\s+the(?=\s+(?:[\w-]+\s+){1,2}?team\b)",
            "team",
            "text",
        ),
        (  # "I'm reading Dune": the book one is on now
            r"(?:am|'m|is|'s|are|'re)\s+(?:currently\s+|now\s+)?(?:reading|re-?reading)(?=\s+(?-i:[A-Z]))",
            "reading",
            "text",
        ),
        (  # "Meg is dating a guy named Paul", "she's seeing someone called Theo now": one's partner
            r"(?:am|'m|are|'re|is|'s|was|were|has been|'s been|have been|'ve been)\s+(?:now\s+)?"
            r"(?:dating|seeing|going out with)(?:\s+(?:a|this)\s+(?:guy|girl|man|woman|boy|lady|dude)|"
            r"\s+someone(?:\s+new)?)?(?:\s+(?:named|called)|,\s+(?:his|her|their)\s+name\s+is)?"
            r"(?=\s+(?-i:[A-Z]))(?!\s+(?:Dr|Doctor|Prof|Professor)\b)",  # "seeing Dr. Alvarez": no partner
            "partner",
            "person",
        ),
        (
            r"(?:moved|have moved|'ve moved|has moved|'s moved|relocated|have relocated|'ve relocated|"
            r"has relocated|am moving|'m moving|are moving|'re moving|is moving|'s moving|have now moved|"
            r"(?:am|'m|are|'re|is|'s)\s+relocating)"
            r"\s+(?:back\s+|over\s+|out\s+|away\s+|house\s+|permanently\s+)?"
            r"(?:from\s+[^,.;]+?\s+)?(?:to|into"  # "we moved from Porto to Lisbon"
            r"|in\s+with\s+[^,.;]+?\s+(?:in|near|outside)(?=\s+(?-i:[A-Z]))"  # "in with my aunt in Phoenix"
            r"|in(?=\s+with\s+(?:us|me|my|our)\b))"  # "she moved in with us / my parents": where they live
            # "we moved into a new place in Leith": the place is where the home is
            r"(?:\s+(?:a|an|our|my|the)\s+(?:new\s+|bigger\s+|smaller\s+|little\s+)?(?:place|flat|apartment|"
            r"house|home|condo|studio)\s+(?:in|near|outside))?",
            "residence",
            "place",
        ),
        (  # "my aunt lives with us": where she lives, in the words said
            r"(?:live|lives|is living|'s living|am living|'m living|are living|'re living)"
            r"(?=\s+with\s+(?:us|me|(?:my|our)\s+))",
            "residence",
            "place",
        ),
        (  # "Aunt Rosa got her own apartment in Queens": a home of one's own is where one lives
            r"(?:got|has got|'s got|found|rented|bought|has bought|'s bought)\s+(?:her|his|my|their|a)\s+"
            r"(?:own\s+)?(?:new\s+)?(?:place|apartment|flat|house|condo|studio)\s+(?:in|near)",
            "residence",
            "place",
        ),
        (  # "my grandpa is in a nursing home in Dayton": a home one is cared for in is where one lives
            r"(?:am|'m|are|'re|is|'s)\s+(?:now\s+)?(?:living\s+)?in(?=\s+(?:(?:a|an|the)\s+(?:[\w-]+\s+)?"
            r"(?:nursing|care|retirement)\s+home\b|assisted living\b))",
            "residence",
            "text",
        ),
        (
            r"(?:am|'m|are|'re|is|'s)\s+(?:now\s+)?(?:back\s+)?(?:living\s+)?in(?=\s+(?-i:[A-Z]))"
            r"(?=.*\b(?:now|for good)\b)",  # "he's back in Chicago now"
            "residence",
            "place",
        ),
        (  # "Zoe's back in Denver": back where one lived (predicates_en: only of one whose home is held)
            r"(?:am|'m|are|'re|is|'s)\s+(?:now\s+)?back\s+in(?=\s+(?-i:[A-Z]))",
            "residence",
            "place",
        ),
        (
            r"(?:have been|'ve been|has been|'s been)\s+at(?=\s+(?-i:[A-Z]))",
            "employer",
            "organization",
        ),
        (
            r"(?:ended up|finally|eventually)\s+(?:moving|relocating)\s+(?:back\s+)?to",
            "residence",
            "place",
        ),
        (  # "she's driving for UPS now", "he delivers for DoorDash": the company one drives or works for
            r"(?:am\s+|'m\s+|are\s+|'re\s+|is\s+|'s\s+)?(?:now\s+)?(?:driving|drives|delivering|delivers|"
            r"freelancing|freelances|consulting|consults|contracting|contracts)\s+for(?=\s+(?-i:[A-Z]))",
            "employer",
            "organization",
        ),
        (
            r"(?:work|works|working|am working|'m working|are working|'re working|is working|'s working|"
            r"have been working|'ve been working|has been working)\s+(?:at|for)",
            "employer",
            "organization",
        ),
        (
            r"(?:started|start|am starting|'m starting|is starting|'s starting|began|have started|"
            r"'ve started|has started)\s+(?:a\s+(?:new\s+)?(?:job|position|role)\s+|working\s+|work\s+)?"
            r"(?:at|with|for)|first\s+(?:full\s+)?(?:day|week|month|shift)\s+(?:at|with)(?=\s+(?-i:[A-Z]))",
            "employer",
            "organization",
        ),
        (
            r"(?:joined|have joined|'ve joined|has joined|'s joined|am joining|'m joining|is joining"
            r"|'s joining|are joining|'re joining|will be joining|'ll be joining)",
            "employer",
            "organization",
        ),
        (
            r"(?:got|took|accepted|landed|have accepted|'ve accepted)\s+(?:a|an|the)\s+(?:new\s+)?"
            r"(?:job|position|role|offer)\s+(?:at|with|from)",
            "employer",
            "organization",
        ),
        (
            r"(?:switched|changed|moved)\s+(?:jobs|companies|employers)\s+(?:over\s+)?to|"
            r"switched\s+to(?!\s+(?:Dr|Mr|Mrs|Ms|Prof)\b)|"  # "switched to Dr. Patel": a doctor, no employer
            r"moved\s+over\s+to|(?:switched|moved|went)\s+from\s+[^,.;]+?\s+to|left\s+[^,.;]+?\s+for|"
            r"jumped\s+ship\s+to|jumped\s+(?:over\s+)?to(?=\s+(?-i:[A-Z]))",  # "Abe jumped ship to EY"
            "employer",
            "organization",
        ),
        (
            r"(?:am|'m|are|'re|is|'s|got|was|were|have been|'ve been|has been)\s+(?:now\s+|just\s+)?"
            r"(?:employed|hired|taken on|poached|recruited|headhunted|snapped up)\s+(?:by|at)",
            "employer",
            "organization",
        ),
        (
            r"(?:am|'m|are|'re|is|'s)\s+(?:now\s+)?(?:at|with)(?=\s+(?-i:[A-Z]))(?=.*\bnow\b)|"
            # "my brother Abe is still at KPMG": still employed there (not a hospital or a hotel one is at)
            r"(?:am|'m|are|'re|is|'s)\s+still\s+(?:at|with)(?=\s+(?-i:[A-Z])[\w&.-]*(?:\s+[A-Z][\w&.-]*)?(?:[\s,.!]|$))"
            r"(?!\s+(?:\S+\s+){0,2}(?:Hospital|Clinic|Airport|Station|Hotel|Inn|Park|Beach|Mall|Center|Centre)\b)",
            "employer",
            "organization",
        ),
        (r"(?:work|works|am working|'m working|is working|'s working)\s+as(?:\s+an?)?", "job_title", "text"),
        (  # "I got hired as a junior designer at Pixelworks", "she landed a job as a nurse"
            r"(?:got|was|were|have been|'ve been|has been|am being|'m being)\s+(?:just\s+)?(?:hired|taken on|"
            r"brought on|employed|signed on)\s+as(?:\s+an?)?|(?:got|landed|took|accepted|started|have got|"
            r"'ve got|found)\s+(?:a|an|the|my)\s+(?:new\s+)?(?:job|position|role|gig)\s+as(?:\s+an?)?",
            "job_title",
            "text",
        ),
        (r"(?:got|was|have been|'ve been|has been)\s+promoted\s+to(?:\s+an?)?", "job_title", "text"),
        (r"(?:was|were)\s+born\s+(?:on|in)", "birth", "text"),
        (  # "I got posted to Boston", "she's been transferred to the Lyon office": where one works from
            r"(?:am|'m|is|'s|are|'re|was|were|got|have been|'ve been|has been|'s been)\s+(?:now\s+|just\s+)?"
            r"(?:sent|posted|transferred|reassigned|stationed|seconded|deployed)\s+(?:over\s+|back\s+)?to|"
            r"transferred\s+(?:over\s+|back\s+)?to(?=\s+(?:the|our|my)\s+(?-i:[A-Z])[\w'-]*\s+office)"
            r"(?:\s+(?:our|my|their)(?=\s+(?-i:[A-Z])))?",
            "work_location",
            "place",
        ),
        (  # "I'm learning Spanish on Duolingo", "she started learning the cello": what one is learning now
            r"(?:am|'m|is|'s|are|'re|have been|'ve been|has been|'s been|started|began|start|starts|now)\s+"
            r"(?:learning|taking\s+up|picking\s+up)",
            "learning",
            "text",
        ),
        (  # "we're renting a two-bedroom in Oakland": a home rented somewhere is where one lives
            r"(?:am|'m|are|'re|is|'s)\s+(?:now\s+)?renting\s+(?:a|an|our|my)\s+(?:[\w-]+\s+){0,2}?"
            r"(?:apartment|flat|house|place|room|studio|condo|[\w-]+bedroom)\s+in",
            "residence",
            "place",
        ),
        (  # "moved again, Seattle this time": the place follows the verb of moving after a pause
            r"(?:moved|relocated|have moved|'ve moved|has moved)\s+(?:yet\s+)?(?:again|once more|house)"
            r"\s*[,:\-–—]",
            "residence",
            "place",
        ),
        (  # "I make 104k", "she's making $90,000 now": what one earns is one's salary
            r"(?:make|makes|making|am making|'m making|earn|earns|earning|am earning|'m earning)"
            r"(?=\s+(?:about\s+|around\s+)?(?:[$€£]\d|\d[\d.]*\s*(?:k|grand)\b|\d{2,3},\d{3}))",
            "salary",
            "number",
        ),
        (  # "I report to Kenji now": whom one reports to is one's manager (one at a time)
            r"(?:report|reports|(?:am|'m|is|'s)\s+(?:now\s+)?reporting|now report)\s+"
            r"(?:directly\s+)?to",
            "manager",
            "person",
        ),
        (
            r"(?:weigh|weighs|am weighing|'m weighing|weighed\s+in\s+at)(?=\s+(?:about\s+|around\s+)?\d)|"
            # "weighed in this morning, 82.4 kg": a weigh-in, its time, then the weight with its unit
            r"(?:weighed\s+(?:in|myself)|stepped on the scale)(?:\s+(?:this\s+morning|today|again))?[,:]?"
            r"(?=\s+\d[\d.]*\s*(?:kg|kgs|kilos|lbs?|pounds)\b)",
            "weight",
            "text",
        ),
        (
            r"(?:drive|drives|am driving|'m driving|driving|now drive|now drives)\s+(?:an?|the)",
            "car",
            "product",
        ),
        (  # "I've got a 2019 Honda Civic", "we bought a Tesla": a car by its make, owned
            r"(?:have|has|'ve got|'s got|have got|has got|got|own|owns|bought|just bought|picked up|"
            r"leased)\s+"
            r"(?:a|an|the)(?=\s+(?:(?:new|used|brand[- ]new|red|white|black|silver|gray|grey|blue)\s+)?"
            r"(?:(?:19|20)\d\d\s+)?(?-i:" + CAR_MAKES + r")\b)",
            "car",
            "product",
        ),
        (r"(?:turned|am turning|'m turning|just turned)", "age", "number"),
        (  # "I go to bed around 11", "he goes to sleep at 9 now": a bedtime, as said
            r"(?:usually\s+|now\s+)?(?:(?:go|goes|going|am going|'m going)\s+to\s+(?:bed|sleep)|"
            # "I'm asleep by 10", "usually in bed around 2am"
            r"(?:(?:am|'m|is|'s|are|'re)\s+)?(?:usually\s+|now\s+)?(?:asleep|in\s+bed))\s+"
            r"(?:around|at|by|about)",
            "bedtime",
            "text",
        ),
        (r"(?:usually\s+)?(?:wake|wakes|get|gets)\s+up\s+(?:around|at|by|about)", "wake_time", "text"),
        (
            r"(?:go|goes|am going|'m going)\s+to\s+(?:school|college|university)\s+at|(?:study|studies|"
            r"am studying|'m studying)\s+at",
            "school",
            "organization",
        ),
        (  # "I bank with Chase", "moved all my accounts to Navy Federal": where one banks
            r"(?:bank|banks|banking|am banking|'m banking)\s+(?:with|at)|"
            r"(?:moved|switched|transferred|took)\s+(?:all\s+)?(?:my|our)\s+(?:bank(?:ing)?\s+)?(?:accounts?|banking|money)\s+(?:over\s+)?to",
            "bank",
            "organization",
        ),
        (  # "I usually get a cappuccino", "she always orders an oat latte": a coffee order
            r"(?:usually\s+|always\s+|normally\s+|typically\s+|generally\s+)?(?:get|gets|have|has|order|"
            r"orders|drink|drinks|grab|grabs|(?:(?:am|'m|is|'s)\s+)?switching\s+to|(?:have\s+|'ve\s+)?switched\s+to)"
            r"(?=\s+(?:a|an|my)?\s*(?:[\w-]+\s+){0,3}?" + _COFFEE + r"s?\b)",
            "coffee_order",
            "text",
        ),
    )
)
_CHANGED_MY = re.compile(
    f"(?:{ROLE_OPENING})?"
    + _ADVERBS
    + r"(?:(?:have\s+|'ve\s+|has\s+|'s\s+)?(?:changed|updated|switched|moved|pushed|rescheduled|"
    r"postponed|bumped|upped|raised|increased|lowered|reduced|cut|decreased|adjusted)|" + CHANGING + r")\s+"
    r"(?P<whose>my|our|his|her|their)\s+(?P<attr>(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+"
    r"(?:back\s+)?(?:to|until|over to)\s+",
    _I,
)
_AGE = re.compile(  # "I'm 34 years old"; "my son is 5" when the number ends the clause
    _ADVERBS + r"(?:am|'m|is|'s)\s+(?:now\s+|already\s+|only\s+|just\s+)?(?P<n>\d{1,3}|" + EN_NUMBER_RE + r")"
    r"(?:\s+years?\s+old|\s*yo\b|(?=[\s.!]*$)|(?=\s+(?:now|already|this year)\b)|"
    r"(?=,?\s+and\s+(?!a\s+half)))",
    _I,
)
_ALLERGY = re.compile(_ADVERBS + r"(?:am|'m|is|'s|are|'re)\s+(?:severely\s+|very\s+)?allergic\s+to\s+", _I)
_JOB = re.compile(
    _ADVERBS + r"(?:am|'m|is|'s|became|has become|'s become|have become|'ve become)\s+"
    r"(?:now\s+|currently\s+|still\s+|officially\s+)?"
    r"(?:(?:an?|the)\s+(?P<title>(?:[a-z-]+\s+){0,2}"
    r"(?:[a-z-]+(?:er|or|ist|ian|ant|ent|ect|eon)|(?:[a-z-]+\s+)?(?:nurse|chef|doctor|lawyer|student|intern|"
    r"pilot|clerk|lead|head|chief|vet|medic|cook|judge|coach|tutor|paramedic|barista|waitress|actress|"
    r"mechanic|secretary|nanny|model|athlete|midwife|cop|maid|courier|sommelier|paralegal|temp)))|(?P<bare>(?:[a-z-]+\s+){0,2}(?:lead|manager|director|engineer|designer|developer|"
    r"head of [a-z]+|chief [a-z]+ officer|supervisor|coordinator|analyst|architect|editor|principal|"
    r"team lead|captain|president|vp of [a-z]+|(?:head|sous|executive|pastry|chief)\s+(?:chef|cook)|"
    r"(?:head|charge|chief)\s+nurse|head\s+(?:coach|teacher|librarian))))"
    r"(?:\s+(?:at|for|with)\s+(?P<org>.+?))?(?:\s+(?:there|here))?"  # "he's sous chef there now"
    r"(?:\s+(?:in|based in)\s+(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)?"  # "a programmer in Austin"
    # "I'm a senior designer now", "im a senior engineer rn" (right now)
    r"(?:\s*,?\s*(?:now|right now|at the moment|currently|these days|"
    r"(?:as of|since|from|starting) [\w ]+))?$",
    _I,
)
_PREFERENCE = re.compile(
    _ADVERBS + r"(?P<neg>don't|do not|doesn't|does not|no longer|never|didn't)?\s*"
    r"(?:really\s+|absolutely\s+|totally\s+|just\s+|still\s+|kind of\s+|kinda\s+|actually\s+)*"
    r"(?P<verb>love|loves|like|likes|enjoy|enjoys|adore|adores|hate|hates|dislike|dislikes|detest|"
    r"detests|prefer|prefers|can't stand|cannot stand|can't live without|am into|'m into|are into|"
    r"'re into|is into|'s into|am (?:a )?(?:big |huge )?fan of|'m (?:a )?(?:big |huge )?fan of|"
    r"is (?:a )?(?:big |huge )?fan of|am not (?:a )?fan of|'m not (?:a )?fan of|"
    r"am not into|'m not into)\s+",
    _I,
)
_SENTIMENT = (
    ("not", "dislike"),
    ("love", "love"),
    ("adore", "love"),
    ("live without", "love"),
    ("hate", "hate"),
    ("detest", "hate"),
    ("stand", "hate"),
    ("dislike", "dislike"),
    ("prefer", "prefer"),
    ("fan", "like"),
    ("into", "like"),
    ("enjoy", "like"),
    ("like", "like"),
)
_COUNT = re.compile(
    _ADVERBS + r"(?:have|has|'ve got|have got|has got|own|owns)\s+(?P<n>\d{1,18}|" + EN_NUMBER_RE + r")\s+"
    r"(?P<x>(?:[a-z-]+\s+)?(?:[a-z-]+s|children|people|geese|mice))\b",
    _I,
)
_OBJECT_PRONOUN = re.compile(r"(?:it|that|this|them|you|him|her|those|these|me|us|one)\b", _I)
_VALUE_CUT = re.compile(
    r"\s*(?:,\s*|\s)(?:with|because|since|for|so|but|and|which|where|who|after|"
    r"as|though|although|while|when|from|instead of|rather than|not)\b.*$|\s*\(.*$|"
    r",\s*(?:he|she|it|they|i|we|you|that|this|my|our|his|her|their|please|can|could|would|will|do|does|"
    r"did|isn't|don't|right|lol|haha|tell|let|note|thanks|thank|the|a|an)\b.*$|\s+[-–—]\s.*$|"
    r",\s*(?-i:[a-z]+ing)\b.*$|"  # "92 kilos right now, trying to lose some": a participle's clause
    r",\s*(?:[a-z]+\s+)?(?:password|passcode|pin|code)\b.*$|"  # "CasaNguyen now, password M1ssionBay#7"
    r",\s*(?:[a-z]+\s+){0,2}?[a-z]+\s+(?:is|are|was|'s)\s+\S.*$|"  # "210 right now, goal is 180": a clause
    r",\s*(?:go figure|who knows|whatever|ugh|sadly|thankfully|luckily|yay|phew|oh well|fingers crossed|"
    r"not bad|finally|at last)\b.*$",  # "9:15 again, go figure": an aside after the value
    _I,
)
_VALUE_TAIL = re.compile(
    r"(?:\s*,?\s*(?:now|these days|nowadays|anymore|any more|again|too|as well|actually|btw|by the way|"
    r"for good|lol|haha|right now|at the moment|currently|full[- ]time|so much|a lot|officially|this time|"
    r"total|in total|all in|altogether|tops|max|"  # "our budget is 30k total"
    r"by the way|fyi|i think|i believe|i guess|if i remember correctly|iirc|instead|this month|this week|"
    r"this year|already|same time|same place|same hour|(?:in the|every|each) (?:morning|afternoon|evening)s?|"
    r"on weekdays|on weekends|at work|most days|most nights|on weeknights|every night|every day|daily|"
    # "$2,100 starting March": a month named alone is no time the time grammar reads, yet no part of the value
    r"(?:starting|beginning|effective|from|as of|since|in)\s+(?:" + "|".join(MONTHS) + r")))+\s*$",
    _I,
)
_REJECTED = re.compile(r"(?:,\s*|\s+)(?:not|instead of|rather than)\s+(?P<old>[^,;.]+?)\s*[.!]?$", _I)
_DUE = re.compile(r"(?:due|to be done|needed)\s+(?:on|by|in|before)?\s*", _I)
_EXPIRY = re.compile(r"(?:valid|good|fine|ok|okay|current)\s+(?:until|till|through|thru|to)\s+", _I)
_POSSESSIVE_COPULA = (
    r"\s+(?P<cop>(?:(?:got|has been|have been|was|were|is|are|'s)\s+)?(?:moved|moves|is moving|changed|"
    r"changes|slid|slipped|pushed(?:\s+back)?|"
    r"bumped|extended|updated|postponed|rescheduled|delayed|brought forward)\s+(?:to|until)|is now|are now|"
    r"(?:is|are|'s)\s+(?:now\s+)?back\s+to|"  # "standup is back to 9:15": its value again
    r"will be|has been|have been|is|was|are|were|'s|becomes|became|costs|cost|expires?(?:\s+(?:on|in|at))?|"
    r"expired(?:\s+(?:on|in))?|runs out(?:\s+(?:on|in))?|ends(?:\s+(?:on|in))?|(?:is|are|'s)\s+due"
    r"(?:\s+(?:on|by|in))?|due(?:\s+(?:on|by|in))?(?=\s+\w+\s+\d|\s+\d)|falls on)\s+"  # "thesis due june 30"
)
_TASK = re.compile(
    r"\b(?:(?P<who>i|we)\s+(?:really\s+|still\s+|also\s+)?(?:need to|have to|'ve got to|have got to|"
    r"got to|gotta|must|should|ought to)|remind me to|don't forget to|do not forget to|remember to|"
    r"(?:todo|to-do)\s*[:\-])\s+(?P<task>.+)$",
    _I,
)
_PLAN = re.compile(
    r"\b(?P<who>i|we)\s*(?:'ll|will|am going to|'m going to|are going to|'re going to)\s+"
    r"(?P<task>(?!be\b|have\b).+)$",
    _I,
)
_DECISION = re.compile(
    r"\b(?:(?P<who>we|i)\s+(?:have\s+|'ve\s+|finally\s+|just\s+)*(?:decided|agreed|chose|settled on|"
    r"opted|resolved|committed)\s+(?:to|on|that|for)?|let's go with|lets go with|we(?:'re| are) going with|"
    r"we(?:'ll| will) go with|(?:the|our|my) (?:final )?decision(?: is|:))\s*(?P<what>.+)$",
    _I,
)


_BARE = re.compile(
    r"(?:(?:it'?s|it is|it was|it will be|that'?s|that is|its|it should be|should be|make it|it's actually|"
    r"put me down for|sign me up for|(?:we'?re|we are|i'?m|i am) (?:going|heading) (?:to|with)|"
    r"(?:we'?re|we are|i'?m|i am|let'?s) (?:going with|meeting at|doing)|"
    r"(?:we|i)(?:\s+have|'ve)?\s+(?:booked|reserved|chose|picked|went with)|"
    r"(?:it|that|they|she|he)\s+(?:leaves|starts|begins|ends|opens|closes|departs|arrives|lands|"
    r"finishes|is|'s)\s+(?:at|on|by)|change (?:it|that) to|switch (?:it|that|me) to|let's (?:do|say|go with)|"
    r"the (?P<attr>[\w ]+?) is)\s+)?(?P<value>.+)$",
    _I,
)
_BOOKED_FOR = re.compile(
    r"(?:booked|scheduled|set|planned|arranged|fixed|confirmed|penciled in|pencilled in)\s+"
    r"(?:(?:at|with)\s+[^,.;]+?\s+)?(?:for|on)\s+",  # "booked at Luca's for 8pm": the time is the value
    _I,
)
_GENERIC_REFERENCE = re.compile(
    r"(?:the|our|my)\s+(?:booking|reservation|res|time|date|day|one)\s+(?:is|'s|was|should be)\s+(?=\S)", _I
)
# "Transferred to our Chicago office.", "Cancelled Anytime Fitness": a clause opened by a past verb, not by a
# name (Fred, Ahmed and Reed are names: too short, or not followed by what follows a verb)
_PAST_VERB_OPENING = re.compile(
    r"(?:[A-Z][a-z]{2,}(?:ed|ped|ted)|Cut|Put|Set|Quit|Left|Got|Sold)\s+"
    r"(?:(?:to|into|in|from|back|down|over|out|up|my|our|the|a|an|his|her|their|all|both|it|them|everything)\b"
    r"|\d)"  # "Turned 30 yesterday!"
)
# "Kim and Lou …", "Ash and I …", "Gia and her husband …"
_AND_OTHER = re.compile(r"and\s+(?=(?:I|we|my|our|his|her|their)\b|(?-i:[A-Z]))", re.I)
# "wait, that's wrong", "instead": a judgement of the old value, never a new one
_JUDGEMENT = re.compile(
    r"(?:not\s+)?(?:wrong|right|correct|incorrect|a mistake|mistaken|off|instead|it|that|this|true|"
    r"false|all|everything|fine|ok|okay|enough)[.!]*",  # "No, that's all": nothing to correct
    _I,
)
# a verb of changing somewhere in a clause: a cheap look before a change's grammar is tried at each "and"
_A_CHANGE_VERB = re.compile(
    r"\b(?:chang|mov|push|switch|updat|bump|reschedul|postpon|hik|rais|increas|lower|reduc|cut|drop|extend)",
    _I,
)


# a person's role by name: "landlord.name", "landlords.name" (no apostrophe), "coach_name"
ROLE_NAMED = re.compile(
    r"(landlord|landlady|coach|teacher|tutor|doctor|dentist|therapist|trainer|manager|boss|supervisor|nanny|"
    r"babysitter|vet|mentor|advisor|roommate|super|physio|physiotherapist|pediatrician)s?[._]name"
)
NETWORK = re.compile(r"\b(?:wi-?fi|network|ssid|router)\b", re.IGNORECASE)  # a password of a network's
COMPARED = re.compile(
    r"\b(?:better|worse|nicer|bigger|smaller|cheaper|pricier|older|younger)\s+than\b", re.IGNORECASE
)
AMOUNT_VALUE = re.compile(  # a sum: "$40 a month", "about 300 bucks"
    r"(?:about\s+|around\s+)?[$€£¥]\s?\d|\d[\d,.]*\s*(?:dollars|bucks|euros|pounds)\b", re.IGNORECASE
)
NOW_WORDS = re.compile(  # "my favorite show ever": the favourite show
    r"\s+(?:these days|nowadays|right now|now|currently|at the moment|ever|of all time)$", re.IGNORECASE
)
