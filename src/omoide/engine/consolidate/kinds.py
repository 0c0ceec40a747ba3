"""Which kind of note a sentence makes: preference, profile or event (pure, offline).

:func:`main_cue` reads the cue the sentence names first (the main clause usually leads);
:func:`omoide.engine.consolidate.render.note_kind` turns it into the note's kind. A mention of
the speaker's people is a profile cue only when the sentence says who they are.
"""

from __future__ import annotations

import re

from omoide.engine.consolidate.cues import Cue, kind_patterns
from omoide.engine.lang import is_japanese

__all__ = ["main_cue"]


def main_cue(text: str) -> str | None:
    """Which of preference, profile or event the sentence is mainly about: the one named
    first, since the main clause usually leads ("I adopted a cat and I love her" is an event,
    "I love hiking and went yesterday" a preference)."""
    japanese = is_japanese(text)
    patterns = kind_patterns(japanese)
    first: tuple[int, str] | None = None
    for cue, pattern in patterns.items():
        match = pattern.search(text)
        if cue == Cue.PROFILE and match and _only_news_of_someone(text, pattern, japanese):
            continue
        if match and (first is None or match.start() < first[0]):
            first = (match.start(), cue)
    return None if first is None else first[1]


# The speaker's people ("my sister", 妻, 猫) name no profile fact by being mentioned: "my
# sister is coming over tomorrow" is news (an event); "I have a sister", "my sister is a
# nurse" and "my sister Ana" say who they are.
_RELATION_ONLY = re.compile(
    r"\bmy (?:husband|wife|partner|boyfriend|girlfriend|son|daughter|kids|children|mom|mother|"
    r"dad|father|sister|brother|family|dog|cat|pet)\b",
    re.IGNORECASE,
)
_STATES_RELATION = re.compile(
    r"\b(?:have|has|got|had)\s+(?:a|an|two|three|\d+)\s+(?:\w+\s+)?(?:husband|wife|partner|"
    r"boyfriend|girlfriend|sons?|daughters?|kids|children|sisters?|brothers?|dogs?|cats?|pets?)"
    r"\b|\bmy \w+(?:['’]s| is| was) (?:a |an |\d|called |named )"
    r"|\bmy \w+,? (?-i:[A-Z][a-z]+)\b",  # "my partner Chris …": who the partner is
    re.IGNORECASE,
)
_JA_RELATION_ONLY = re.compile(r"家族|妻|夫|彼氏|彼女|子供|娘|息子|犬|猫|ペット")
_JA_STATES_RELATION = re.compile(
    r"(?:が|も)[^。、！？]{0,6}?(?:い(?:る|ます|て)|おり)|飼って|という名前|歳|才"
)


def _only_news_of_someone(text: str, profile: re.Pattern[str], japanese: bool) -> bool:
    """Every profile word of ``text`` is one of the speaker's people, and it does not say who
    they are (see :data:`_RELATION_ONLY`)."""
    relation, states = (
        (_JA_RELATION_ONLY, _JA_STATES_RELATION) if japanese else (_RELATION_ONLY, _STATES_RELATION)
    )
    words = [m.group(0) for m in profile.finditer(text)]
    return bool(words) and all(relation.fullmatch(w) for w in words) and not states.search(text)
