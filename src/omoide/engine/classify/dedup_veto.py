"""Dedup's veto: may a near-copy be dropped as a duplicate, or does it carry a value? (pure)

Trigger: a new memory scores above the calibrated dedup threshold against a current one.
Why: dropping a duplicate is the one write that loses text, so a near-copy that changes or adds
a value must be saved (classification then links or supersedes). ``find_value_change`` finds
values *replaced* on both sides; it is also a feature of the learned judge, so it stays as the
judge was trained. Dedup asks more, from the same readers. Outcome: a ``ValueChange`` — the
pair is not a duplicate — when any of these holds, else None:

- a value the classifier's reader finds replaced (number, time, polarity, person, name), except
  an acronym spelled out ("NYC" / "New York City");
- a number, or a time naming a day, week, month or year, on one side only: a statement that
  adds "for $9,000", "two loaves" or "on Saturdays" says more than the one it would replace.
  Numbers and dates are first read in one notation (8万5千 = 85,000; 百七十 = 170; 一斤 = 1 斤;
  令和2年 = 2020年; "14 Feb" = "February 14"; English number words through the 3-op readers'
  ``en_number_runs``: "three hundred and sixty" = 360; "£42k" = 42,000; "nine and a half" =
  9.5, 1年半 = 1.5年; 月に一度 = 毎月, 1日に30分 = 毎日30分; 2027-08-31 = 2027年8月31日 and
  15時〜24時 = 15時から24時まで in Japanese text; "second-hand" = "used");
- a bound or step that differs ("at most" / "at least", "under £900" / "over £900", 以上 /
  以下, 8時まで / 8時から, "every other day", 隔週), or the half of the day when both name one
  (am / pm, 午前 / 午後);
- in Japanese, one word replaced by another with everything else equal: a short kanji run
  (山本 → 山下, 東大 → 京大, 忘年会 → 新年会), a katakana word by another kana word (みかん →
  バナナ, not りんご → リンゴ), or a word of two characters or more by one of another script
  (そば → 小麦). The last also keeps some respellings (眼鏡 / メガネ) as changes: a kept
  paraphrase costs a link, a dropped change a fact. Hiragana for hiragana is grammar (いる /
  ます), and one kanji for kana is a spelling (子供 / 子ども).

Of these, a number or a weekday *replaced* by another on the other side (``value_replaced``:
"£40" / "£45", "on Tuesdays" / "on Thursdays", 週3日 / 週4日) is never weighed away by dedup's
learned judge (session 29): the judge may drop a pair whose other findings (a number on one
side only, a bound word, a name) are often its notation's leftovers, but two plain numbers or
two weekdays that differ are a changed fact said again.

Paraphrases (order, voice, synonyms in other words, politeness, number and date notation) hold
the same values and stay duplicates. The one notation of numbers and dates is
``dedup_number_notation.one_notation``. Deterministic and symmetric.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher

from omoide.engine.classify.dedup_degree import degree_change
from omoide.engine.classify.dedup_number_notation import one_notation
from omoide.engine.classify.value_change import (
    ChangeKind,
    Statement,
    ValueChange,
    compare,
    read_statement,
)
from omoide.engine.lang import Script, script_runs

__all__ = ["bound_markers", "find_dedup_change", "value_replaced"]

# --- markers --------------------------------------------------------------------------------

_EN_MARKERS = re.compile(
    r"\b(at\s+least|at\s+most|more\s+than|less\s+than|fewer\s+than|"
    r"up\s+to|or\s+more|or\s+less|minimum|maximum|until|till|"
    r"every\s+other|biweekly|fortnightly|a\.?m\.?|p\.?m\.?|"
    # "under £12,000" / "over 5 h": a bound when a number follows
    r"under(?=\s+[£$€¥₹]?\d)|over(?=\s+[£$€¥₹]?\d)|below(?=\s+[£$€¥₹]?\d)|above(?=\s+[£$€¥₹]?\d))"
    r"(?![a-z])",
    re.IGNORECASE,
)
_JA_MARKERS = re.compile(
    r"以上|以下|未満|以内|超え|越え|最低|最大|少なくとも|多くても|多くとも|せいぜい|午前|午後|おき|"
    r"隔週|隔日|隔月|"
    r"(?<=[0-9時分日月年曜])(?:まで|から|以降|以前|前|後)"
)

# One meaning, many wordings ("no more than" was read as "at most" with the numbers).
_MARKER_MEANING = {
    "at most": "max",
    "up to": "max",
    "maximum": "max",
    "or less": "max",
    "以下": "max",
    "以内": "max",
    "最大": "max",
    "多くても": "max",
    "多くとも": "max",
    "せいぜい": "max",
    "at least": "min",
    "minimum": "min",
    "or more": "min",
    "以上": "min",
    "最低": "min",
    "少なくとも": "min",
    "more than": "over",
    "超え": "over",
    "越え": "over",
    "less than": "under",
    "fewer than": "under",
    "未満": "under",
    "below": "under",
    "above": "over",
    "till": "until",
    "まで": "until",
    "から": "from",
    "以降": "after",
    "後": "after",
    "以前": "before",
    "前": "before",
    "every other": "alternate",
    "biweekly": "alternate",
    "fortnightly": "alternate",
    "おき": "alternate",
    "隔週": "alternate",
    "隔日": "alternate",
    "隔月": "alternate",
    "a m": "am",
    "午前": "am",
    "p m": "pm",
    "午後": "pm",
}
_HALF_DAY = frozenset({"am", "pm"})


def bound_markers(text: str, lang: str) -> Counter[str]:
    """The bound and step words of ``text`` by meaning ("max", "min", "over", "under",
    "until", "alternate", …): "no more than" and 以内 both read "max"."""
    return _markers(text, lang)


def _markers(text: str, lang: str) -> Counter[str]:
    pattern = _JA_MARKERS if lang == "ja" else _EN_MARKERS
    found = (re.sub(r"[\s.]+", " ", m.group()).strip().lower() for m in pattern.finditer(text))
    return Counter(_MARKER_MEANING.get(f, f) for f in found)


# --- comparing ------------------------------------------------------------------------------

_IGNORED = re.compile(r"[\s。、，,.!！?？「」『』()（）・]+")
_ACRONYM_SKIP = frozenset({"of", "the", "and", "for", "&", "de"})


def _acronym(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """One side's name is the other's initials: nyc / new, york, city; ucla / university,
    california, los, angeles (the reader drops "of")."""
    if len(short) != 1 or not short[0].isascii() or len(short[0]) < 2:
        return False
    initials = "".join(w[0] for w in long if w not in _ACRONYM_SKIP)
    return short[0].lower() == initials.lower()


def _spelled_out(change: ValueChange) -> bool:
    """A name "replaced" by its own acronym. Words swapped for words of another script stay
    changes: 眼鏡 / メガネ is a spelling, but 緑茶 / コーヒー and バス / 電車 are not, and a
    dropped change loses a fact where a kept paraphrase costs only a link."""
    return change.kind is ChangeKind.NAME and (
        _acronym(change.first, change.second) or _acronym(change.second, change.first)
    )


# Times that name a day, week, month or year. A part of the day, a season or a rate is often
# said in other words on one side only (毎朝 / 朝の水泳, 毎年夏 / 毎夏), so only its
# replacement counts (``compare``).
_DATED = ("dow:", "day:", "week:", "month:", "year:", "weekend", "weekday")


def _dated(times: frozenset[str]) -> Counter[str]:
    return Counter(t for t in times if t.startswith(_DATED))


def _added(first: Statement, second: Statement) -> ValueChange | None:
    """A number, or a time naming a day, week, month or year, that one statement holds and
    the other does not."""
    for kind, a, b in (
        (ChangeKind.NUMBER, Counter(first.numbers), Counter(second.numbers)),
        (ChangeKind.TIME, _dated(first.times), _dated(second.times)),
    ):
        if a != b:
            return ValueChange(
                kind, tuple(_show(v) for v in sorted(a - b)), tuple(_show(v) for v in sorted(b - a))
            )
    return None


def _show(value: float | str) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _marker_change(first: Statement, second: Statement) -> ValueChange | None:
    if first.lang != second.lang:
        return None
    a, b = _markers(first.text, first.lang), _markers(second.text, second.lang)
    if not (set(a) & _HALF_DAY and set(b) & _HALF_DAY):
        # "7:40 pm" and "19:40" are one time: a half of the day counts only against another
        a, b = (Counter({k: n for k, n in c.items() if k not in _HALF_DAY}) for c in (a, b))
    if a == b:
        return None
    return ValueChange(ChangeKind.NUMBER, tuple(sorted(a - b)), tuple(sorted(b - a)))


_KANA = frozenset({Script.HIRAGANA, Script.KATAKANA})


def _script(span: str) -> Script | None:
    """The one script a span is written in (``engine.lang``), or None for a mix."""
    runs = script_runs(span)
    return runs[0].script if len(runs) == 1 and runs[0].text == span else None


def _katakana(span: str) -> str:
    return "".join(chr(ord(c) + 0x60) if "\u3041" <= c <= "\u3096" else c for c in span)


def _ja_swapped(first: Statement, second: Statement) -> ValueChange | None:
    """One word replaced by another, the rest of the two statements equal: a short kanji run
    by another, a katakana word by another kana word, or (two characters or more on each
    side) a word by one of another script (そば / 小麦, おにぎり / サンドイッチ)."""
    if first.lang != "ja" or second.lang != "ja":
        return None
    a, b = _IGNORED.sub("", first.text), _IGNORED.sub("", second.text)
    ops = [
        op for op in SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"
    ]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    old, new = a[i1:i2], b[j1:j2]
    scripts = {_script(old), _script(new)}
    if not scripts <= {Script.HAN, *_KANA} or max(len(old), len(new)) > 6:
        return None
    if scripts == {Script.HAN}:
        swapped = max(len(old), len(new)) <= 3
    elif scripts <= _KANA:
        # りんご / リンゴ is one word; a hiragana swap is grammar (いる / ます)
        swapped = (
            min(len(old), len(new)) >= 2
            and _katakana(old) != _katakana(new)
            and Script.KATAKANA in scripts
        )
    else:
        swapped = min(len(old), len(new)) >= 2  # 子供 / 子ども differ by one character
    return ValueChange(ChangeKind.NAME, (old,), (new,)) if swapped else None


def find_dedup_change(first: str, second: str) -> ValueChange | None:
    """The value that keeps ``second`` from being a duplicate of ``first`` (or the reverse),
    or None when the two state the same values and one may be dropped."""
    a, b = read_statement(one_notation(first)), read_statement(one_notation(second))
    change = compare(a, b)
    if change is not None and not _spelled_out(change):
        return change
    return (
        _added(a, b) or _marker_change(a, b) or _ja_swapped(a, b) or degree_change(a.text, b.text)
    )


def _plain_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def value_replaced(change: ValueChange) -> bool:
    """Whether ``change`` replaces a value by another of its sort, both sides holding one:
    plain numbers only ("3 days" / "4 days", 1,200円 / 1,500円; not a bound word or a number on
    one side only), or weekdays ("Mondays" / "Wednesdays"; not a weekday against "weekends", a
    part of the day or a rate, which are often said in other words)."""
    if not change.first or not change.second:
        return False
    if change.kind is ChangeKind.NUMBER:
        return all(_plain_number(v) for v in change.first + change.second)
    if change.kind is ChangeKind.TIME:
        days = [{v for v in side if v.startswith("dow:")} for side in (change.first, change.second)]
        return bool(days[0]) and bool(days[1]) and days[0] != days[1]
    return False
