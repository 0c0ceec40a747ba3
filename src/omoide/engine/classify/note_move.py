"""A place a note moves: a thing moved elsewhere, a new home (pure).

* **a thing moved**: the note says its subject moved something of theirs to a new place
  ("has moved the workshop to a unit in Frome", 工房を読谷に移した, 焼き鳥屋を荻窪に移転した),
  the old memory's sentence about the same subject names that thing and none of the new
  place's words ("repairs clocks in a workshop behind the house in Hereford");
* **a new home**: the note says its subject got the keys to, bought or rents a home, moved in
  with someone or settled in somewhere ("has got a flat in Truro", "moved in with Seraphina in
  a flat in Kelvinside"), the old memory says where the same subject lives now ("lives with two
  mates in Swindon", "rents a room near the cathedral"), and the two share no word.

Nothing for a while, hoped for or said of someone else ("for the summer", "wants to move",
"Tom's club has moved"). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.note_claim import (
    Claim,
    en_owned,
    en_units,
    ja_another_subject,
    ja_units,
    wide_place,
)
from omoide.engine.lang import word_set

__all__ = ["move_claims", "moved"]

_EN_ADVERBS = re.compile(
    r"^(?:(?:now|finally|recently|just|officially|actually|already|has"
    r"|have|'s|also) )+"
)
# A thing moved: its subject's own ("the", "his", "Mia's"), to a place said after.
_EN_MOVED_THING = re.compile(
    r"^(?:moved|relocated|shifted|taken) (?:the|his|her|their|[a-z\-]+'s) (?P<thing>[a-z\- ]+?)"
    r"(?: (?:out of|from|away from) [^,]+?)?(?: and)? (?:back |over |down |up |across )?"
    r"(?:in)?to (?P<place>.+)"
)
# A new home: the keys, a home bought or rented, a move in with someone.
_EN_HOME_START = re.compile(
    r"^(?:got (?:the )?keys to|picked up (?:the )?keys to|(?:got|bought|rented|found) "
    r"(?=(?:a|an|their|his|her) (?:[a-z\-]+ )?(?:own )?(?:place|flat|house|home|bungalow"
    r"|cottage|terrace|apartment|studio|room|annexe)\b)|rents (?=an? )|moved (?:back )?in with"
    r"|moved into|settled (?:in )?(?:into|at|in)|is living (?:in|on|at|with))"
    r"(?P<place>.+)"
)
# Where one lives now, said at the clause's start.
_EN_HOME = re.compile(
    r"^(?:still )?(?:lives?|is living|living|rents|is renting|shares|is sharing)\b(?P<place>.+)"
)
_EN_UNSURE = re.compile(
    r"\b(?:if|would|might|may|could|should|will|maybe|wants?|hopes?|going to|gonna|planning"
    r"|plans?|thinking|for (?:the|a) (?:summer|winter|week|month|few|while|couple)|while"
    r"|temporarily|until|till|holiday|weekends?|second|also|too|as well|another|used to|not"
    r"|never|was|were|had)\b"
    r"|n't\b|\?"
)
_EN_BREAK = re.compile(r",| - | because | since | so | to (?:save|be|get|help)\b| after | when ")
_EN_PLACE_STOP = (
    word_set(
        "place flat house home bungalow cottage terrace apartment studio room annexe own new old "
        "little big small nice lovely shared share two three four mates friends others together "
        "unit shop barn workshop ground floor bed one-bed two-bed keys key got now again back "
        "last week month year weekend move moved"
    )
    | lex.EN_TIME_WORDS
)
_EN_TIME = frozenset(lex.EN_TIME_WORDS)


def _en_units(text: str, subject: str, stop: frozenset[str] = _EN_PLACE_STOP) -> frozenset[str]:
    """The words naming a place (``stop``: the words that name none; a thing's: time words)."""
    return frozenset(
        u for u in en_units(text, subject, stop, codes=True, verbs=True) if not u.isdigit()
    )


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, rest in en_owned(sentences):
        for clause in re.split(r",? and | but |, |; ", rest):
            if _EN_UNSURE.search(clause):  # read before "also" and the like are dropped
                continue
            clause = _EN_ADVERBS.sub("", clause.strip())
            if old:
                m = _EN_HOME.match(clause)
                if m:
                    out.append(
                        Claim(subject, "home", "", _en_units(m.group("place"), subject), "home")
                    )
                out.append(
                    Claim(subject, "thing", "", _en_units(clause, subject, _EN_TIME), "located")
                )
                continue
            m = _EN_MOVED_THING.match(clause)
            if m:
                thing = _en_units(m.group("thing"), subject, _EN_TIME)
                place = _EN_BREAK.split(m.group("place"), maxsplit=1)[0]
                out.append(Claim(subject, "thing", "", thing, "moved", _en_units(place, subject)))
            m = _EN_HOME_START.match(clause)
            if m:
                place = _EN_BREAK.split(m.group("place"), maxsplit=1)[0]
                out.append(Claim(subject, "home", "", _en_units(place, subject), "home start"))
    return out


# --- Japanese ------------------------------------------------------------------------------

_JA_MOVED_THING = re.compile(
    r"(?P<thing>[\u3400-\u9fff\u30a0-\u30ffー々]+)を(?:[^、。をに]{1,12}?から)?"
    r"(?P<place>[^、。を]{1,20}?)(?:に|へ)(?:移し|移転し|移転させ|引っ越し)(?:た|て)"
)
_JA_UNSURE = re.compile(
    r"予定|つもり|たい(?!へん)|かも|かな|なら|たら(?!しい)|れば|ようと|ようか"
    r"|検討|考えて|迷って|もし|一時|しばらく|[?？]"
)
_JA_STOP = frozenset({"先月", "今月", "来月", "最近", "今年", "去年", "近く", "市内", "郊外"})


def _ja_units(text: str) -> frozenset[str]:
    return ja_units(text, _JA_STOP, lone=True)


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        if subject is None or _JA_UNSURE.search(body):
            continue
        if old:
            out.append(Claim(subject, "thing", "", _ja_units(body), "located"))
            continue
        for m in _JA_MOVED_THING.finditer(body):
            if ja_another_subject(body, m.start()):
                continue  # another subject moved it
            thing = m.group("thing").rpartition("の")[2]
            out.append(
                Claim(
                    subject,
                    "thing",
                    "",
                    _ja_units(thing[-4:]),
                    "moved",
                    _ja_units(m.group("place")),
                )
            )
    return out


# --- the decision --------------------------------------------------------------------------


def move_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """Where things and homes are (``old``), or where a note moves them."""
    return _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)


def moved(was: Claim, now: Claim) -> set[str]:
    """The words of the old claim ``was`` that the note's move ``now`` moves elsewhere: the
    thing (named whole in the old sentence) or the old home (empty when none)."""
    if was.subject != now.subject or not now.value:
        return set()
    if (
        was.shape == "located"
        and now.shape == "moved"
        and now.span
        and now.value <= was.value
        and not (now.span & was.value)
    ):
        return set(now.value)
    if (
        was.shape == "home"
        and now.shape == "home start"
        and was.value
        and not (now.value & was.value)
        and not wide_place(was.value)
    ):
        return set(was.value)
    return set()
