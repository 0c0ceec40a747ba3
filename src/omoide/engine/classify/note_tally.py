"""A count a note says has changed, read in the clause that says it (pure).

``note_count`` reads a count per clause of a sentence with no mark of a report or a plan
anywhere, and compares only clauses with a topic word in common. Notes go on after the change
("has cut down to eight hens, thirty was too many") and say the count in a clause of its own
("works at the bakery, six days a week"). This reader takes the note's count in its first
clause (English) or any clause (Japanese) said as changed or as now (cut down to, down to, up
to, now, only; 増やした, 減った, になった, 今は, だけ), and the old count anywhere in a present
sentence about the same subject (or the same owner: 茂の牧場は牛が八十頭 → 茂、牛を百二十頭に
増やした). The two must count the same thing: the same unit, or the new unit named in the old
sentence with the old unit in the new clause ("trains three nights weekly" of kickboxing → "one
kickboxing night"); a unit that is a time word or a bare counter (days, 人, 回, 頭) needs a
word of both sentences too. The amounts must not fit each other (about thirty → eight; not
about thirty → twenty-eight). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.note_claim import (
    EN_GENERIC_COUNT_UNITS,
    Claim,
    en_owned,
    en_units,
    ja_owner,
    ja_units,
)
from omoide.engine.classify.quantity import Quantity, find_quantities
from omoide.engine.classify.quantity_compare import changed_units
from omoide.engine.lang import word_set

__all__ = ["tallied", "tally_claims"]

_EN_CHANGE = re.compile(
    r"\b(?:now|these days|nowadays|cut (?:right )?(?:down|back) to|(?:down|up) to"
    r"|(?:went|gone|come|came) (?:up|down) to|increased to|reduced to|dropped to|only|just)\b"
)
_EN_ADVERBS = re.compile(r"^(?:(?:has|have|'s|is|are|finally|just|now|only|recently) )+")
_EN_UNSURE = re.compile(
    r"\b(?:if|would|might|may|could|should|will|maybe|wants?|hopes?|going to|gonna|planning"
    r"|plans?|thinking|aims?|aiming|target|goal|for (?:the|a) (?:summer|winter|week|month"
    r"|few|while|couple)|temporarily|until|till|was|were|had|used to|ago|first|second|third"
    r"|another|more|extra|also|each|per cent|percent|%|age|aged|old|years)\b|\?"
)
# The tally reader's own additions to the shared generic units (kept apart, on purpose: the
# clause reader ``note_count`` does not have them): words that can follow a number without
# naming what is counted (a verb, "people", "thing").
_EN_GENERIC_UNITS = EN_GENERIC_COUNT_UNITS | frozenset(
    en_lemma(en_lemma(w)) for w in ("go", "went", "left", "people", "person", "thing")
)
_EN_STOP = word_set(
    "cut down up went gone now only just these days week weeks year month nowadays lot bit"
)
# Said as now, or the count itself said as changed to (百二十頭に増やした, 週一回に減った, 十鉢だけ;
# not 四十階で宙づりになった: the change is not of the count).
_JA_CHANGE = re.compile(
    r"今は|いまは|現在は|[〇一二三四五六七八九十百千万\d][^\s、。をがはで]{0,3}"
    r"(?:(?:に|へ)(?:増や|増え|減ら|減っ|なっ|伸ば)|だけ)"
)
_JA_UNSURE = re.compile(
    r"予定|つもり|(?<=[ぁ-ん])たい(?!へん)|かも|かな|なら|たら(?!しい)|れば"
    r"|目標|目指|以前|前は|昔|当時|頃|時代|歳|才|年前|[?？]"
)
_JA_ORDINAL = re.compile(r"[\d〇一二三四五六七八九十百千]+[^\s、。]{0,2}目")
_JA_STOP = frozenset(
    {"今は", "最近", "現在", "先月", "今月", "来月", "今年", "去年", "毎日", "毎週"}
)


_EN_UNIT_STOP = _EN_STOP | frozenset(lex.EN_NUMBER_WORDS)


def _en_units(text: str, subject: str) -> frozenset[str]:
    return en_units(text, subject, _EN_UNIT_STOP)


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, rest in en_owned(sentences):
        if old:
            if _EN_UNSURE.search(rest):
                continue
            topic = _en_units(rest, subject)
            found = find_quantities(rest, "en")
            out += [
                _claim(subject, q, topic, "tally", "en") for q in (*found, *_heads(rest, found))
            ]
            continue
        clause = _EN_ADVERBS.sub("", re.split(r", | - |; ", rest, maxsplit=1)[0].strip())
        if not _EN_CHANGE.search(clause) or _EN_UNSURE.search(clause):
            continue
        topic = _en_units(clause, subject)
        out += [_claim(subject, q, topic, "tally now", "en") for q in find_quantities(clause, "en")]
    return out


# The words after a count up to a break: "about forty bantam hens and …" counts hens too,
# "600 Herdwick ewes on the fell" ewes.
_EN_COUNTED = re.compile(
    r"\b(?:\d[\d,]*|" + "|".join(lex.EN_NUMBER_WORDS) + r") (?P<words>[a-z\-]+(?: [a-z\-]+){0,3})"
)
_EN_COUNT_BREAK = (
    word_set(
        "and or but on in at of for to from with who which that a the by "
        "each every per since after before"
    )
    | lex.EN_TIME_WORDS
)


def _heads(text: str, found: Sequence[Quantity]) -> list[Quantity]:
    """The same counts again with each later word of the counted phrase as the unit (the
    phrase's head noun is its last word, the unit ``find_quantities`` takes its first)."""
    out = []
    for m in _EN_COUNTED.finditer(text):
        first, *rest = m.group("words").split()
        unit = en_lemma(en_lemma(first))
        for q in found:
            if q.unit != unit:
                continue
            for word in rest:
                if word in _EN_COUNT_BREAK:
                    break
                out.append(Quantity(q.value, word, q.bound))
    return out


# 週四日, 週に三日, 週五に: days or times a week (quantity reads 週N回 only).
_JA_WEEKLY = re.compile(
    r"週に?(?P<n>[一二三四五六七1-7])(?:日|回)?"
    r"(?=[^\d〇一二三四五六七八九十時人年かヶ週分]|$)"
)
_JA_DIGIT = {k: float(i) for i, k in enumerate("一二三四五六七", start=1)}


def _ja_found(text: str) -> tuple[Quantity, ...]:
    found = find_quantities(text, "ja")
    if any(q.unit == "freq" for q in found):
        return found
    weekly = tuple(
        Quantity(_JA_DIGIT.get(m.group("n")) or float(m.group("n")), "freq")
        for m in _JA_WEEKLY.finditer(text)
    )
    return found + weekly


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        subject = subject if subject is not None else ja_owner(body)
        if subject is None or _JA_UNSURE.search(body):
            continue
        body = _JA_ORDINAL.sub("、", body)
        if old:
            topic = ja_units(body, _JA_STOP)
            out += [_claim(subject, q, topic, "tally", "ja") for q in _ja_found(body)]
            continue
        for clause in body.split("、"):
            if _JA_CHANGE.search(clause):
                topic = ja_units(clause, _JA_STOP) | ja_units(body, _JA_STOP)
                out += [_claim(subject, q, topic, "tally now", "ja") for q in _ja_found(clause)]
    return out


def _claim(subject: str, q: Quantity, topic: frozenset[str], shape: str, lang: str) -> Claim:
    unit = q.unit if lang == "ja" or q.unit in ("freq", "age", "$") else en_lemma(en_lemma(q.unit))
    return Claim(subject, "tally", unit, topic, shape, amount=Quantity(q.value, unit, q.bound))


# --- the decision --------------------------------------------------------------------------


def tally_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """The old memory's counts (``old``), or the counts a note says are changed or now."""
    return _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)


def tallied(was: Claim, now: Claim) -> bool:
    """Whether the note's count ``now`` changes the old count ``was``."""
    if (
        was.shape != "tally"
        or now.shape != "tally now"
        or was.subject != now.subject
        or was.amount is None
        or now.amount is None
    ):
        return False
    if was.frame == now.frame:
        specific = (
            re.fullmatch(r"[a-z]+", was.frame) is not None and was.frame not in _EN_GENERIC_UNITS
        )
        same = specific or bool(was.value & now.value)
        new = now.amount
    elif now.frame in was.value and was.frame in now.value | {en_lemma(w) for w in now.value}:
        same, new = True, Quantity(now.amount.value, was.frame, now.amount.bound)
    else:
        return False
    return same and bool(changed_units((was.amount,), (new,)))
