"""Compound memories: what survives of an old memory when one of its facts changed (pure).

"The user lives in Tokyo with her two cats." is two facts. When "The user moved from Tokyo to
Osaka" contradicts it, the old memory is closed, but the cats must not be lost. This module
splits a memory into parts at the seams that join separate facts — a second clause with its
own verb ("… and teaches English"), an accompaniment ("… with her two cats"), a Japanese
te-form clause (「名古屋に住んでいて、…」) — and rebuilds the memory from the parts the new
memory does not touch, with the old subject. A memory with one part has no remainder.

Which part changed: the parts sharing topic words with the new memory; when none does, the
caller passes each part's cosine to the new memory and the closest one is taken. No I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.signals import found_in
from omoide.engine.classify.text import parse
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, detect_lang

__all__ = ["Compound", "remainder", "split_compound"]

_EN_SUBJECT = re.compile(
    r"^(?P<subject>(?:the\s+)?user(?:'s\s+[a-z]+(?:-in-law)?)?|i|my\s+[a-z]+|she|he|"
    r"[A-Z][a-z]+(?:'s\s+[a-z]+)?)\s+", re.IGNORECASE)
# A second clause: "and"/", and"/", " followed by a verb in the present or past.
_EN_CLAUSE = re.compile(
    r"(?:,\s*and|\s+and|,|;)\s+(?=(?:also\s+)?(?:is|are|was|has|have|had|does|works|lives|"
    r"[a-z]+(?:es|ed)|[a-z]{3,}[^s\W]s)\b)")
_EN_WITH = re.compile(r"\s+(?=with\s+(?:her|his|their|my|a|an|two|three|four|\d)\b)")
_JA_SUBJECT = re.compile(r"^(?P<subject>[^、。はが]{1,16}?(?:は|が))")
# 「住んでいて、」「していて」「学生で、」: a te-form that ends one fact and begins another.
_JA_SEAM = re.compile(r"(?<=いて)、?|(?<=[^んい]で)、")
_JA_FINAL = (("いて", "いる"), ("で", "だ"))


@dataclass(frozen=True)
class Compound:
    """A memory split into facts: the shared subject and each part's own words."""

    lang: str
    subject: str
    head: str  # the first part's verb, lent to accompaniments ("lives" → "lives with …")
    parts: tuple[str, ...]
    adjunct: tuple[bool, ...]  # part borrows the head verb (English "with …")


def split_compound(text: str, lang: str = "auto") -> Compound | None:
    """The memory's parts, or None when it holds a single fact (or no clear subject)."""
    text = " ".join(text.split()).rstrip("。.")
    lang = detect_lang(text) if lang not in ("en", "ja") else lang
    return _split_ja(text) if lang == "ja" else _split_en(text)


def _split_en(text: str) -> Compound | None:
    match = _EN_SUBJECT.match(text)
    if match is None:
        return None
    body = text[match.end():]
    clauses = [c.strip() for c in _EN_CLAUSE.split(body) if c.strip()]
    parts, adjunct = [], []
    for clause in clauses:
        pieces = [p.strip() for p in _EN_WITH.split(clause) if p.strip()]
        parts += pieces
        adjunct += [i > 0 for i in range(len(pieces))]
    if len(parts) < 2:
        return None
    head = parts[0].split()[0]
    return Compound("en", match.group("subject"), head, tuple(parts), tuple(adjunct))


def _split_ja(text: str) -> Compound | None:
    match = _JA_SUBJECT.match(text)
    if match is None:
        return None
    body = text[match.end():]
    parts = [p.strip("、 ") for p in _JA_SEAM.split(body) if p.strip("、 ")]
    if len(parts) < 2:
        return None
    return Compound("ja", match.group("subject"), "", tuple(parts), (False,) * len(parts))


def remainder(old: str, new: str, *, lang: str = "auto",
              part_similarities: list[float] | None = None) -> str | None:
    """The old memory rebuilt from the parts ``new`` leaves untouched, or None.

    ``part_similarities`` (cosine of each part with the new memory, in ``split_compound``
    order) decides which part changed when no part shares a topic word with ``new``; without
    it such a memory has no remainder, since nothing says which fact changed.
    """
    compound = split_compound(old, lang)
    if compound is None:
        return None
    new_s = parse(new, compound.lang)
    touched = [_touches(part, compound.lang, new_s) for part in compound.parts]
    if not any(touched):
        if part_similarities is None or len(part_similarities) != len(compound.parts):
            return None
        closest = max(range(len(compound.parts)), key=lambda i: part_similarities[i])
        touched[closest] = True
    kept = [i for i, t in enumerate(touched) if not t]
    if not kept:
        return None
    return _rebuild(compound, kept)


def _touches(part: str, lang: str, new) -> bool:
    """The part shares a topic word with the new memory."""
    if lang == "en":
        words = [en_lemma(w) for w in re.findall(r"[a-z]+", part.lower())]
        topic = [w for w in words if w not in FACT_TOPIC_STOPWORDS and len(w) > 2
                 and w not in ("with", "and")]
        return any(found_in(w, new) for w in topic)
    units = [part[i:i + 2] for i in range(len(part) - 1)
             if re.fullmatch(r"[\u3400-\u9fff\u30a0-\u30ffA-Za-z]{2}", part[i:i + 2])]
    return any(u in new.text for u in units)


def _rebuild(compound: Compound, kept: list[int]) -> str:
    parts = [compound.parts[i] for i in kept]
    if compound.lang == "ja":
        last = parts[-1]
        for ending, final in _JA_FINAL:
            if last.endswith(ending):
                last = last[: -len(ending)] + final
                break
        parts[-1] = last
        return compound.subject + "、".join(parts)
    first = kept[0]
    if compound.adjunct[first]:
        parts[0] = f"{compound.head} {parts[0]}"
    subject = compound.subject[0].upper() + compound.subject[1:]
    return f"{subject} {' and '.join(parts)}."
