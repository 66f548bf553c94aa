"""The English the rules planner reads: verb cues, step connectives, and the small closed word classes
(politeness, determiners, generic nouns) that frame an instruction's content.

Everything here is a reading of ordinary English, never of a data set: a cue names the words a user
says for an operation. Patterns run on lower-cased text with straight quotes.
"""

from __future__ import annotations

import re

from memql.cognition.planner.rules.model import Cue

W = r"(?:[\w'-]+\s+){0,6}?"  # a short stretch of words between a verb and what it governs
OBJ = (
    r"(?P<obj>(?:[\w'-]+\s+){0,10}?)"  # the same, when it is the verb's object ("set <the notes> to expire")
)

TAG_REMOVERS = r"(?:remove|delete|drop|strip|take(?:\s+off)?|erase|clear)"
# one tag as a user names it, never a record noun, a determiner or a preposition (those make the tag a
# filter on what is deleted)
TAG_VALUE = (
    r"(?!(?:with|having|under|in|of|on|that|which|where|from|for|by|all|every|any|my|our|the|a|an|"
    r"notes?|records?|memor(?:y|ies)|entr(?:y|ies)|items?|everything|those|these|them|it)\b)"
    r"(?:'[^']+'|\"[^\"]+\"|#?[\w-]+)"
)

