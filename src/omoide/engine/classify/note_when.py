"""A when a note moves: the days of the week or the time of day something is done (pure).

The old memory's sentence about its subject says when ("volunteers at the library on
Tuesdays", "works the early shift", 毎週火曜に読み聞かせ, 夜勤); the note says, as now or as a
change ("Fridays at the library now", "has been put on earlies", 木曜に変わった, 今は日勤),
other days or another time of day, none of the old ones, about the same thing: a word of the
clause names something the old sentence names, or the clause says the subject was moved and
the old sentence names a shift. Nothing said as also, extra or for a while ("also Fridays
now", 時々). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.note_claim import Claim, en_owned, en_units, ja_owner, ja_units
from omoide.engine.lang import word_set

__all__ = ["when_claims", "when_moved"]

# The time of day, by class: two words of one class say the same time.
_EN_TIMES = {
    "morning": "morning",
    "mornings": "morning",
    "early": "morning",
    "dawn": "morning",
    "day": "day",
    "days": "day",
    "daytime": "day",
    "daytimes": "day",
    "evening": "evening",
    "evenings": "evening",
    "late": "evening",
    "afternoon": "evening",
    "afternoons": "evening",
    "night": "night",
    "nights": "night",
    "overnight": "night",
    "nightshift": "night",
}
_EN_WHEN = re.compile(
    r"\b(?:(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)days?)"
    r"|(?P<time>" + "|".join(_EN_TIMES) + r"))\b"
)
# "on days" as a shift, not "2 days a fortnight" or "most days": a count or a quantifier is no time.
_EN_NOT_TIME = re.compile(
    r"\b(?:\d+|a|one|two|three|four|five|six|seven|few|some|most|all"
    r"|every|other|many|several|those|these|the other|same|late (?:on|in)"
    r"|last|next|this|that|each)\s+$"
)
_EN_CHANGE = re.compile(r"\b(?:now|these days|nowadays|switched|moved|changed|put)\b")
_EN_MOVED = re.compile(
    r"^(?:has |have |'s )?(?:been )?(?:moved|switched|put|transferred"
    r"|changed) (?:on|onto|to|over to)\b"
)
_EN_NOT_SOLE = re.compile(
    r"\b(?:also|too|as well|extra|another|sometimes|occasionally|some|odd|if|would|might|will"
    r"|going to|gonna|wants?|hopes?|for (?:the|a) (?:summer|winter|week|month|few|while)"
    r"|until|till|was|were|had|used to|never|not)\b|n't\b|\?"
)
_EN_TOPIC_STOP = (
    word_set(
        "shift shifts week weekly every only just now these days nowadays switched moved changed "
        "put been mostly usually most"
    )
    | lex.EN_TIME_WORDS
)


# A clock time, by class ("at 6am", "5:10pm"): the same classes as the words.
_EN_CLOCK = re.compile(r"\b(?P<h>\d{1,2})(?::\d\d)? ?(?P<m>am|pm)\b")


def _clock(hour: int, meridiem: str) -> str:
    hour = hour % 12 + (12 if meridiem == "pm" else 0)
    return (
        "night"
        if hour < 4 or hour >= 22
        else "morning"
        if hour < 11
        else ("day" if hour < 16 else "evening")
    )


def _en_when(text: str) -> frozenset[str]:
    found = {_clock(int(m.group("h")), m.group("m")) for m in _EN_CLOCK.finditer(text)}
    for m in _EN_WHEN.finditer(text):
        if m.group("time") and _EN_NOT_TIME.search(text[: m.start()]):
            continue
        if m.group("day"):
            found.add(m.group("day").removesuffix("s"))
        else:
            found.add(_EN_TIMES[m.group("time")])
    return frozenset(found)


def _en_topic(text: str, subject: str) -> frozenset[str]:
    return en_units(_EN_WHEN.sub(" ", text), subject, _EN_TOPIC_STOP)


# "Florian's chess club has moved to Thursdays": the owner's own thing, its when moved (not a
# person's: "Florian's mum has moved to nights" is the mum's).
_EN_OWNER = re.compile(
    r"^(?P<s>[a-z][\w\-]*)'s (?P<rest>(?P<thing>[a-z][a-z\- ]*?) "
    r"(?:has |have |is |'s )?(?:been )?(?:moved|switched|changed|gone)"
    r" (?:to|onto)\b.*)"
)


def _en_owner(sentences: Sequence[tuple[str | None, str]]) -> list[tuple[str, str]]:
    out = []
    for subject, written in sentences:
        m = _EN_OWNER.match(written.lower().replace("\u2019", "'")) if subject is None else None
        if m and m.group("thing").split()[0] not in lex.EN_PERSONS | lex.EN_CHAIN_PERSONS:
            out.append((m.group("s"), m.group("rest")))
    return out


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, rest in [*en_owned(sentences), *_en_owner(sentences)]:
        if old:
            when = _en_when(rest)
            if when and not _EN_NOT_SOLE.search(rest):
                shift = "shift" if re.search(r"\bshifts?\b|\bon (?:days|nights)\b", rest) else ""
                out.append(Claim(subject, "when", shift, _en_topic(rest, subject), "when", when))
            continue
        for clause in re.split(r", | and | but |; | so | because | since ", rest):
            clause = clause.strip()
            when = _en_when(clause)
            if when and _EN_CHANGE.search(clause) and not _EN_NOT_SOLE.search(clause):
                moved = "moved" if _EN_MOVED.match(clause) else ""
                out.append(
                    Claim(subject, "when", moved, _en_topic(clause, subject), "when now", when)
                )
    return out


# --- Japanese ------------------------------------------------------------------------------

_JA_TIMES = {
    "朝": "morning",
    "早朝": "morning",
    "午前": "morning",
    "早番": "morning",
    "日勤": "day",
    "昼間": "day",
    "夕方": "evening",
    "午後": "evening",
    "遅番": "evening",
    "夜": "night",
    "夜勤": "night",
    "深夜": "night",
    "夜間": "night",
}
_JA_WHEN = re.compile(
    r"(?P<day>[月火水木金土日])曜|(?P<time>"
    + "|".join(sorted(_JA_TIMES, key=len, reverse=True))
    + ")"
)
_JA_CHANGE = re.compile(r"に変わっ|に変え|に替わっ|に替え|になっ|に移っ|今は|いまは|現在は")
# も as "also" (木曜にも), not inside a word (子ども, いつも, とても, もう, もの).
_JA_NOT_SOLE = re.compile(
    r"(?<!子ど)(?<!いつ)(?<!とて)(?<!ども)も(?!う|っと|の|ち|ら)"
    r"|時々|ときどき|たまに|予定|つもり|たい(?!へん)|かも|なら|たら|れば"
    r"|しばらく|一時|[?？]"
)
_JA_STOP = frozenset({"毎週", "毎日", "毎朝", "毎晩", "今は", "最近", "先月", "今月", "来月"})


def _ja_when(text: str) -> frozenset[str]:
    return frozenset(
        m.group("day") or _JA_TIMES[m.group("time")]
        for m in _JA_WHEN.finditer(text)
        if not (m.group("time") == "朝" and text[m.end() : m.end() + 1] in "晩夕")
    )


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        subject = subject if subject is not None else ja_owner(body)
        if subject is None:
            continue
        for clause in [body] if old else body.split("、"):
            when = _ja_when(clause)
            if (
                not when
                or _JA_NOT_SOLE.search(clause)
                or (not old and not _JA_CHANGE.search(clause))
            ):
                continue
            topic = ja_units(_JA_WHEN.sub("、", clause), _JA_STOP)
            out.append(Claim(subject, "when", "", topic, "when" if old else "when now", when))
    return out


# --- the decision --------------------------------------------------------------------------


def when_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """When the old memory says things are done (``old``), or when a note says they are now."""
    return _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)


def when_moved(was: Claim, now: Claim) -> set[str]:
    """The old days or times a note's ``now`` replaces (empty when they overlap, or when the
    two are not about one thing)."""
    if was.shape != "when" or now.shape != "when now" or was.subject != now.subject:
        return set()
    # some kind of when (the days, the time of day) both name, with none in common there
    moved = [
        kind
        for kind in (_TIME, None)
        if _of(was.span, kind)
        and _of(now.span, kind)
        and not _of(was.span, kind) & _of(now.span, kind)
    ]
    if moved and (was.value & now.value or (now.frame == "moved" and was.frame == "shift")):
        return set(was.span)
    return set()


_TIME = frozenset({"morning", "day", "evening", "night"})


def _of(span: frozenset[str], kind: frozenset[str] | None) -> frozenset[str]:
    """The times of day in ``span`` (``kind`` the classes), or its days (None)."""
    return span & kind if kind is not None else span - _TIME
