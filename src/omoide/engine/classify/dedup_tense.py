"""Dedup's tense rule for Japanese: one clause said in the non-past on one side and in the past
on the other, the same verb (pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: 十月に試験を受ける / 十月に試験を
受けた, 審理に参加する / 審理に参加した, 四十社ある / 四十社あった, チームにいる / チームにいた
keep every value and change one or two characters at the end of a clause, so the cosine (0.98-
0.99), the veto and the aligned difference all call them the same; yet one is a plan or a
present state and the other an event done or a state that ended (seen in three writers' sets,
rounds 10, 22 and 23). English has its own reading (``dedup_status._said_as_past``).

Outcome: ``tense_turned`` is True when the two texts hold the same number of clauses (split at
。 and 、) and one pair of clauses in the same place ends in a non-past form (る, う, く …, する,
ます, だ, い) on one side and a past form (た, だ, った, んだ, した, ました, だった, かった) on the
other, the four characters before the two endings being the same (the same verb: 受け|る /
受け|た; 大阪で生まれ|た against 大阪生まれ|だ is not). A paraphrase says the clause at one tense
on both sides; a reporting frame's tense (と言っている / と言っていた) is not read. Since the
thirty-first round a noun predicate's past copula (だった, でした) against the bare noun also
turns when a word was added before it (以前は司書だった / 今も司書だ), the four characters
before the copula agreeing. A pair it
finds is never a duplicate, as the status rule's. Deterministic and symmetric.
"""

from __future__ import annotations

import re

from omoide.engine.lang import is_japanese

__all__ = ["tense_turned"]

_CLAUSE = re.compile(r"[。、．，,.!！?？]+")
_PAST = ("ました", "でした", "だった", "かった", "した", "った", "んだ", "いた", "いだ", "た", "だ")
_NON_PAST = (
    "します",
    "ます",
    "です",
    "する",
    "だ",
    "い",
    "る",
    "う",
    "く",
    "ぐ",
    "す",
    "つ",
    "ぬ",
    "ぶ",
    "む",
)
_COPULA_PAST = ("だった", "でした")
_SAME_STEM = 4  # characters before the ending that must agree (the verb and what it governs)
# A reporting frame's tense (と言っている / と言っていた) is not the fact's.
_FRAME = re.compile(r"(?:と|って)(?:言っ|話し|聞い|書い)てい$")


def _clauses(text: str) -> list[str]:
    return [c for c in _CLAUSE.split(text) if c]


def _stems(clause: str, endings: tuple[str, ...]) -> set[tuple[str, str]]:
    return {(clause[: -len(e)], e) for e in endings if clause.endswith(e) and len(clause) > len(e)}


def _turned(present: str, past: str) -> bool:
    """``present`` ends in a non-past form and ``past`` in a past form of the same verb (two
    clauses ending alike, 東京の学生だ / 京都の学生だ, are not a turn); a noun predicate whose
    copula the notation dropped (司書 / 司書だった) is the non-past of だった / でした, also when
    the past side says more before it (its four characters before the copula the non-past
    side's last four)."""
    if past.endswith(_COPULA_PAST) and (
        past[:-3] == present
        or (
            len(present) >= _SAME_STEM
            and past[:-3].endswith(present[-_SAME_STEM:])
            and not present.endswith(_COPULA_PAST)
        )
    ):
        return True
    return any(
        len(a) >= _SAME_STEM
        and a[-_SAME_STEM:] == b[-_SAME_STEM:]
        and ea != eb
        and not _FRAME.search(a)
        and not present.endswith(eb)
        and not past.endswith(ea)
        for a, ea in _stems(present, _NON_PAST)
        for b, eb in _stems(past, _PAST)
    )


def tense_turned(first: str, second: str) -> bool:
    """True when both texts are Japanese and one clause in the same place turns from the
    non-past to the past (module docstring)."""
    if not (is_japanese(first) and is_japanese(second)):
        return False
    a, b = _clauses(first), _clauses(second)
    if len(a) != len(b):
        return False
    return any(x != y and (_turned(x, y) or _turned(y, x)) for x, y in zip(a, b, strict=True))
