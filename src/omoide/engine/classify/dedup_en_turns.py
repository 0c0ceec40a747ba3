"""Dedup's English turns: the holder of a fact moved to someone else, two short parts traded
places, or the same words denied on one side only (pure).

Trigger: dedup asks whether an English near-copy is a duplicate. Why: on the older seen dedup
sets (session 35) the learned judge dropped pairs that keep every word but

- **the holder**: "I keep a journal" / "my sister keeps a journal" (dedup's notation reads
  "the user" as "I"): the same verb, now said of a person of the user's; the veto finds the
  person added, and the judge weighed it away against the pronouns that change with it
  (five writers);
- **two parts traded**: "at the depot on Mondays … on the road the rest" / "on the road on
  Mondays … at the depot the rest", "the left side … on the right" / "the right side … on
  the left", "2 days … the other 3" / "3 days … the other 2": the same words, so nothing
  differs but the order; ``dedup_order`` leaves out parts that open with a preposition (free
  adjunct order), and these are not that: short parts (three words at most) traded in the
  middle of the sentence, not at its start (a fronted adjunct moved to the end is word order)
  and not items of a list (after, or followed by, a comma, a colon, "and" or "or");
- **a denial**: "asks guests not to film it" / "does not ask guests to …", "am afraid … and
  never changes" / "am not afraid … and changes": in one place where the texts differ, the
  words are the same but for "not" / "never" (and "do" with it) on one side only. A negation
  said with a determiner or a word of lack ("no children" / "not have any children", "read
  little" / "do not read much", "without") is a paraphrase's way and leaves the pair to the
  judge.

Like the status and polarity rules, a pair found is never a duplicate. Deterministic and
symmetric.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.dedup_aspect import en_words, verb_bases
from omoide.engine.lang import is_japanese

__all__ = ["en_turned"]

_PERSONS = lex.EN_PERSONS | lex.EN_CHAIN_PERSONS
_BE = frozenset({"am", "is", "are"})
_HAVE = frozenset({"have", "has"})
_MAX_TRADED = 3  # words in a traded part
_LIST_OPENERS = frozenset({",", ":", ";", "and", "or"})
_NEGATORS = frozenset({"not", "never"})
_DO = frozenset({"do", "does", "did"})
# A negation said with a determiner or a word of lack: a paraphrase's way of denying.
_LACK = frozenset(
    {"no", "none", "nothing", "nobody", "without", "little", "few", "neither", "nor", "any"}
)


def _changed(a: list[str], b: list[str]) -> list[tuple[int, int, int, int]]:
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in ops if tag != "equal"]


def _same_verb(x: str, y: str) -> bool:
    return {x, y} <= _BE or {x, y} <= _HAVE or bool(verb_bases(x) & verb_bases(y))


def _holder_moved(a: list[str], b: list[str]) -> bool:
    """``a`` opens with "I <verb>", ``b`` with "my <person> <the same verb>", a person ``a``
    does not name."""
    return (
        len(a) > 1
        and len(b) > 2
        and a[0] == "i"
        and b[0] == "my"
        and b[1] in _PERSONS
        and b[1] not in a
        and _same_verb(a[1], b[2])
    )


def _traded(a: list[str], b: list[str]) -> bool:
    changed = _changed(a, b)
    if len(changed) != 2:
        return False
    (i1, i2, j1, j2), (k1, k2, l1, l2) = changed
    x, y = a[i1:i2], b[j1:j2]
    return (
        bool(x)
        and bool(y)
        and x != y
        and a[k1:k2] == y
        and b[l1:l2] == x
        and max(len(x), len(y)) <= _MAX_TRADED
        and i1 > 0
        and j1 > 0
        and a[i1 - 1] not in _LIST_OPENERS
        and b[j1 - 1] not in _LIST_OPENERS
        and a[i2] not in _LIST_OPENERS  # "tea, coffee and cocoa": items of one list
    )


def _alike(x: list[str], y: list[str]) -> bool:
    """The same words, one by one, once "not", "never" and "do" are set aside."""
    x = [w for w in x if w not in _NEGATORS and w not in _DO]
    y = [w for w in y if w not in _NEGATORS and w not in _DO]
    return len(x) == len(y) and all(
        verb_bases(v) & verb_bases(w) for v, w in zip(x, y, strict=True)
    )


def _denied_once(a: list[str], b: list[str]) -> bool:
    changed = _changed(a, b)
    if any(w in _LACK for i1, i2, j1, j2 in changed for w in a[i1:i2] + b[j1:j2]):
        return False
    return any(
        sum(w in _NEGATORS for w in a[i1:i2]) != sum(w in _NEGATORS for w in b[j1:j2])
        and _alike(a[i1:i2], b[j1:j2])
        for i1, i2, j1, j2 in changed
    )


def en_turned(first: str, second: str) -> bool:
    """True when an English pair moves the fact's holder to a person of the user's, trades two
    short parts or denies the same words on one side only (module docstring)."""
    if is_japanese(first) or is_japanese(second):
        return False
    a, b = en_words(first), en_words(second)
    # both ways: the alignment of two texts is not symmetric
    return any(
        _holder_moved(x, y) or _traded(x, y) or _denied_once(x, y) for x, y in ((a, b), (b, a))
    )
