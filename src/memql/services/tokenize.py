"""The lexical analyzer shared by the full-text index, keyword extraction and the text services.

Text is normalised (NFKC, casefold) and cut into tokens: runs of letters/digits outside CJK scripts are
words; runs of CJK characters (Han, kana, Hangul) become overlapping character bigrams, which is the
standard dictionary-free way to index Chinese/Japanese/Korean for full-text search. Punctuation,
symbols, apostrophes and hyphens separate tokens and are never tokens themselves.

Two kinds of output, named for what they are:

* **tokens** (``tokens``, ``query_tokens``): surface words as written (normalised) and CJK bigrams. Keyword
  extraction, sentence merging, summaries and topic splitting use these, so what they show or compare
  stays a readable word ("running", not "run").
* **index terms** (``index_term``, ``index_terms``, ``query_terms``): what the full-text index stores and
  matches. A token whose letters are latin (a-z once diacritics are set aside) is reduced to its English
  Snowball stem ("running", "runs" -> "run"; "naïve" -> "naiv"); CJK bigrams, numbers, mixed letter/digit
  tokens ("mp3", "2024") and words of other scripts are their own term. Stems are cached.

The same analyzer feeds both sides of the index: ``index_text`` is what is stored in an FTS5 table with
``tokenize='unicode61'`` (each term is then one FTS token) and ``fts_match_expression`` turns arbitrary
user text into a MATCH expression over the same terms that can never be an FTS5 syntax error. Stop words
are recognised on the surface word, before stemming ("being" is a stop word; its stem "be" is never
looked at), and only on the query side: the index keeps every term.

``ANALYZER_VERSION`` names the analyzer's output. Any change to what ``index_terms`` produces for some text
must increase it: a store whose index was written by another version refills its index when it opens.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata

import snowballstemmer

# the version of index_terms' output: bump on any change to it (stores re-index when it differs)
# 1: words and CJK bigrams; 2: latin words as their English Snowball stems
ANALYZER_VERSION = 2

MAX_WORD = 64  # longer words are truncated: nothing useful is that long, and it bounds index size

# (start, end) inclusive code point ranges treated as CJK
CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0x20000, 0x2FA1F),  # Extensions B-F and the compatibility supplement
    (0x30000, 0x323AF),  # Extensions G-H
)

_ENGLISH_STOP_LIST = """
    a an the of to in on at for and or nor but is are was were be been being am it its this that
    these those there here what when where who whom whose how why which do does did done doing i me my
    mine myself we our ours you your yours he him his she her hers they them their theirs with about
    from by as into onto than then so if not no yes can could would should shall might must
    has have had having up down out over under again also just only very too any all some such each
    both few more most other own same s t ll ve re d m don didn doesn isn aren wasn weren won
"""
ENGLISH_STOP_WORDS: frozenset[str] = frozenset(_ENGLISH_STOP_LIST.split())

# Chinese function characters: dropped from queries when they stand alone (a one-character CJK run)
CHINESE_STOP_CHARS: frozenset[str] = frozenset("的了和是在我你他她它们吗呢吧啊也就都而及与或把被着过这那个之")

STOP_WORDS: frozenset[str] = ENGLISH_STOP_WORDS | CHINESE_STOP_CHARS


def normalize_text(text: str) -> str:
    """NFKC-normalise and casefold (the NFKC re-application keeps the result stable under repetition)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _in_cjk_block(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in CJK_RANGES)


def is_cjk(ch: str) -> bool:
    """True for a CJK ideograph, kana or Hangul syllable (letters and numerals only, not CJK punctuation)."""
    if len(ch) != 1 or ch < "\u3005":  # fast path: everything below the first CJK block (latin text)
        return False
    kind = _CLASSES.get(ch)
    return (kind if kind is not None else _classify(ch)) == _CJK


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


# what a character is to the tokenizer: CJK, a letter or digit, a combining mark (part of a word, but no
# word alone) or a separator (underscore, apostrophes and hyphens too); looked up once per distinct
# character (tokens runs per record written and per query, and unicodedata costs more than a dict)
_SEPARATOR, _MARK, _LETTER, _CJK = 0, 1, 2, 3
_CLASSES: dict[str, int] = {}
_ASCII_WORD = re.compile(r"[a-z0-9]+")


