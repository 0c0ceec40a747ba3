"""Dedup's added-information veto: the new memory states content the old one does not (pure).

Trigger: dedup's learned judge (not a sure screen) would drop a new memory as a duplicate of a
current one. Why: an extension — the same fact with a detail added (a reason, a number, a
date, an owner, a place, a tool) — keeps the old memory's words and topic, and when it is
restated in another sentence shape ("X has a Y that …" → "The Y X … is …", 「AはBをしている」 →
「AがBする○○は、…」, "… because …", 「…のは…からだ」) the shape change looks to the judge like
one more paraphrase and the added detail is missed: dropping it loses the detail. A paraphrase
(synonyms, voice, word order, particles, number formats, politeness) brings in few content
words of its own, and as many as it leaves out.

Outcome: ``added_information`` — the added content (for the log) when the new memory, read in
dedup's notation beside the old one, brings in enough content the old one lacks; else None.

- English: content words (function words and a few discourse words aside; an age written
  "8-year-old" read as its number) of the new memory that the old one does not have, compared
  by word, by lemma and by a shared stem of five letters ("bouldering" / "boulders"). Added
  information: four such words; or three while it leaves out at most one of the old one's; or,
  with a number or a reason clause (because, since, so that, due to, …) that the old memory
  lacks, two such words, more than it leaves out; or two such words when the new memory, as
  written, opens with the old memory's thing named as known and tells something of it ("The
  hook by Dov's door was a gift from his aunt": ``detail_told.detail_of_old_thing``, the
  classifier's reading of a detail told).
- Japanese: the runs of kanji, katakana or Latin letters and digits in the new memory that share
  no character with the old one's (a word the old memory does not have, 新聞紙, デッキブラシ;
  予定 or 現在 added to a paraphrase is one). Added information: three such words, or one
  when the new memory gives a reason as a cleft the old one does not (「…のは、…からだ」).

The thresholds were read off the training sources (``bench/results/dedup48b.md``): the
CONTRADICTORY and EXTENDABLE pairs of the classify sets that the judge dropped, against the
paraphrases of the dedup sets that it caught. Deterministic; no I/O.
"""

from __future__ import annotations

import re
import unicodedata

from omoide.engine.classify.detail_told import detail_of_old_thing
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.text import parse
from omoide.engine.lang import SEARCH_STOPWORDS, is_japanese, word_set

__all__ = ["added_information", "added_words"]

# Function words never counted as content: the search stopwords and a few discourse words,
# hedges and light verbs that tell no fact of their own.
_EN_FUNCTION = SEARCH_STOPWORDS | word_set(
    """
    per whose via user also still really quite usually often just one ones thing things
    get gets got getting make makes made making lot lots bit way ways mr mrs ms dr
    since though although yet else something nothing anything everything actually around
    roughly approximately normally generally mostly mainly whole entire
    """
)
_EN_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_EN_AGED = re.compile(r"\b(\d+)[ -]years?[ -]old\b")
_EN_REASON = re.compile(
    r"\b(?:because|since|so that|due to|as a result|in order to|which is why|that's why|"
    r"the reason)\b"
)
_STEM = 5  # words sharing this many first letters are one word in another form
_JA_RUN = re.compile(r"[\u3400-\u9fff々〆ヶ]+|[\u30a1-\u30fa\u30fc]+|[A-Za-z0-9]+")
# A reason said as a cleft: 「AがBするのは、…からだ」 (the old fact made the topic, the reason its
# focus)
_JA_CLEFT_REASON = re.compile(r"のは.{2,}から(?:だ|です|だそう|らしい|。|$)")
_DIGIT = re.compile(r"\d")

EN_ADDED = 4  # English content words new to the new memory: added information
EN_ADDED_KEEPING = 3  # … when it leaves out at most one of the old memory's
EN_ADDED_CUED = 2  # … with a number or a reason clause new to it, more than it leaves out,
# or when it tells a detail of the thing the old memory names (``detail_of_old_thing``)
JA_ADDED = 3  # Japanese words new to the new memory (one, in a cleft reason the old one lacks)


def _en_content(text: str) -> list[str]:
    words = _EN_WORD.findall(_EN_AGED.sub(r"\1", text.lower()))
    content = (w.removesuffix("'s") for w in words)
    return [w for w in content if w not in _EN_FUNCTION]


def _en_known(word: str, others: set[str], lemmas: set[str]) -> bool:
    if word in others or en_lemma(word) in lemmas:
        return True
    return len(word) >= _STEM and any(o[:_STEM] == word[:_STEM] for o in others)


def _en_words(old: str, new: str) -> tuple[list[str], list[str]]:
    a, b = _en_content(old), _en_content(new)
    sa, sb = set(a), set(b)
    la, lb = {en_lemma(w) for w in sa}, {en_lemma(w) for w in sb}
    added = [w for w in dict.fromkeys(b) if not _en_known(w, sa, la)]
    removed = [w for w in dict.fromkeys(a) if not _en_known(w, sb, lb)]
    return added, removed


def _ja_words(old: str, new: str) -> tuple[list[str], list[str]]:
    a, b = _JA_RUN.findall(old), _JA_RUN.findall(new)
    ca, cb = set("".join(a)), set("".join(b))
    added = [w for w in dict.fromkeys(b) if not set(w) & ca]
    removed = [w for w in dict.fromkeys(a) if not set(w) & cb]
    return added, removed


def _compared(old: str, new: str) -> tuple[bool, list[str], list[str]]:
    """Whether the pair is Japanese, and its added and removed words (:func:`added_words`)."""
    old, new = (unicodedata.normalize("NFKC", t) for t in (old, new))
    if is_japanese(old) or is_japanese(new):
        return (True, *_ja_words(old, new))
    return (False, *_en_words(old, new))


def added_words(old: str, new: str) -> tuple[list[str], list[str]]:
    """The content words ``new`` has that ``old`` does not (added) and the reverse (removed),
    English words or Japanese kanji / katakana / Latin runs as the module docstring reads
    them."""
    _, added, removed = _compared(old, new)
    return added, removed


def _detail_told(written: tuple[str, str] | None) -> bool:
    """The new memory, as written, opens with the old memory's thing named as known and tells
    something of it (``detail_told.detail_of_old_thing``)."""
    if written is None:
        return False
    return detail_of_old_thing(parse(written[0]), parse(written[1]))


def added_information(old: str, new: str, written: tuple[str, str] | None = None) -> str | None:
    """The content ``new`` states that ``old`` does not (both already in dedup's notation),
    when it is enough to be a detail added rather than a rewording; else None. ``written``:
    the two as written (old, new), for the English shape of a detail told of the old
    memory's thing."""
    japanese, added, removed = _compared(old, new)
    if not added:
        return None
    if japanese:
        cleft = _JA_CLEFT_REASON.search(new) is not None and _JA_CLEFT_REASON.search(old) is None
        return "".join(added) if len(added) >= JA_ADDED or cleft else None
    low_old, low_new = old.lower(), new.lower()
    cued = any(_DIGIT.search(w) for w in added) or (
        _EN_REASON.search(low_new) is not None and _EN_REASON.search(low_old) is None
    )
    if (
        len(added) >= EN_ADDED
        or (len(added) >= EN_ADDED_KEEPING and len(removed) <= 1)
        or (cued and len(added) >= EN_ADDED_CUED and len(added) > len(removed))
        or (len(added) >= EN_ADDED_CUED and _detail_told(written))
    ):
        return " ".join(added)
    return None
