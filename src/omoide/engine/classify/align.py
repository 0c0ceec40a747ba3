"""Aligned-span features of two memories for the learned judge (pure).

The most common contradiction a memory store sees is the same statement with one value
swapped: "swims on Tuesdays" → "swims on Wednesdays", 初段 → 二段, one VPN or insurer for
another. The typed slots (:mod:`slots`) know numbers, times, quantities and people; this module
adds the kinds of value they miss and one question about the whole statement:

* **Weekdays** (English day names, weekend / weekdays; 月曜…日曜, 平日, 週末, 土日 and packed
  day lists such as （月水金）) and **levels** (a rank word with its number — level 2, grade 5,
  year 3, version 4, 3rd dan, JLPT-style N3, CEFR B2, a belt colour; 3級, 初段, 二年生, レベル2):
  whether each memory holds one the other lacks (a replaced day or level, not an added one).
* **One aligned span replaced**: the two memories' content tokens (English words without
  stopwords, lemmatised; Japanese script runs without the kana between them) align except one
  short span on each side, with nothing else added or dropped beyond a token or two, and the
  new memory carries no addition marker (also, another, また, …も). Whether the two spans are of
  one type — weekday, level, number, or a proper name (a capitalised or Latin word, a katakana
  run) — is a feature of its own: a name for a name is a replaced value, a name for a verb
  often is not.

No lexicon of products, places or brands: a name is recognised by how it is written. No I/O;
deterministic; every value lies in [0, 1].
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.lang import EN_WEEKDAYS, FACT_TOPIC_STOPWORDS, Script, normalise, script_runs

__all__ = ["ALIGN_FEATURES", "align_features", "levels", "span_type", "weekdays"]

ALIGN_FEATURES: tuple[str, ...] = (
    "align_kept",
    "span_replaced",
    "span_replaced_typed",
    "weekday_changed",
    "level_changed",
)

_MAX_SPAN = 3  # tokens on either side of the one replaced span
_MAX_EXTRA = 2  # tokens added or dropped elsewhere that still count as "the rest aligned"
_MIN_KEPT = 0.5  # share of the old memory's content tokens the alignment keeps

# --- weekdays -------------------------------------------------------------------------------

_EN_WEEKDAY = re.compile(
    r"\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(weekends?)\b"
    r"|\b(weekdays)\b",
    re.IGNORECASE,
)
_JA_DAY_CHARS = "月火水木金土日"
_JA_WEEKDAY = re.compile(
    r"([月火水木金土日])曜|[（(]([月火水木金土日・、]{1,13})[)）]"
    r"|(平日|週末|土日)"
)


def weekdays(text: str, lang: str) -> frozenset[str]:
    """The days of the week a memory names ("mon" … "sun", "weekend", "weekdays")."""
    norm = normalise(text)
    days: set[str] = set()
    if lang == "ja":
        for m in _JA_WEEKDAY.finditer(norm):
            if m.group(1):
                days.add(EN_WEEKDAYS[_JA_DAY_CHARS.index(m.group(1))][:3])
            elif m.group(2):
                days |= {
                    EN_WEEKDAYS[_JA_DAY_CHARS.index(c)][:3]
                    for c in m.group(2)
                    if c in _JA_DAY_CHARS
                }
            else:
                days.add({"平日": "weekdays", "週末": "weekend", "土日": "weekend"}[m.group(3)])
        return frozenset(days)
    for m in _EN_WEEKDAY.finditer(norm):
        if m.group(1):
            days.add(m.group(1).lower()[:3])
        else:
            days.add("weekend" if m.group(2) else "weekdays")
    return frozenset(days)


# --- levels ---------------------------------------------------------------------------------

_EN_RANK = r"(?:level|grade|year|rank|tier|stage|band|version|class|dan|kyu|belt)"
_EN_ORDINAL = (
    r"(?:\d+(?:st|nd|rd|th)?|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"first|second|third|fourth|fifth|[ivx]{1,4})"
)
_EN_LEVEL = re.compile(
    rf"\b{_EN_RANK}\s+{_EN_ORDINAL}\b|\b{_EN_ORDINAL}[- ]{_EN_RANK}\b|\bv\d+(?:\.\d+)*\b"
    r"|\b[abc][12]\b|\bn[1-5]\b|\b(?:white|yellow|orange|green|blue|purple|brown|black|red)"
    r"\s+belt\b",
    re.IGNORECASE,
)
_JA_LEVEL = re.compile(
    r"準?[0-9一二三四五六七八九十初]+(?:級|段|年生|年次|期生)|レベル\s*\d+|[A-Ca-c][12](?![0-9])"
    r"|N[1-5](?![0-9])|[白黄緑青紫茶黒]帯"
)


def levels(text: str, lang: str) -> frozenset[str]:
    """The levels, grades, ranks and versions a memory names, as written (lower-case)."""
    norm = normalise(text)
    pattern = _JA_LEVEL if lang == "ja" else _EN_LEVEL
    return frozenset(re.sub(r"\s+", " ", m.group(0).lower()) for m in pattern.finditer(norm))


def _replaced(old: frozenset[str], new: frozenset[str]) -> bool:
    return bool(old - new) and bool(new - old)


# --- alignment ------------------------------------------------------------------------------

# A word in any Latin-script alphabet (Chloé, Zoë, São), or a number with its ordinal suffix.
_EN_TOKEN = re.compile(r"[^\W\d_](?:[^\W_]|['\-](?=[^\W_]))*|\d+(?:[.,:]\d+)*(?:st|nd|rd|th)?")
_JA_KEPT = frozenset({Script.HAN, Script.KATAKANA, Script.LATIN})
_KATAKANA = re.compile(r"^[\u30a0-\u30ffー]{2,}$")
_NUMBER = re.compile(
    r"\d|^(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|"
    r"hundred|thousand|half|dozen)$|[一二三四五六七八九十百千万]"
)


def _tokens(text: str, lang: str) -> list[tuple[str, str]]:
    """(compared form, as written) of each content token."""
    norm = normalise(text).replace("\u2019", "'")
    if lang == "ja":  # the script runs of engine.lang: kanji, katakana, Latin (kana between)
        return [(run.text.lower(), run.text) for run in script_runs(norm) if run.script in _JA_KEPT]
    out = []
    for t in _EN_TOKEN.findall(norm):
        bare = t.lower().removesuffix("'s")
        if bare in FACT_TOPIC_STOPWORDS or bare == "user":
            continue
        out.append((en_lemma(bare), t))
    return out


def span_type(span: list[str], lang: str, starts_sentence: bool = False) -> str:
    """What kind of value a span of tokens (as written) is: "weekday", "level", "number",
    "name" (capitalised or Latin words, a katakana run) or "other"."""
    text, joined = " ".join(span), "".join(span)
    probe = (
        text
        if lang == "en"
        else (
            f"（{joined}）"
            if len(joined) >= 2 and all(c in _JA_DAY_CHARS for c in joined)
            else joined
        )
    )
    if span and weekdays(probe, lang):
        return "weekday"
    if levels(text if lang == "en" else joined, lang):
        return "level"
    if any(_NUMBER.search(t.lower()) for t in span):
        return "number"
    if lang == "ja":
        if span and all(_KATAKANA.match(t) or t.isascii() for t in span):
            return "name"
        return "other"
    if span and all(t[:1].isupper() for t in span) and not (starts_sentence and len(span) == 1):
        return "name"
    return "other"


def align_features(old_text: str, new_text: str, lang: str) -> list[float]:
    """The ALIGN_FEATURES row of one (old, new) pair."""
    lang = "ja" if lang == "ja" else "en"
    old, new = _tokens(old_text, lang), _tokens(new_text, lang)
    a, b = [t[0] for t in old], [t[0] for t in new]
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    kept = sum(block.size for block in matcher.get_matching_blocks())
    share = kept / len(a) if a else 0.0
    replaced = [
        (i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag == "replace"
    ]
    extra = sum(
        max(i2 - i1, j2 - j1)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag in ("insert", "delete")
    )
    additive = re.search(lex.ADDITIVE[lang], normalise(new_text).lower())
    one_span = (
        len(replaced) == 1 and extra <= _MAX_EXTRA and share >= _MIN_KEPT and additive is None
    )
    typed = False
    if one_span:
        i1, i2, j1, j2 = replaced[0]
        if i2 - i1 > _MAX_SPAN or j2 - j1 > _MAX_SPAN:
            one_span = False
        else:
            first_old = _first_word(old_text, lang)
            kind_old = span_type(
                [t[1] for t in old[i1:i2]], lang, i1 == 0 and old[0][1] == first_old
            )
            kind_new = span_type(
                [t[1] for t in new[j1:j2]],
                lang,
                j1 == 0 and new[0][1] == _first_word(new_text, lang),
            )
            typed = kind_old == kind_new != "other"
    return [
        share,
        float(one_span),
        float(typed),
        float(_replaced(weekdays(old_text, lang), weekdays(new_text, lang))),
        float(_replaced(levels(old_text, lang), levels(new_text, lang))),
    ]


def _first_word(text: str, lang: str) -> str:
    if lang == "ja":
        return ""
    found = _EN_TOKEN.search(normalise(text).replace("\u2019", "'"))
    return found.group(0) if found else ""
