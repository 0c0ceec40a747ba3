"""Leaving what the old memory names: a role or place ended by its own filler (pure).

A state of one frame — works at, studies at, lives in, is with, owns — often ends without any
word of the new state the rules know: "works as a surveyor for Brackwater Survey" → "left
Brackwater Survey to join Tarnside"; "studying forestry at Lakehead" → "left Lakehead and is
studying boat building"; 「駅前の歯科医院に勤めている」 → 「駅前の歯科医院を辞めた」.
The cue is a verb of leaving (left, quit, resigned from, dropped out of, moved out of, sold,
broke up with; 辞め, 退職, 退学, 中退, 離れ, 引っ越, 手放) whose *object* the old memory
names: the filler of the old state is what was left. A leaving verb about something the old memory
does not name ("left the party early") is not the cue; nor is one the old memory already tells
("quit her job at the library" → "left the library after six years": a detail), one negated or only
intended ("isn't going to quit", 辞めるつもりはない), or "left" as a side or a remainder ("her
left knee", "£185,000 left on the mortgage").

One feature the judge weighs (never a sure rule). No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.text import Sentence, cue

__all__ = ["DEPARTURE_FEATURES", "departure_features", "left_old_filler"]

DEPARTURE_FEATURES: tuple[str, ...] = ("left_old_filler",)

# A verb of leaving and up to four words of its object (English, lower-cased text).
_EN_LEAVE = re.compile(
    r"\b(?:left(?! (?:on|over|for)\b)|quit|quits|resigned from|retired from|dropped out of"
    r"|withdrew from|moved out of|moved away from|transferred out of|walked away from"
    r"|sold|broke up with|split (?:up )?with|divorced|stopped working (?:at|for)"
    r"|stopped going to|no longer (?:works|lives|studies|goes) (?:at|for|in|to|with))"
    r"\s+((?:[\w'’&.-]+\s*){1,4})"
)
_EN_SKIP = frozenset(
    {
        "the",
        "a",
        "an",
        "her",
        "his",
        "their",
        "its",
        "my",
        "our",
        "your",
        "to",
        "and",
        "for",
        "after",
        "in",
        "at",
        "of",
        "with",
        "job",
        "post",
        "position",
        "role",
        "place",
        "home",
        "work",
        "school",
        "team",
    }
)
_EN_SIDE_OWNERS = frozenset({"her", "his", "my", "the", "their", "your", "our"})
# Japanese: up to twelve characters before を / から and a verb of leaving.
_JA_LEAVE = re.compile(
    r"([^\s、。をがはにでと]{2,12})(?:を|から)(?:辞め|やめ|退職|退学|中退|離れ|引っ越|出て|出た"
    r"|手放|売|退会|退部|卒業)"
)
# The leaving negated, wished or intended right after it (辞めるつもりはない, 辞めたい, 辞めない).
_JA_NOT_DONE = re.compile(r".{0,4}(?:ない|ません|ず|たい|つもり|気は|予定|かも)")
_EN_NOT_DONE = re.compile(
    r"\bnot\b|n't\b|\bnever\b|\bgonna\b|\bgoing to\b|\bwill\b|\bwants? to\b"
    r"|\bmight\b|\bthinking of\b"
)
_JA_TRIM = "のさんくんちゃん"


def left_old_filler(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory leaves something the old memory names (see the module)."""
    if new.negative or cue(lex.PLAN, new) or _leaves_any(old) or cue(lex.ENDED, old):
        return False
    if old.lang == "ja":
        for m in _JA_LEAVE.finditer(new.text):
            if _JA_NOT_DONE.match(new.text, m.end()):
                continue
            obj = m.group(1).strip(_JA_TRIM)
            if len(obj) >= 2 and obj in old.text:
                return True
        return False
    for m in _EN_LEAVE.finditer(new.text):
        before = new.text[: m.start()].split()
        if before and (before[-1] in _EN_SIDE_OWNERS or before[-1].endswith(("'s", "’s"))):
            continue  # "her left knee", "Steve's left knee": a side
        if _EN_NOT_DONE.search(" ".join(before[-3:])):
            continue  # "isn't going to quit", "never left"
        words = [w.strip(".,'’") for w in m.group(1).split()]
        content = [w for w in words if w and w not in _EN_SKIP]
        if any(w in old.words or en_lemma(w) in old.words for w in content[:2]):
            return True
    return False


def _leaves_any(sentence: Sentence) -> bool:
    pattern = _JA_LEAVE if sentence.lang == "ja" else _EN_LEAVE
    return pattern.search(sentence.text) is not None


def departure_features(old: Sentence, new: Sentence) -> list[float]:
    """The DEPARTURE_FEATURES row of a pair."""
    return [float(left_old_filler(old, new))]