# (pattern, verb, where): "start" cues count only where the instruction's imperative begins (they are
# also common nouns: "record", "note", "log"); "any" cues count anywhere, earliest first.
CUES: tuple[Cue, ...] = (
    # Lock / unlock (before Delete: "remove the lock" is an unlock)
    Cue(r"\b(?:unlock|unfreeze|unprotect)\w*", "Lock", "any", mode="unlock"),
    Cue(
        r"\b(?:lift|remove|release|clear|take off|drop)\s+(?:the\s+)?(?:lock|protection)s?\b",
        "Lock",
        "any",
        mode="unlock",
    ),
    Cue(r"\bmake\s+" + OBJ + r"(?:editable|writable)\b", "Lock", "any", mode="unlock"),
    Cue(r"\bappend[- ]only\b", "Lock", "any", mode="append_only"),
    Cue(r"\b(?:lock|freeze|froze)\w*", "Lock", "any"),
    Cue(r"\bread[- ]only\b", "Lock", "any"),
    Cue(r"\b(?:protect|safeguard)\w*", "Lock", "any"),
    Cue(r"\bsecure\b(?!\s+(?:storage|location|channel|server))", "Lock", "start"),
    Cue(r"\bmake\s+" + OBJ + r"immutable\b", "Lock", "any"),
    Cue(
        r"\b(?:prevent|block|stop|disallow)\s+(?:any\s+|all\s+|further\s+)*(?:changes|edits|editing|modifications)\b",
        "Lock",
        "any",
    ),
    Cue(r"\bkeep\s+" + OBJ + r"(?:unchanged|intact|as it is|as they are)\b", "Lock", "any"),
    # "set ..." opens several operations; the longer cue at the same place wins over Update's bare "set"
    Cue(r"\bset\s+" + OBJ + r"(?:to\s+|as\s+)?read[- ]only\b", "Lock", "any"),
    Cue(r"\bset\s+" + OBJ + r"(?:to\s+)?expir\w*", "Expire", "any"),
    Cue(r"\bset\s+(?:up\s+)?(?:a\s+|an\s+)?(?:\w+\s+)?reminders?\b", "Promote", "any", remind=True),
    # "bump 6 up", "push note 10 down the list", "move it up": a record moved in the order of importance
    Cue(r"\b(?:bump|push|move|nudge|shift)\s+" + OBJ + r"up\b", "Promote", "any"),
    Cue(r"\b(?:bump|push|move|nudge|shift)\s+" + OBJ + r"down\b", "Demote", "any"),
    # Expire (before Delete: "delete ... in 30 days" is a scheduled expiry)
    Cue(r"\b(?:expir\w*|self-destruct\w*|auto-?delet\w*|ttl)\b", "Expire", "any"),
    Cue(
        r"\b(?:delete|remove|erase|purge|clear|archive|drop|discard)\s+"
        + OBJ
        + r"(?:in|after|within)\s+(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a few)"
        r"\s+"
        r"(?:minutes?|hours?|days?|weeks?|months?|years?)\b",
        "Expire",
        "any",
    ),
    Cue(
        r"\b(?:keep|retain|hold)\s+" + OBJ + r"(?:for|until|till)\s+(?:the\s+next\s+|another\s+)?"
        r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a few|next|end|\w+day\b)",
        "Expire",
        "any",
    ),
    Cue(r"\bretention\b", "Expire", "any"),
    # Label: removing tags is a Label, not a Delete
    Cue(r"\b(?:untag|unlabel)\w*", "Label", "any", mode="remove"),
    # a tag noun heading the removed thing: "remove the draft and wip tags from X", "drop the tag draft";
    # a record noun or a preposition before it leaves a Delete ("delete notes with the tag draft")
    Cue(
        r"\b"
        + TAG_REMOVERS
        + r"\s+(?:the\s+)?(?:"
        + TAG_VALUE
        + r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+)){0,4}?(?:tags?|labels?)\b",
        "Label",
        "any",
        mode="remove",
    ),
    # "remove 'draft' from the tags of X"
    Cue(
        r"\b"
        + TAG_REMOVERS
        + r"\s+"
        + TAG_VALUE
        + r"(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
        + TAG_VALUE
        + r"){0,4}\s+(?:from|off(?:\s+of)?)\s+(?:(?:the|its|their)\s+)?(?:tags?|labels?)\b",
        "Label",
        "any",
        mode="remove",
    ),
    # "take 'draft' off note 7": a quoted or #-word taken off a record is a tag
    Cue(
        r"\b(?:take|strip|pull)\s+(?:the\s+)?(?:'[^']+'|\"[^\"]+\"|#[\w-]+)(?:\s+(?:tag|label))?\s+off\b",
        "Label",
        "any",
        mode="remove",
    ),
    Cue(r"\b(?:retag|relabel)\w*", "Label", "any", mode="replace"),
    Cue(r"\breplace\s+(?:the\s+)?(?:tags?|labels?)\b", "Label", "any", mode="replace"),
    Cue(r"\b(?:tag|label|categori[sz]e|classify|file\s+under)(?:s|ging|ling|ing)?\b", "Label", "any"),
    Cue(r"\b(?:mark|flag)(?:s|ed|ing)?\b", "Label", "any"),
    Cue(r"\badd\s+(?:an?\s+|the\s+)?(?:'[^']+'\s+|\"[^\"]+\"\s+)?(?:tags?|labels?)\b", "Label", "any"),
    # Delete
    Cue(r"\bget\s+rid\s+of\b", "Delete", "any"),
    Cue(r"\b(?:clean|clear)\s+(?:up|out|away)\b", "Delete", "any"),
    Cue(r"\bthrow\s+(?:away|out)\b", "Delete", "any"),
    Cue(r"\b(?:delete|remove|erase|purge|discard|wipe|trash|forget|scrap)\w*", "Delete", "any"),
    Cue(r"\bclear\b", "Delete", "start"),
    # Merge / Split
    Cue(r"\b(?:merge|combine|consolidate|unify|dedupe|deduplicate)\w*", "Merge", "any"),
    Cue(r"\bfold\s+" + OBJ + r"into\b", "Merge", "any"),
    Cue(r"\b(?:link|integrate|bundle|group|join|put)\s+" + OBJ + r"(?:into|with|together)\b", "Merge", "any"),
    Cue(r"\b(?:split|divide|partition|segment)\w*", "Split", "any"),
    Cue(r"\bbreak\s+" + OBJ + r"(?:up|down|apart|into)\b", "Split", "any"),
    Cue(r"\bseparate\b", "Split", "start"),
    Cue(r"\bchunk\b", "Split", "start"),
    Cue(r"\bcut\s+" + OBJ + r"(?:up|into)\b", "Split", "any"),
    # Promote / Demote
    Cue(r"\b(?:demote|deprioriti[sz]e|downgrade|de-?emphasi[sz]e|downrank|shelve)\w*", "Demote", "any"),
    Cue(
        r"\b(?:lower|decrease|reduce|drop|cut|dial\s+down)\s+"
        + W
        + r"(?:priority|importance|weight|rank(?:ing)?)\b",
        "Demote",
        "any",
    ),
    Cue(r"\b(?:less|not\s+(?:so\s+|as\s+)?)important\b", "Demote", "any"),
    Cue(r"\b(?:archive|archiving)\b", "Demote", "any", archive=True),
    Cue(r"\bmove\s+" + OBJ + r"(?:to|into)\s+(?:the\s+)?archive\b", "Demote", "any", archive=True),
    Cue(r"\b(?:promote|prioriti[sz]e|emphasi[sz]e|elevate|upweight|escalate)\w*", "Promote", "any"),
    Cue(r"\bhighlight\w*", "Promote", "any"),
    Cue(
        r"\b(?:raise|increase|bump|boost|up|lift|heighten)\s+"
        + W
        + r"(?:priority|importance|weight|rank(?:ing)?)\b",
        "Promote",
        "any",
    ),
    Cue(r"\bmore\s+important\b", "Promote", "any"),
    Cue(r"\b(?:my|our|the)\s+(?:top|highest|first)\s+priority\b", "Priority", "any"),
    Cue(r"\bremind\s+me\b", "Promote", "any", remind=True),
    Cue(
        r"\b(?:set|make|mark|flag)\s+" + OBJ + r"(?:as\s+|to\s+)?(?:an?\s+|the\s+)?"
        r"(?:top|high|higher|highest|low|lower|lowest|normal|medium|urgent)(?:\s+|-)priority\b",
        "Priority",
        "any",
    ),
    Cue(r"\b(?:set|change|update|adjust)\s+(?:the\s+)?(?:priority|importance)\b", "Priority", "any"),
    Cue(r"\b(?:pin|star)\b", "Promote", "start"),
    # Update
    Cue(
        r"\b(?:update|modify|edit|revise|correct|amend|rename|rewrite|reword|change|adjust|fix|reschedule|move)\w*",
        "Update",
        "any",
    ),
    Cue(r"\breplace\b", "Update", "start"),
    Cue(r"\bturn\b(?=.*\binto\b)", "Update", "start"),
    # a new time said as news: "the dentist moved to Friday", "the call is now on May 3"
    Cue(r"\b(?:moved|rescheduled|postponed|pushed(?:\s+back)?|brought\s+forward)\s+to\b", "Update", "any"),
    Cue(r"\b(?:is|are)\s+now\s+(?:on|at|due)\b", "Update", "any"),
    Cue(r"\bset\b(?=.*\bto\b)", "Update", "start"),
    # Summarize
    Cue(r"\b(?:summari[sz]\w*|recap\w*|outline|condense|digest|synopsis|tl;?dr)\b", "Summarize", "any"),
    Cue(r"\bsum\s+up\b", "Summarize", "any"),
    Cue(r"\bboil\s+" + OBJ + r"down\b", "Summarize", "any"),
    Cue(r"\bbrief\s+me\b", "Summarize", "any"),
    Cue(r"\b(?:an?\s+)?overview\s+of\b", "Summarize", "any"),
    Cue(
        r"\b(?:extract|pull\s+out|list|give\s+me|what\s+(?:are|were)|identify|highlight|note|find|get|outline|"
        r"capture|collect|gather|compile|review|show)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:key|main|essential|"
        r"important|major|core|primary)\s+(?:points?|decisions?|takeaways?|outcomes?|ideas?|findings?|themes?|"
        r"highlights?|results?|conclusions?|insights?|issues?)\b",
        "Summarize",
        "any",
    ),
    Cue(
        r"\b(?:compile|combine|turn|put|consolidate|merge|condense|organi[sz]e)\s+" + W + r"(?:into|as)\s+"
        r"(?:an?\s+|one\s+|the\s+)?(?:\w+\s+)?summary\b",
        "Summarize",
        "any",
    ),
    Cue(
        r"\b(?:generate|write|create|produce|prepare|make|compile|draft|give\s+me)\s+(?:me\s+)?(?:an?\s+|the\s+)?"
        r"(?:short\s+|brief\s+|quick\s+|concise\s+|comprehensive\s+|executive\s+)?summary\b",
        "Summarize",
        "any",
    ),
    # Retrieve
    Cue(
        r"\b(?:search|retriev\w*|fetch|locate|query|look\s+up|look\s+for|find|pull\s+up|bring\s+up|dig\s+up)\b",
        "Retrieve",
        "any",
    ),
    Cue(
        r"\b(?:show|get|list|display|open|recall|check|read|return|review|gather|collect|compile|browse|scan)\b",
        "Retrieve",
        "start",
    ),
    Cue(
        r"\b(?:go\s+(?:through|over)|look\s+(?:at|into|through)|pull\s+together|round\s+up)\b",
        "Retrieve",
        "start",
    ),
    Cue(r"\bwhat\s+(?:do|did)\s+(?:i|we)\s+(?:know|have|save|note|record|store|write)\b", "Retrieve", "any"),
    # Encode
    Cue(r"\b(?:remember|memori[sz]e|save|store|capture|stash|bookmark)\b", "Encode", "any"),
    # a fact handed over to keep: "something I'll need to know later: …", "for later: …", "keep in mind: …"
    Cue(
        r"\b(?:(?:i'?ll|i\s+will|i\s+might|we'?ll|we\s+will)\s+need\s+(?:to\s+know\s+)?(?:this\s+|it\s+)?later|"
        r"for\s+later(?=\s*:)|keep\s+(?:this\s+|it\s+)?in\s+mind|good\s+to\s+know|note\s+to\s+self)\b",
        "Encode",
        "any",
    ),
    Cue(
        # "note 1 and note 2 …" opens with a numbered record, not the verb "note"
        r"\b(?:(?:record|note)(?!\s*#?\d)|log|document|jot|write|add|keep|file|register|put|enter|input|create|"
        r"draft|prepare|schedule|plan|assign|organi[sz]e|insert|track)\b",
        "Encode",
        "start",
    ),
    Cue(r"\bset\s+up\b", "Encode", "start"),
    Cue(
        # not "make memory 11 expire …": a numbered record is an existing one
        r"\b(?:make|take|create|add)\s+(?:a\s+|an\s+)?(?:new\s+)?(?:note|memo|record|entry|memory|reminder)\b"
        r"(?!\s*#?\d)",
        "Encode",
        "any",
    ),
)

