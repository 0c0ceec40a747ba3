"""Compound memories: what survives of an old memory when one of its facts changed (pure).

"The user lives in Tokyo with her three rabbits." is two facts. When "The user moved from Tokyo to
Osaka" contradicts it, the old memory is closed, but the rabbits must not be lost. This module
splits a memory into parts at the seams that join separate facts — a second clause with its
own verb ("… and teaches English"), an accompaniment ("… with her three rabbits"), a Japanese
te-form clause (「稚内に住んでいて、…」) — and rebuilds the memory from the parts the new
memory does not touch, with the old subject. A memory with one part has no remainder.

Which part changed: the parts sharing topic words with the new memory; when none does, the
caller passes each part's cosine to the new memory and the closest one is taken.

Longer notes (a consolidated note is often several sentences with a dated suffix, "… (8 May
2023)") are split only at sentence ends: a sentence the new memory does not touch survives
whole. Nothing inside brackets or quotes is ever a seam, a trailing bracketed suffix stays on
the remainder, and a split that would leave a one-word part is no split. No I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.signals import found_in
from omoide.engine.classify.text import parse
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, detect_lang, word_set

__all__ = ["Compound", "remainder", "sentence_count", "split_compound", "statements", "undated"]

_EN_SUBJECT = re.compile(
    r"^(?P<subject>(?:the\s+)?user(?:'s\s+[a-z]+(?:-in-law)?)?|i|my\s+[a-z]+|she|he|"
    r"[A-Z][a-z]+(?:'s\s+[a-z]+)?)\s+",
    re.IGNORECASE,
)
# A second clause: "and"/", and"/", " followed by a verb in the present or past.
_EN_CLAUSE = re.compile(
    r"(?:,\s*and|\s+and|,|;)\s+(?=(?:also\s+)?(?:is|are|was|has|have|had|does|works|lives|"
    r"[a-z]+(?:es|ed)|[a-z]{3,}[^s\W]s)\b)"
)
_EN_WITH = re.compile(
    r"\s+(?=with\s+(?:(?:her|his|their|my|a|an|two|three|four|\d)\b|[A-Z][a-z]+'s\s))"
)
_JA_SUBJECT = re.compile(r"^(?P<subject>[^、。はが]{1,16}?(?:は|が))")
# 「住んでいて、」「していて」「学生で、」: a te-form that ends one fact and begins another (not
# the progressive's own いて: 働いている, 働いています, 働いており are one verb).
_JA_SEAM = re.compile(r"(?<=いて)(?![いお])、?|(?<=[^んい]で)、")
_JA_FINAL = (("いて", "いる"), ("で", "だ"))
# Capitalised words that begin a sentence without being its subject.
_EN_NOT_SUBJECT = word_set(
    "this that these those it its it's there here what when where why how if but and so "
    "not let last next just also still then now today yesterday some many all every"
)
# A sentence that begins by pointing back ("It …", "Their love …", 「それは…」) stays with the
# sentence before it: alone it would not say what it is about.
_EN_BACK = word_set(
    "it it's its this that these those they they're their them there he he's "
    "his him she she's her such even also"
)
_JA_BACK = re.compile(r"^(?:それ|これ|あれ|そこ|ここ|その|この|あの|そう|彼|彼女|でも|また|なので)")
_PAIRS = {"(": ")", "（": "）", "[": "]", "「": "」", "『": "』", "“": "”", '"': '"'}
_SUFFIX = re.compile(r"\s*(?:\([^()]*\)|（[^（）]*）)\s*$")
_SENTENCE_END = {"en": re.compile(r"(?<=[.!?])\s+"), "ja": re.compile(r"(?<=[。！？])\s*")}
_LEADING_MASKS = re.compile("(?:\ue000\\d+\ue001\\s*)+")
_MASK = re.compile("\ue000(\\d+)\ue001")


@dataclass(frozen=True)
class Compound:
    """A memory split into facts: the shared subject and each part's own words."""

    lang: str
    subject: str
    head: str  # the first part's verb, lent to accompaniments ("lives" → "lives with …")
    parts: tuple[str, ...]
    adjunct: tuple[bool, ...]  # part borrows the head verb (English "with …")
    suffix: str = ""  # a trailing bracketed group ("(8 May 2023)"): it dates every part
    sentences: bool = False  # parts are whole sentences (kept as written)


