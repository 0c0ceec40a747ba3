"""A household a note changes: someone moved in with a subject who lived alone or as two, or
the household is now another number (pure).

The old memory says its subject lives alone or with so many ("lives alone in a maisonette in
Dundee", 一人暮らし, 夫と二人暮らし); the note says someone moved in with that subject or
into the subject's home ("Lucasta moved in with Uma", "moved into Ottoline's cottage", 佐和子の
ところに…引っ越してきた, 一緒に住んでる), or that the subject lives as another number now
(今は五人で暮らしてる, 今は夫婦二人暮らし). The one moved in with is named by the old
subject's own name (or, when the note's sentence opens on the subject's kin, the home the old
memory names: "The user's daughter … moved into the gatehouse"). Nothing for a while, planned
or hoped ("for the summer", 予定, しばらく). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify.lexicon import JA_KANJI_DIGITS
from omoide.engine.classify.note_claim import Claim, en_units, ja_owner

__all__ = ["house_changed", "house_claims"]

_ALONE = "1"

# --- English -------------------------------------------------------------------------------

_EN_ALONE = re.compile(
    r"^(?:still |now |has )*(?:lives?|is living|has lived|has been living)"
    r" (?:alone|on (?:his|her|their) own|by (?:him|her|them)sel(?:f|ves))"
    r"(?P<home>.*)"
)
_EN_JOINED = re.compile(
    r"\bmoved in with (?P<s>[a-z][\w\-]*)\b(?!'s)"
    r"|\bmoved into (?P<t>[a-z][\w\-]*)'s (?P<home>[a-z\- ]+)"
)
# The subject's kin at the head ("The user's daughter and her kids …") moving into a home the
# old memory names ("moved into the gatehouse").
_EN_KIN_INTO = re.compile(r"^(?P<s>[a-z][\w\-]*)'s [^,;]*?\bmoved into the (?P<home>[a-z\-]+)")
_EN_UNSURE = re.compile(
    r"\b(?:if|would|might|may|could|should|will|maybe|wants?|hopes?|going to|gonna|planning"
    r"|plans?|thinking|for (?:the|a) (?:summer|winter|week|month|few|while|couple|holidays?)"
    r"|for now|temporarily|until|till|staying|visit\w*|not|never|used to|was|were)\b|n't\b"
    r"|\?"
)
_EN_STOP = frozenset({"spare", "room", "own", "little", "old", "new", "the"})


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, written in sentences:
        text = written.lower().replace("\u2019", "'")
        if _EN_UNSURE.search(text):
            continue
        if old:
            m = _EN_ALONE.match(text) if subject is not None else None
            if m:
                home = en_units(m.group("home"), subject or "", _EN_STOP)
                out.append(
                    Claim(subject or "", "house", "", frozenset({_ALONE}), "household", home)
                )
            continue
        whole = text if subject is None else f"{subject} {text}"
        for m in _EN_JOINED.finditer(whole):
            who = m.group("s") or m.group("t")
            if who != subject:  # with the old subject by name, not the one moving in
                out.append(Claim(who, "house", "", frozenset(), "joined", cue="moved in"))
        m = _EN_KIN_INTO.match(whole)
        if m:
            home = en_units(m.group("home"), m.group("s"), _EN_STOP)
            if home:
                out.append(
                    Claim(m.group("s"), "house", "", frozenset(), "joined", home, cue="moved into")
                )
    return out


# --- Japanese ------------------------------------------------------------------------------

_JA_NUMBERS = {**JA_KANJI_DIGITS, "ひと": 1, "独": 1}  # (_JA_SIZE reads 一 to 八)
_JA_SIZE = re.compile(
    r"(?P<n>一|ひと|独|[二三四五六七八])(?:人|り)"
    r"(?:暮らし|で[^。]{0,20}?(?:暮らし|住ん|生活))"
)
# Someone moved into the subject's home or lives with the subject now.
_JA_JOINED = re.compile(
    r"(?:のところ|の家|の部屋|のうち)に[^。]*?(?:引っ越してき|越してき|移ってき"
    r"|住み(?:始め|はじめ)|一緒に住ん|一緒に暮らし|同居)"
)
_JA_NOW = re.compile(r"今は|いまは|になっ|ことになっ")
_JA_UNSURE = re.compile(
    r"予定|つもり|たい(?!へん)|かも|かな|なら|たら(?!しい)|れば|しばらく|一時"
    r"|昔|以前|前は|当時|頃|時代|だった|[?？]"
)


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        if _JA_UNSURE.search(body.split("、")[0] if not old else body):
            continue
        if old:
            m = _JA_SIZE.search(body)
            if subject is not None and m:
                n = str(_JA_NUMBERS[m.group("n")])
                out.append(Claim(subject, "house", "", frozenset({n}), "household"))
            continue
        owner = ja_owner(body)
        if owner is not None and _JA_JOINED.search(body) and not _JA_UNSURE.search(body):
            out.append(Claim(owner, "house", "", frozenset(), "joined", cue="moved in"))
        if subject is None or _JA_UNSURE.search(body):
            continue
        for clause in body.split("、"):
            m = _JA_SIZE.search(clause)
            if m and _JA_NOW.search(clause) and "が" not in clause[: m.start()]:
                n = str(_JA_NUMBERS[m.group("n")])
                out.append(Claim(subject, "house", "", frozenset({n}), "size now"))
    return out


# --- the decision --------------------------------------------------------------------------


def house_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """How many the old memory's subject lives as (``old``), or who a note says moved in or how
    many the subject lives as now."""
    return _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)


def house_changed(was: Claim, now: Claim) -> set[str]:
    """The old household's size when the note changes it (empty when it does not)."""
    if was.shape != "household" or was.subject != now.subject:
        return set()
    if now.shape == "size now" and now.value and not (now.value & was.value):
        return set(was.value)
    if now.shape == "joined" and (not now.span or now.span <= was.span):
        return set(was.value)
    return set()