# Words that open a request without being its verb: stripped before the imperative is looked for.
POLITE = re.compile(
    r"^(?:\s*(?:please|pls|kindly|hey|hi|ok(?:ay)?|so|uh+|um+|hmm+|alright|now|also|and|yes|quickly|just|"
    r"(?:can|could|would|will)\s+you(?:\s+please)?|i\s+(?:need|want|would\s+like|'d\s+like)\s+(?:you\s+)?to|"
    r"let'?s|let\s+us|help\s+me(?:\s+to)?|(?:make|be)\s+sure(?:\s+to|\s+that)?|ensure(?:\s+that)?|"
    r"go\s+ahead\s+and|try\s+to|remember\s+to|don'?t\s+forget\s+to|i\s+need\s+to|we\s+need\s+to|"
    r"could\s+we|can\s+we|would\s+it\s+be\s+possible\s+to|you\s+(?:should|must|need\s+to|have\s+to|can|could)|"
    r"you|we\s+(?:should|must|need\s+to|have\s+to)|heads\s+up|fyi|btw|by\s+the\s+way)\b[\s,:!-]*)+"
)

# Step connectives: a new step begins here (the marker itself is dropped).
STEP_MARKERS = re.compile(
    r"(?:[;.!?]\s+|,\s*|\s+)(?:and\s+)?(?:then|after\s+that|afterwards|afterward|next|finally|lastly|"
    r"once\s+(?:that'?s|it'?s)\s+done|subsequently)\b[\s,:]*"
    r"|;\s*(?:and\s+)?"
    r"|[.!?]\s+(?=[a-z])"
)
STEP_OPENERS = re.compile(r"^(?:first(?:ly)?|to\s+start|start\s+by|begin\s+by|step\s+1)\b[\s,:]*")
# ", and" / " and" splits only when what follows is itself an imperative (a verb cue at its start)
AND_SPLIT = re.compile(r"(?:,\s*(?:and\s+)?|\s+and\s+(?:also\s+)?|\s+&\s+)")