def split_compound(text: str, lang: str = "auto") -> Compound | None:
    """The memory's parts, or None when it holds a single fact (or no clear subject)."""
    lang, sentences, spans, suffix = _read(text, lang)
    if len(sentences) > 1:  # a note of several sentences splits at sentence ends only
        sentences = _join_back_references(sentences, lang)
        if len(sentences) == 1:
            return None
        parts = tuple(_restore(x, spans) for x in sentences)
        return Compound(lang, "", "", parts, (False,) * len(parts), suffix, sentences=True)
    masked = sentences[0].rstrip("。.") if sentences else ""
    found = _split_ja(masked) if lang == "ja" else _split_en(masked)
    if found is None:
        return None
    parts = tuple(_restore(x, spans) for x in found.parts)
    if any(_too_short(part, lang) for part in parts):
        return None  # a one-word part is a list item or a phrase, not a fact
    return Compound(lang, _restore(found.subject, spans), found.head, parts, found.adjunct, suffix)


def _split_en(text: str) -> Compound | None:
    match = _EN_SUBJECT.match(text)
    if match is None or _not_a_subject(match.group("subject")):
        return None
    body = text[match.end() :]
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
    body = text[match.end() :]
    parts = [p.strip("、 ") for p in _JA_SEAM.split(body) if p.strip("、 ")]
    if len(parts) < 2:
        return None
    return Compound("ja", match.group("subject"), "", tuple(parts), (False,) * len(parts))


def _not_a_subject(subject: str) -> bool:
    """A capitalised first word that only begins the sentence ("This", "Being", "Last")."""
    word = subject.split()[0].lower()
    return word in _EN_NOT_SUBJECT or (word.endswith("ing") and " " not in subject)


def _join_back_references(sentences: list[str], lang: str) -> list[str]:
    """Each sentence that points back joined to the one before it."""
    joined: list[str] = []
    for sentence in sentences:
        aside = _LEADING_MASKS.match(sentence)
        if joined and aside and aside.end() < len(sentence):  # "(… photo) Next sentence."
            joined[-1] = f"{joined[-1]} {aside.group(0).strip()}"
            sentence = sentence[aside.end() :]
        if joined and _points_back(sentence, lang):
            joined[-1] = f"{joined[-1]}{'' if lang == 'ja' else ' '}{sentence}"
        else:
            joined.append(sentence)
    return joined


def _points_back(sentence: str, lang: str) -> bool:
    if _MASK.fullmatch(sentence.rstrip("。.!?！？ ")):
        return True  # a bracketed aside alone ("(Ken shared a photo …)") goes with the one before
    if lang == "ja":
        return _JA_BACK.match(sentence) is not None
    first = sentence.split()[0].lower().strip("\"'“”,") if sentence.split() else ""
    return first.replace("’", "'") in _EN_BACK


def sentence_count(text: str, lang: str = "auto") -> int:
    """How many sentences ``text`` holds (a trailing bracketed suffix and asides aside)."""
    _, sentences, _, _ = _read(text, lang)
    return len([x for x in sentences if not _MASK.fullmatch(x.rstrip("。.!?！？ "))])


def statements(text: str, lang: str = "auto") -> tuple[str, ...]:
    """The statements of a note of several sentences, each as written with the note's trailing
    bracketed suffix (its date); a sentence that points back ("It …", 「それは…」) stays with
    the one before it. A memory of one sentence is one statement: itself."""
    compound = split_compound(text, lang)
    if compound is None or not compound.sentences:
        return (text,)
    joiner = "" if compound.lang == "ja" else " "
    return tuple(
        f"{part}{joiner}{compound.suffix}" if compound.suffix else part for part in compound.parts
    )


def _read(text: str, lang: str) -> tuple[str, list[str], list[str], str]:
    """The language, the sentences with bracketed and quoted spans masked, those spans, and
    the trailing bracketed suffix."""
    text = " ".join(text.split())
    lang = detect_lang(text) if lang not in ("en", "ja") else lang
    body, suffix = _split_suffix(text)
    masked, spans = _protect(body)
    sentences = [x.strip() for x in _SENTENCE_END[lang].split(masked) if x.strip()]
    return lang, sentences, spans, suffix


def undated(text: str) -> str:
    """``text`` without its trailing bracketed group (a consolidated note's date, "… (8 May
    2026)", 「…（2031年4月9日）」); unchanged when it has none."""
    return _split_suffix(text)[0]


