"""Well-known place names written in lower case ("moved to denver", "we live in austin", "back to the bay
area"): chat leaves capitals out, and the English grammar knows a place by its capital letter. A place
this list knows, written in lower case right after in/to/from/near/around, is read capitalised (the same
length, so every offset holds). The list is deliberately the well-known places — large cities, US
states, countries — minus words that are more often something else ("nice", "reading", "mobile",
"turkey"): a place it does not know is read as written, never guessed."""

from __future__ import annotations

import re
from functools import lru_cache

from .common import Reading
from .values_en import add_fact

_CITIES = """
new york|los angeles|chicago|houston|phoenix|philadelphia|san antonio|san diego|dallas|san jose|austin|
jacksonville|fort worth|columbus|charlotte|san francisco|indianapolis|seattle|denver|washington|boston|
el paso|nashville|detroit|oklahoma city|portland|las vegas|memphis|louisville|baltimore|milwaukee|
albuquerque|tucson|fresno|sacramento|kansas city|atlanta|miami|raleigh|omaha|oakland|minneapolis|tulsa|
tampa|new orleans|cleveland|honolulu|pittsburgh|cincinnati|st louis|salt lake city|boise|richmond|
anchorage|brooklyn|queens|manhattan|the bronx|berkeley|palo alto|san mateo|santa monica|pasadena|
long beach|san fran|sf|nyc|dc|philly|the bay area|bay area|silicon valley|orlando|st paul|madison|
ann arbor|spokane|tacoma|reno|santa fe|savannah|charleston|buffalo|rochester|hartford|providence|
burlington|asheville|durham|chapel hill|boulder|fort collins|scottsdale|tempe|san luis obispo|
toronto|vancouver|montreal|calgary|ottawa|edmonton|winnipeg|quebec city|halifax|victoria|
london|manchester|birmingham|leeds|glasgow|edinburgh|liverpool|bristol|sheffield|newcastle|cardiff|
belfast|dublin|cork|oxford|cambridge|brighton|york|nottingham|leicester|
paris|lyon|marseille|berlin|munich|hamburg|frankfurt|cologne|vienna|zurich|geneva|amsterdam|rotterdam|
brussels|copenhagen|stockholm|oslo|helsinki|madrid|barcelona|valencia|seville|lisbon|porto|rome|milan|
naples|florence|venice|athens|prague|warsaw|krakow|budapest|istanbul|moscow|kyiv|
tokyo|osaka|kyoto|seoul|busan|beijing|shanghai|shenzhen|guangzhou|hong kong|taipei|singapore|bangkok|
hanoi|ho chi minh city|manila|jakarta|bali|kuala lumpur|mumbai|delhi|new delhi|bangalore|bengaluru|
chennai|hyderabad|pune|kolkata|dubai|abu dhabi|doha|tel aviv|cairo|nairobi|lagos|accra|johannesburg|
cape town|sydney|melbourne|brisbane|perth|adelaide|auckland|wellington|mexico city|guadalajara|
monterrey|bogota|lima|santiago|buenos aires|sao paulo|rio|rio de janeiro
"""
_STATES = """
alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|georgia|hawaii|idaho|
illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|minnesota|
mississippi|missouri|montana|nebraska|nevada|new hampshire|new jersey|new mexico|north carolina|
north dakota|ohio|oklahoma|oregon|pennsylvania|rhode island|south carolina|south dakota|tennessee|
texas|utah|vermont|virginia|west virginia|wisconsin|wyoming|ontario|british columbia|alberta|quebec
"""
_COUNTRIES = """
canada|mexico|england|scotland|wales|ireland|france|germany|spain|portugal|italy|greece|netherlands|
belgium|switzerland|austria|sweden|norway|denmark|finland|iceland|poland|japan|korea|south korea|
vietnam|thailand|india|australia|new zealand|brazil|argentina|chile|peru|colombia|egypt|kenya|
nigeria|south africa|israel|the uk|uk|the us|usa|the states|morocco|croatia
"""
PLACES_EN = frozenset(
    p.strip() for p in (_CITIES + _STATES + _COUNTRIES).replace("\n", "").split("|") if p.strip()
)
_SHORT = {"sf": "SF", "nyc": "NYC", "dc": "DC", "uk": "UK", "usa": "USA", "the us": "the US"}
_NAMES = "|".join(sorted((re.escape(p) for p in PLACES_EN), key=len, reverse=True))
_PLACE = re.compile(rf"\b(?P<at>in|to|from|near|around|outside|at) (?P<p>{_NAMES})\b")
# after "for" only when a place was left for it ("flowers for victoria" names a person)
_LEFT_FOR = re.compile(rf"\bleft (?P<a>{_NAMES}) for (?P<b>{_NAMES})\b")


@lru_cache(maxsize=1024)
def capitalised_places(text: str) -> str:
    """`text` with the known places written in lower case after in/to/from … capitalised (same length)."""
    if not any(c.islower() for c in text):
        return text
    text = _LEFT_FOR.sub(lambda m: f"left {_capital(m['a'])} for {_capital(m['b'])}", text)
    return _PLACE.sub(lambda m: f"{m['at']} {_capital(m['p'])}", text)


def _capital(place: str) -> str:
    if place in _SHORT:
        return _SHORT[place]
    return " ".join(w if w == "the" else w[:1].upper() + w[1:] for w in place.split(" "))


_WORKS_IN = re.compile(
    r"(?:now\s+|currently\s+)?(?:work|works|working|am working|'m working)\s+(?:now\s+)?(?:in|out of)\s+"
    r"(?P<place>(?-i:[A-Z][\w.]*(?:\s+[A-Z][\w.]*){0,2}?))(?=\s+(?:now|these days|full[- ]time)\b|[\s,.!]*$)",
    re.I,
)


def works_in(
    r: Reading, subject: str, pos: int, at: int, end: int, confidence: float, correction: bool
) -> bool:
    """ "I work in Seattle now": where one works, when the place is a known one ("I work in marketing" is
    no place)."""
    m = _WORKS_IN.match(r.text, at, end)
    if m is None or m["place"].casefold() not in PLACES_EN:
        return False
    add_fact(
        r, subject, "work_location", m["place"], pos, end, confidence, correction, "place", m.span("place")
    )
    return True