DETERMINERS = re.compile(
    r"^(?:(?:all|every|each|any|both|the|a|an|this|that|these|those|my|our|your|his|her|their|its|some|"
    r"of|entire|whole|same|existing|current|relevant|related|corresponding|associated)\b\s*)+"
)

# Nouns that name records in general, not what they are about.
_GENERIC_NOUN_WORDS = """
    note notes record records memory memories entry entries item items document documents doc docs file files
    detail details information info data stuff thing things content contents one ones everything anything
    something section sections part parts piece pieces text texts version versions copy copies material
    materials log logs list lists
"""
GENERIC_NOUNS = frozenset(_GENERIC_NOUN_WORDS.split())

# Deictic words: the records the conversation is about (the previous step, else the latest record).
DEICTIC = re.compile(
    r"\b(?:it|them|this|that|these|those|they|the\s+same|the\s+above|the\s+result|the\s+results)\b"
)
ALL_WORDS = re.compile(
    r"\b(?:everything|all\s+(?:of\s+)?(?:my|our|the)?\s*(?:memories|records|notes|entries|items|data)|"
    r"all\s+(?:of\s+)?(?:my|our)\s+\w+|every\s+(?:memory|record|note|entry|item))\b"
)
HARD_DELETE = re.compile(
    r"\b(?:permanent(?:ly)?|for\s+good|irreversibl[ey]|irrecoverabl[ey]|hard[- ]delete|forever|no\s+recovery|"
    r"cannot\s+be\s+restored|unrecoverabl[ey])\b"
)
SINGULAR_LATEST = re.compile(r"\b(?:the\s+)?(?:latest|most\s+recent|newest|last)\s+(?P<noun>[a-z][\w-]*)")
QUESTION = re.compile(
    r"^(?:what|which|when|where|who|whom|whose|how)\b|^(?:do|did|does|is|are|was|were|have|has)\b.*\?\s*$"
)

