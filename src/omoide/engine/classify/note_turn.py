"""A change a note tells in so many words: from one value to another, or to a new one instead
of the old (pure).

* **from A to B**: "switched the stall from Saturdays to Sundays", 研究テーマをアリからハチに
  変えた, ルートが大阪から福岡になった: A is named in the old memory's sentence about the same
  subject, B is not;
* **to B, instead of A**: "switched to oboe in the pit band", "B now instead of A", "B now,
  not A", 散歩は夕方に変えた: the new value B shares no word with the old sentence, and what is
  changed (A, the thing said before the cue, or the clause's setting: "in the pit band")
  is named in it;
* **taken off A**: 顧問を外れて, チームから外れて ("came off A"): A named in the old sentence.

Nothing hoped, planned, negated or said of another subject (a clause with its own が, a
sentence about someone else). No I/O.
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
)
from omoide.engine.lang import word_set

__all__ = ["turn_claims", "turned"]

_EN_ADVERBS = re.compile(
    r"^(?:(?:now|finally|recently|just|officially|actually|already|has"
    r"|have|'s|also|since) )+"
)
_EN_CHANGE = (
    r"(?:switched|changed|moved|swapped|transferred|gone|went|been moved"
    r"|been transferred|been switched|rotated|been put|come|came)"
)
_EN_FROM_TO = re.compile(
    rf"^{_EN_CHANGE}(?: (?P<what>[a-z' \-]+?))? (?:over |back )?from (?P<a>.+?) (?:to|onto|into)"
    r" (?P<b>.+)"
)
_EN_TO = re.compile(
    rf"^{_EN_CHANGE} (?:over |back )?(?:to|onto|into) (?P<b>[^,]+?)"
    r"(?: (?:in|at|on|for|with) (?P<ctx>.+))?$"
)
_EN_INSTEAD = re.compile(r"^(?P<b>.+?),? (?:now )?(?:instead of|rather than|not) (?P<a>.+)$")
_EN_OFF = re.compile(r"^(?:come|came|been taken|been moved) off (?P<a>.+)")
_EN_NOW = re.compile(
    r"\b(?:now|these days|nowadays|decided|decides|chose|chosen|opted"
    r"|settled on)\b"
)
_EN_UNSURE = re.compile(
    r"\b(?:if|would|might|may|could|should|will|maybe|wants?|hopes?|going to|gonna|planning"
    r"|plans?|thinking|for (?:the|a) (?:summer|winter|week|month|few|while|couple)|while"
    r"|temporarily|until|till|used to|never|was|were|had|ago)\b|n't\b|\?"
)
_EN_STOP = word_set("one new other same thing things bit lot way") | lex.EN_TIME_WORDS


def _en_units(text: str, subject: str) -> frozenset[str]:
    return en_units(text, subject, _EN_STOP, codes=True, shortest=2)


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, rest in en_owned(sentences):
        if old:
            if not _EN_UNSURE.search(rest):
                out.append(Claim(subject, "turn", "", _en_units(rest, subject), "said"))
            continue
        if _EN_UNSURE.search(rest):
            continue  # a hedge anywhere in the sentence ("…, might go back") holds the change
        for clause in re.split(r", (?!not |instead |rather )| and | but |; | so | because ", rest):
            clause = _EN_ADVERBS.sub("", clause.strip())
            if _EN_UNSURE.search(clause):
                continue
            out += _en_turns(subject, clause)
    return out


def _en_turns(subject: str, clause: str) -> list[Claim]:
    def claim(a: str, b: str, cue: str) -> Claim:
        return Claim(
            subject, "turn", cue, _en_units(a, subject), "turn", _en_units(b, subject), cue=cue
        )

    m = _EN_FROM_TO.match(clause)
    if m:  # B up to its setting ("tenor in the glee club": the glee club is where, not what)
        b = re.split(r" (?:in|at|on|for|with|since|after|because|as) ", m.group("b"))[0]
        return [claim(m.group("a"), b, "from")]
    m = _EN_TO.match(clause)
    if m and m.group("ctx"):
        return [claim(m.group("ctx"), m.group("b"), "setting")]
    m = _EN_OFF.match(clause)
    if m:
        return [
            claim(re.split(r" (?:for|at|since|after|in|on|last|this) ", m.group("a"))[0], "", "off")
        ]
    m = _EN_INSTEAD.match(clause)
    if m and _EN_NOW.search(clause[: m.start("a")]):
        return [claim(m.group("a"), _EN_NOW.sub(" ", m.group("b")), "instead")]
    return []


# --- Japanese ------------------------------------------------------------------------------

_JA_NOUN = r"[\u3400-\u9fff\u30a0-\u30ffー々A-Za-z0-9]+"
_JA_PHRASE = rf"{_JA_NOUN}(?:の{_JA_NOUN})*"
_JA_TURN_VERB = r"(?:変え|変わっ|替え|替わっ|移っ|移し|切り替え|切り替わっ|なっ)(?:た|て)"
_JA_FROM_TO = re.compile(rf"(?P<a>{_JA_PHRASE})から(?P<b>{_JA_PHRASE})(?:に|へ){_JA_TURN_VERB}")
_JA_TO = re.compile(
    rf"(?P<a>{_JA_PHRASE})(?:を|は)(?P<b>{_JA_PHRASE})に(?:変え|替え|切り替え)"
    r"(?:た|て)"
)
_JA_OFF = re.compile(rf"(?P<a>{_JA_PHRASE})(?:を|から)外れ(?:た|て)")
_JA_UNSURE = re.compile(
    r"予定|つもり|(?<=[ぁ-ん])たい(?!へん)|かも|かな|なら|たら(?!しい)|れば"
    r"|ようと|ようか|検討|考えて|迷って|もし|ことになっ|[?？]"
)
_JA_STOP = frozenset({"先月", "今月", "来月", "最近", "今年", "去年", "毎日", "一緒", "全部"})


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        if subject is None or _JA_UNSURE.search(body):
            continue
        if old:
            out.append(Claim(subject, "turn", "", ja_units(body, _JA_STOP), "said"))
            continue
        for cue, pattern in (("from", _JA_FROM_TO), ("setting", _JA_TO), ("off", _JA_OFF)):
            for m in pattern.finditer(body):
                if ja_another_subject(body, m.start()):
                    continue  # another subject's change
                b = m.groupdict().get("b") or ""
                if cue == "from" and "の" in b:
                    b = b.rpartition("の")[0]  # 長野の花火工場: 長野 is what is new
                out.append(
                    Claim(
                        subject,
                        "turn",
                        cue,
                        ja_units(m.group("a"), _JA_STOP),
                        "turn",
                        ja_units(b, _JA_STOP),
                        cue=cue,
                    )
                )
    return out


# --- the decision --------------------------------------------------------------------------


def turn_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """What the old memory says of each subject, its sentences together (``old``), or the
    changes a note tells."""
    found = _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)
    if not old:
        return found
    said: dict[str, frozenset[str]] = {}
    for c in found:
        said[c.subject] = said.get(c.subject, frozenset()) | c.value
    return [Claim(subject, "turn", "", value, "said") for subject, value in said.items()]


def turned(was: Claim, now: Claim) -> set[str]:
    """The old words a note's change ``now`` replaces in the old sentence ``was`` (empty when
    the old value is not named there whole, or the new one is named there too)."""
    if (
        was.shape != "said"
        or now.shape != "turn"
        or was.subject != now.subject
        or not now.value
        or not now.value <= was.value
    ):
        return set()
    if now.cue == "off":
        return set(now.value)
    if now.cue == "instead":  # "B now, not A": B says what else, A is named as no more
        return set(now.value) if now.span - was.value else set()
    if not now.span or now.span & was.value or _inside(now.span, was.value):
        return set()
    return set(now.value)


def _inside(new: frozenset[str], old: frozenset[str]) -> bool:
    """A Japanese unit of the new value inside an old one or around it (ソプラノ, ソプラノ歌手)."""
    return any(
        (x in y or y in x) for x in new for y in old if min(len(x), len(y)) >= 2 and not x.isascii()
    )
