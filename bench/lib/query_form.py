"""What a query's form says about its answer (pure): one fact, or a set gathered over time.

"What activities does she do?", "Where has he travelled?", "How many times …?" and "What do
they both like?" ask for every item of a kind, which a person's conversations mention in many
places; "What did she paint on Sunday?" asks for one. :func:`asks_for_many` tells the first kind
by general grammar only, no topic words:

- English: a wh-word followed (within three words) by a plural head noun and then a
  present-tense auxiliary ("what books has", "which cities do"), or an irregular plural
  ("what people"); a wh-word with "are" ("what are her hobbies"); a "kinds / types / sorts of"
  phrase; a wh-word with a present perfect ("where has … been"); a count ("how many"); or a
  quantifier over people or times ("both", "all", "every", "ever"). A time anchor (a date, a
  month, a digit, "recently", "last", "since", "ago", …) makes it one fact again, except for a
  count.
- Japanese: counters and totals (何回, 何度, いくつ, 何人, 全部, すべて, 両方, 二人とも) and
  "so far" (これまで, 今まで).
"""

from __future__ import annotations

import re

__all__ = ["asks_for_many", "query_words", "without_words"]

_AUX_PRESENT = r"(?:do|does|has|have|are|is)"
_AUX_ANY = r"(?:do|does|did|has|have|had|are|is|was|were|will|would|can|could|should|might)"
_WH = r"(?:what|which|whose|where|who|whom)"
# a plural head noun: a word ending in "s" that is not an auxiliary, a possessive or a word
# whose final "s" is not a plural ("this", "was", "us", "his", "its", "class", "bus", …)
_NOT_PLURAL = {
    "is",
    "was",
    "has",
    "does",
    "this",
    "his",
    "its",
    "us",
    "yes",
    "as",
    "thus",
    "plus",
    "always",
    "perhaps",
    "sometimes",
    "less",
    "unless",
    "across",
    "whereas",
    "towards",
    "besides",
    "afterwards",
    "nowadays",
    "yours",
    "ours",
    "theirs",
    "hers",
}
_WORD = r"[a-z][a-z+\-/]*"
_PLURAL_HEAD = re.compile(rf"\b{_WH}\s+(?:{_WORD}\s+){{0,2}}?({_WORD}s)\s+{_AUX_PRESENT}\b")
_IRREGULAR = r"(?:people|children|men|women|feet|teeth|mice)"
_IRREGULAR_HEAD = re.compile(rf"\b{_WH}\s+(?:{_WORD}\s+){{0,2}}?{_IRREGULAR}\b")
_ARE = re.compile(rf"^\s*{_WH}\s+are\b")  # the copula agrees with a plural subject
_KINDS_OF = re.compile(r"\b(?:kinds|types|sorts|ways|things)\s+of\b")
_PERFECT = re.compile(rf"^\s*{_WH}\s+(?:has|have)\b")
_COUNT = re.compile(r"\bhow\s+many\b")
_QUANTIFIER = re.compile(r"\b(?:both|all|every|ever|each)\b")
_ANCHOR = re.compile(
    r"\d|\b(?:recently|lately|last|since|ago|yesterday|today|tonight|tomorrow|when|"
    r"january|february|march|april|may|june|july|august|september|october|november|"
    r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|"
    r"morning|evening|afternoon|first|next|after|before|during)\b"
)
_JA_MANY = re.compile(
    r"何回|何度|いくつ|何人|何個|何か所|何カ所|全部|すべて|全て|両方|二人とも|"
    r"これまで|今まで"
)
_AUX_WORD = re.compile(rf"^{_AUX_ANY}$")


def _plural_head(text: str) -> bool:
    for match in _PLURAL_HEAD.finditer(text):
        word = match.group(1)
        if word in _NOT_PLURAL or word.endswith(("ss", "us", "is")) or _AUX_WORD.match(word):
            continue
        return True
    return False


def asks_for_many(query: str) -> bool:
    """True when the query's form asks for a set of items gathered over time rather than one
    fact (see the module docstring). Questions without these forms, and statements, are
    False."""
    if _JA_MANY.search(query):
        return True
    text = " ".join(query.lower().replace("’", "'").split())
    if _COUNT.search(text):
        return True
    if _ANCHOR.search(text):
        return False
    return bool(
        _plural_head(text)
        or _IRREGULAR_HEAD.search(text)
        or _ARE.search(text)
        or _KINDS_OF.search(text)
        or _PERFECT.search(text)
        or _QUANTIFIER.search(text)
    )


_WORDS = re.compile(r"\w+")


def query_words(query: str) -> list[str]:
    """The query's words (runs of letters and digits), in order, each once."""
    return list(dict.fromkeys(_WORDS.findall(query)))


def without_words(query: str, drop: set[str]) -> str:
    """The query with the words in ``drop`` left out and spaces collapsed; "" when no word is
    left."""
    kept = _WORDS.sub(lambda m: "" if m.group(0) in drop else m.group(0), query)
    text = " ".join(kept.split())
    return text if _WORDS.search(text) else ""
