"""a2p memory categories: the standard `a2p:` namespace with its default sensitivities, and the grammar of
`ext:` categories that third parties register (the registry itself is engine configuration).

The standard list follows the a2p protocol's memory specification, version 0.1.0 (January 2026). A
category may name a sub-category after a dot (`a2p:preferences.ui`, `ext:spotify:music.playlists`); a
sub-category has its root's sensitivity.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from memql.lang.fields import SENSITIVITY_ORDER

# a2p 0.1.0 standard categories -> default sensitivity (health and money are restricted, people sensitive)
STANDARD_CATEGORIES: dict[str, str] = {
    "a2p:preferences": "standard",
    "a2p:interests": "standard",
    "a2p:professional": "standard",
    "a2p:health": "restricted",
    "a2p:financial": "restricted",
    "a2p:relationships": "sensitive",
    "a2p:episodic": "standard",
    "a2p:semantic": "standard",
    "a2p:procedural": "standard",
    "a2p:context": "standard",
}

_SEGMENT = r"[A-Za-z0-9_\-]+"
_A2P = re.compile(rf"^(a2p:{_SEGMENT})((?:\.{_SEGMENT})*)$")
_EXT = re.compile(rf"^ext:{_SEGMENT}:{_SEGMENT}(?:\.{_SEGMENT})*$")


def root(category: str) -> str:
    """The category without its sub-category parts: `a2p:preferences.ui` -> `a2p:preferences`."""
    return category.split(".", 1)[0]


def check_category(value: str) -> str:
    """A category of the a2p standard namespace or a well-formed `ext:` name; anything else is refused."""
    if value.startswith("a2p:"):
        match = _A2P.match(value)
        if match is None:
            raise PydanticCustomError(
                "category.namespace", "an a2p category is a2p:<name>, optionally .<sub-category>"
            )
        if match.group(1) not in STANDARD_CATEGORIES:
            raise PydanticCustomError(
                "category.unknown",
                "{name} is not a standard a2p category (one of {known})",
                {"name": match.group(1), "known": ", ".join(STANDARD_CATEGORIES)},
            )
        return value
    if value.startswith("ext:"):
        if _EXT.match(value) is None:
            raise PydanticCustomError(
                "category.namespace",
                "an extension category is ext:<vendor>:<name>, optionally .<sub-category>",
            )
        return value
    raise PydanticCustomError(
        "category.namespace",
        "a category is a standard a2p: category (e.g. a2p:preferences) or a registered ext: one",
    )


def stricter(*levels: str | None) -> str:
    """The most protected of the given sensitivities (standard when none is given)."""
    given = [level for level in levels if level is not None]
    return max(given, key=SENSITIVITY_ORDER.index) if given else SENSITIVITY_ORDER[0]


def lookup(category: str, registered: dict[str, str]) -> str | None:
    """A category's sensitivity: the standard one for `a2p:`, else the registered name that is the
    category itself or its nearest ancestor (`ext:x:y` covers `ext:x:y.z`). None: not registered."""
    if category.startswith("a2p:"):
        return STANDARD_CATEGORIES.get(root(category))
    name = category
    while True:
        if name in registered:
            return registered[name]
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]


Category = Annotated[
    str,
    Field(min_length=1, max_length=128),
    AfterValidator(check_category),
    WithJsonSchema(
        {
            "type": "string",
            "maxLength": 128,
            "pattern": r"^(a2p:[A-Za-z0-9_\-]+|ext:[A-Za-z0-9_\-]+:[A-Za-z0-9_\-]+)(\.[A-Za-z0-9_\-]+)*$",
            "description": "an a2p category: a2p:<standard name> or a registered ext:<vendor>:<name>, "
            "optionally .<sub-category>",
        }
    ),
]