def _split_suffix(text: str) -> tuple[str, str]:
    """The text without its trailing bracketed group, and that group ("" when none)."""
    match = _SUFFIX.search(text)
    if match is None or match.start() == 0:
        return text, ""
    return text[: match.start()].rstrip(), match.group(0).strip()


def _protect(text: str) -> tuple[str, list[str]]:
    """The text with each top-level bracketed or quoted span replaced by a placeholder (so no
    seam is ever found inside one), and the spans in order."""
    out: list[str] = []
    spans: list[str] = []
    i = 0
    while i < len(text):
        close = _PAIRS.get(text[i])
        end = text.find(close, i + 1) if close else -1
        if end < 0:
            out.append(text[i])
            i += 1
            continue
        out.append(f"\ue000{len(spans)}\ue001")
        spans.append(text[i : end + 1])
        i = end + 1
    return "".join(out), spans


def _restore(text: str, spans: list[str]) -> str:
    return _MASK.sub(lambda m: spans[int(m.group(1))], text)


def _too_short(part: str, lang: str) -> bool:
    return len(part) < 3 if lang == "ja" else len(part.split()) < 2


def remainder(
    old: str, new: str, *, lang: str = "auto", part_similarities: list[float] | None = None
) -> str | None:
    """The old memory rebuilt from the parts ``new`` leaves untouched, or None.

    ``part_similarities`` (cosine of each part with the new memory, in ``split_compound``
    order) decides which part changed when no part shares a topic word with ``new``; without
    it such a memory has no remainder, since nothing says which fact changed.
    """
    compound = split_compound(old, lang)
    if compound is None:
        return None
    new_s = parse(new, compound.lang)
    # The subject's words, and words every sentence shares (the name a note is about), say
    # nothing about which part changed.
    shared = frozenset(_shared_words(compound) | set(_topic_units(compound.subject, compound.lang)))
    touched = [_touches(part, compound.lang, new_s, shared) for part in compound.parts]
    if not any(touched):
        if part_similarities is None or len(part_similarities) != len(compound.parts):
            return None
        closest = max(range(len(compound.parts)), key=lambda i: part_similarities[i])
        touched[closest] = True
    kept = [i for i, t in enumerate(touched) if not t]
    if not kept:
        return None
    return _rebuild(compound, kept)


def _touches(part: str, lang: str, new, shared: frozenset[str] = frozenset()) -> bool:
    """The part shares a topic word with the new memory (``shared`` words aside)."""
    return any(
        found_in(w, new) if lang == "en" else w in new.text
        for w in _topic_units(part, lang)
        if w not in shared
    )


def _topic_units(part: str, lang: str) -> list[str]:
    """English: the part's content lemmas; Japanese: its two-character kanji/kana/latin runs."""
    if lang == "en":
        words = [en_lemma(w) for w in re.findall(r"[a-z]+", part.lower())]
        return [
            w
            for w in words
            if w not in FACT_TOPIC_STOPWORDS and len(w) > 2 and w not in ("with", "and")
        ]
    return [
        part[i : i + 2]
        for i in range(len(part) - 1)
        if re.fullmatch(r"[\u3400-\u9fff\u30a0-\u30ffA-Za-z]{2}", part[i : i + 2])
    ]


def _shared_words(compound: Compound) -> set[str]:
    if not compound.sentences:
        return set()
    units = [set(_topic_units(part, compound.lang)) for part in compound.parts]
    return set.intersection(*units)


def _rebuild(compound: Compound, kept: list[int]) -> str:
    parts = [compound.parts[i] for i in kept]
    japanese = compound.lang == "ja"
    if compound.sentences:
        text = ("" if japanese else " ").join(parts)
    elif japanese:
        last = parts[-1]
        for ending, final in _JA_FINAL:
            if last.endswith(ending):
                last = last[: -len(ending)] + final
                break
        parts[-1] = last
        text = compound.subject + "、".join(parts)
    else:
        if compound.adjunct[kept[0]]:
            parts[0] = f"{compound.head} {parts[0]}"
        subject = compound.subject[0].upper() + compound.subject[1:]
        text = f"{subject} {' and '.join(parts)}."
    if not compound.suffix:
        return text
    return f"{text}{compound.suffix}" if japanese else f"{text} {compound.suffix}"