# What follows the object and is not part of it: purposes, reasons, manners.
TRAILERS = re.compile(
    r"\s*(?:,\s*)?\b(?:for\s+(?:future|later|easy|quick|easier)\s+\w+|for\s+(?:the\s+)?record|for\s+reference|"
    r"to\s+(?:prevent|avoid|ensure|keep|maintain|make\s+sure|stop|protect|preserve|facilitate|help|focus|"
    r"streamline|free|reduce|save|finali[sz]e)\b.*|so\s+(?:that|it|they|no\s+one|nobody)\b.*|"
    r"since\s+.*|because\s+.*|as\s+(?:it|they|we|it'?s|they'?re|we'?ve|these|those|this|that)\s+.*|due\s+to\s+.*|"
    r"in\s+the\s+(?:system|database|memory|store|tracker)|into\s+(?:the\s+)?(?:system|database|memory|store|"
    r"my\s+memory)|from\s+the\s+(?:database|system|store|memory|tracker|calendar|servers?)|please|now|"
    r"right\s+away|immediately|asap)\s*[.!?]*$"
)
REASON = re.compile(
    r"\b(?:because|since|due\s+to|as\s+(?:it|they|we)\b|so\s+that|to\s+(?:prevent|avoid|ensure))\b.*"
)

TYPE_WORDS: dict[str, str] = {
    "task": "task",
    "tasks": "task",
    "todo": "task",
    "todos": "task",
    "to-do": "task",
    "to-dos": "task",
    "event": "event",
    "events": "event",
    "note": "note",
    "notes": "note",
    "reference": "reference",
    "references": "reference",
    "fact": "fact",
    "facts": "fact",
    "summary": "summary",
    "summaries": "summary",
    "episode": "episode",
    "episodes": "episode",
    "page": "page",
    "pages": "page",
    "theme": "theme",
    "themes": "theme",
    "meeting": "meeting",
    "meetings": "meeting",
    "email": "email",
    "emails": "email",
    "idea": "idea",
    "ideas": "idea",
    "knowledge": "knowledge",
}

NUMBER_WORDS: dict[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a few": 3,
    "a couple of": 2,
    "a couple": 2,
    "several": 3,
    "half a dozen": 6,
    "a dozen": 12,
}

# Things a user may ask for in a workflow that are not memory operations: the step is left out, said so.
EXTERNAL = re.compile(
    r"^(?:send|e-?mail|share|notify|forward|upload|publish|post|call|tell|inform|distribute|message|text|ping|"
    r"print|present|announce|circulate|submit)\b"
)
