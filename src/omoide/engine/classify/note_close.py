"""When a consolidated note surely closes an older memory: one sentence, one sure shape (pure).

A note a conversation produced holds many statements ("Bjørn quit the ferry job. Bjørn is
tired of the rain."), and the rules and the judge, built on one-statement facts, close true
facts on notes. This reader closes only on two shapes, each read in one sentence of the note
alone against one sentence of the old memory:

* **a single-valued state with another value**: the note says its subject lives, works,
  studies or is married somewhere or to someone (the state frames of :mod:`one_slot`, the
  kinds that hold one value at a time), the old memory says the same subject is in the same
  frame, and the two values share no word ("lives in Leeds" → "lives in York";
  東京に住んでいる → 大阪に住んでいる);
* **an explicit end of the old value**: the note says its subject quit, left, moved out of,
  broke up with … something the old memory's state names ("works at a tannery" → "quit the
  tannery"; 消防署に勤めている → 消防署を辞めた).

Both need the same subject at the head of both sentences (a note about a friend never closes a
fact about the user; a possessive subject, "Ken's sister …", is someone else), a verb right
after that subject (a clause reporting what another person said has another head), and no
mark of a plan, a hypothetical, a habit of old, a past retold or a second value ("will",
"used to", "years ago", "also", 予定, たら, 昔, も働いて). Anything else is left to the note
path as before (never CONTRADICTORY). No I/O; deterministic.

Ends said other ways ("no more X", "sold the X": ``note_cues_en``; もう…ない, 閉めた), a
couple's split, being single ended and counts said as changed (``note_count``) are read too;
plans ended, things moved and new homes by ``note_change``. Each language's sentences are read
by its reader (``note_close_en``, ``note_close_ja``); this module holds the decision.
bench/results/note_close*.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from omoide.engine.classify.base import Candidate, Relation, Verdict
from omoide.engine.classify.ended_negated import negated_in_old
from omoide.engine.classify.note_change import change_claims, change_closes
from omoide.engine.classify.note_claim import Claim
from omoide.engine.classify.note_close_en import en_claims, en_told
from omoide.engine.classify.note_close_ja import ja_claims, ja_sentences
from omoide.engine.classify.note_count import count_changed
from omoide.engine.classify.signals import Finding
from omoide.engine.lang import detect_lang

__all__ = ["Claim", "claims", "note_closes", "note_verdict"]


_SUFFIX = re.compile(r"\s*[(（][^()（）]*[)）]")


def claims(text: str, lang: str = "auto", *, old: bool = False) -> list[Claim]:
    """Every claim the reader is sure of in ``text`` (bracketed asides and dates dropped);
    ``old``: the text is the older memory, whose English clauses of the past drop alone."""
    text = _SUFFIX.sub("", unicodedata.normalize("NFKC", text)).strip()
    chosen = lang if lang in ("en", "ja") else detect_lang(text)
    if chosen == "ja":
        return ja_claims(text) + change_claims(ja_sentences(text), "ja", old=old)
    return en_claims(text, old=old) + change_claims(en_told(text), "en", old=old)


def note_verdict(
    candidate: Candidate, after: Sequence[Claim], lang: str = "auto", *, prefix: str = ""
) -> Verdict | None:
    """The verdict a consolidated note gives ``candidate`` when it surely closes it, else None:
    the note path's one entry for both classifiers. ``after`` is the note's claims
    (``claims(new, lang)``), read once per note for all its candidates; ``prefix`` is put
    before the reason (the learned classifier marks what its rules decided with "rule: ")."""
    found = _closes(candidate.content, after, lang)
    if found is None:
        return None
    return Verdict(candidate.key, found.relation, found.confidence, prefix + found.reason)


def note_closes(old: str, new: str, lang: str = "auto") -> Finding | None:
    """CONTRADICTORY when a sentence of the note ``new`` surely changes a state of ``old``'s
    (a state with another value, or an end of its value); else None. Reads ``new`` on each
    call: a classifier reads a note once and calls ``note_verdict``."""
    return _closes(old, claims(new, lang), lang)


def _closes(old: str, after: Sequence[Claim], lang: str) -> Finding | None:
    said = claims(old, lang, old=True)
    before = [c for c in said if c.shape in ("state", "role", "activity", "count")]
    for was in before:
        for now in after:
            if was.subject != now.subject:
                continue
            if was.shape == "count" == now.shape and now.amount and count_changed(was, now):
                return Finding(
                    Relation.CONTRADICTORY,
                    0.9,
                    f"note: {now.frame} now {now.amount.value:g} (count)",
                )
            if not was.value or not now.value or "count" in (was.shape, now.shape):
                continue
            if (
                now.shape == "state"
                and was.shape == "state"
                and was.kind == now.kind
                and was.frame == now.frame
                and not was.frame.startswith("in:")
                and _disjoint(was.value, now.value)
                and _disjoint(was.value, now.span)
                and _disjoint(was.span, now.value)
            ):
                return Finding(
                    Relation.CONTRADICTORY,
                    0.9,
                    f"note: {was.kind} now {'/'.join(sorted(now.value))}",
                )
            named = _shared(was.value | was.span if now.kind == "any" else was.value, now.value)
            if now.cue in ("no more", "sold") and len(named) < len(now.value):
                continue  # "no more X" closes only what the old sentence names whole
            if now.cue == "sold" and (was.frame in ("whole", "home") or not named - {was.cue}):
                continue  # a thing sold is what the old clause's verb takes, not the verb
            if (
                now.shape == "end"
                and _ends(now, was)
                and named
                and not negated_in_old(named, old, lang)
            ):  # "drinks no coffee": no end
                cue = f" ({now.cue})" if now.cue else ""
                return Finding(
                    Relation.CONTRADICTORY, 0.9, f"note: ended {'/'.join(sorted(named))}{cue}"
                )
    return change_closes(said, after)


def _ends(now: Claim, was: Claim) -> bool:
    """Whether the end ``now`` ends the old claim: quitting ends anything the subject does,
    leaving or resigning a job or a school, or what the subject does now in a group named
    with "the" ("plays in the county big band" → "left the county big band"; not a place one
    lives: one leaves a town for a trip), a move out a home, a break-up a partner."""
    kind = now.kind
    if kind == "any":
        return True
    if kind == "left":
        return (was.shape in ("state", "role") and was.kind in ("work", "study")) or (
            now.frame == "the" and was.shape == "activity" and was.frame != "home"
        )
    return kind == was.kind


def _shared(a: frozenset[str], b: frozenset[str]) -> set[str]:
    """The units both name: the same unit, or a katakana run inside a longer one (ボルダリング
    in ボルダリングジム; English words only whole: "art" is not in "party")."""
    return {
        x
        for x in a
        for y in b
        if x == y
        or (min(len(x), len(y)) >= 3 and _WHOLE_RUN.fullmatch(x + y) and (x in y or y in x))
        or _head(x, y)
        or _head(y, x)
    }


def _head(one: str, unit: str) -> bool:
    """Whether a single kanji is the head of a kanji unit (寮 of 生寮: a student hall is a hall)."""
    return (
        len(one) == 1
        and len(unit) > 1
        and _KANJI.fullmatch(one + unit) is not None
        and unit.endswith(one)
    )


_KANJI = re.compile(r"[\u3400-\u9fff々]+")
_WHOLE_RUN = re.compile(r"[\u30a0-\u30ffー・]+")


def _disjoint(a: frozenset[str], b: frozenset[str]) -> bool:
    return not (a & b) and not any(x in y or y in x for x in a for y in b)