def _classify(ch: str) -> int:
    major = unicodedata.category(ch)[0]
    if ch >= "\u3005" and _in_cjk_block(ord(ch)) and major in "LN":
        kind = _CJK
    else:
        kind = _LETTER if major in "LN" else _MARK if major == "M" else _SEPARATOR
    _CLASSES[ch] = kind
    return kind


def tokens(text: str) -> list[str]:
    """Normalised tokens in order, duplicates kept: words, and overlapping bigrams of CJK runs.

    >>> tokens("机器学习 is fun")
    ['机器', '器学', '学习', 'is', 'fun']
    """
    if text.isascii():  # NFKC leaves ASCII alone and casefolds it as lower(); words are [a-z0-9] runs
        return [word[:MAX_WORD] for word in _ASCII_WORD.findall(text.lower())]
    out: list[str] = []
    word: list[str] = []
    lettered = False  # a word of combining marks alone is no word
    run: list[str] = []
    classes = _CLASSES
    for ch in normalize_text(text):
        kind = classes.get(ch)
        if kind is None:
            kind = _classify(ch)
        if kind == _CJK:
            if word:
                if lettered:
                    out.append("".join(word[:MAX_WORD]))
                word.clear()
                lettered = False
            run.append(ch)
            continue
        if run:
            out.extend(_bigrams("".join(run)))
            run.clear()
        if kind:
            word.append(ch)
            lettered = lettered or kind == _LETTER
        elif word:
            if lettered:
                out.append("".join(word[:MAX_WORD]))
            word.clear()
            lettered = False
    if word and lettered:
        out.append("".join(word[:MAX_WORD]))
    if run:
        out.extend(_bigrams("".join(run)))
    return out


_stemmers = threading.local()  # a Snowball stemmer keeps its state on the instance: one per thread


@functools.lru_cache(maxsize=1 << 16)
def index_term(token: str) -> str:
    """The index term of one token (an item of ``tokens``): the English Snowball stem of a latin word,
    matched with diacritics set aside as FTS5's ``remove_diacritics`` does; any other token unchanged.

    >>> [index_term(t) for t in ("running", "runs", "naïve", "mp3", "2024", "学习", "москва")]
    ['run', 'run', 'naiv', 'mp3', '2024', '学习', 'москва']
    """
    bare = token
    if not token.isascii():
        bare = "".join(c for c in unicodedata.normalize("NFD", token) if not unicodedata.combining(c))
    if not (bare.isascii() and bare.isalpha()):
        return token  # CJK, digits, letters mixed with digits, other scripts
    stemmer = getattr(_stemmers, "english", None)
    if stemmer is None:
        stemmer = _stemmers.english = snowballstemmer.stemmer("english")
    return stemmer.stemWord(bare)


def index_terms(text: str) -> list[str]:
    """The index terms of ``text`` in order, duplicates and stop words kept (what the index stores).

    >>> index_terms("Running 机器学习")
    ['run', '机器', '器学', '学习']
    """
    return [index_term(t) for t in tokens(text)]


def index_text(text: str) -> str:
    """The text to store in an FTS5 ``unicode61`` column: index terms separated by spaces."""
    return " ".join(index_terms(text))


def dedupe(items: list[str]) -> list[str]:
    """Items without repeats, first occurrence order."""
    return list(dict.fromkeys(items))


def query_tokens(text: str) -> list[str]:
    """Distinct tokens, in order, without stop words (unless nothing else is left)."""
    distinct = dedupe(tokens(text))
    content = [t for t in distinct if t not in STOP_WORDS]
    return content or distinct


def query_terms(text: str) -> list[str]:
    """Distinct index terms of the query tokens, in order: stop words go by the surface word, then the
    rest is stemmed exactly as the index is ("Who is running?" -> ["run"])."""
    return list(_query_terms(text))


@functools.lru_cache(maxsize=1024)
def _query_terms(text: str) -> tuple[str, ...]:
    # a search analyses its query more than once (each index side, the FTS5 expression): once is enough
    return tuple(dedupe([index_term(t) for t in query_tokens(text)]))


@functools.lru_cache(maxsize=1024)
def fts_match_expression(text: str) -> str | None:
    """An FTS5 MATCH expression OR-ing the query terms, each a quoted string; None without terms.

    Every token is double-quoted (internal quotes doubled), so operators, parentheses, ``*``, ``NEAR``
    or column filters in user text are searched for as plain words and never raise a syntax error.
    """
    terms = query_terms(text)
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
