"""Did a value change between two near-identical statements? Dedup's narrow veto (pure).

Trigger: a new memory scores above the calibrated dedup threshold against a current one.
Why: embeddings score "has 2 dogs" / "has 3 dogs" as high as a paraphrase, so cosine alone
would drop a changed fact. But any broader judgement (the 3-op classifier's EXTENDABLE) fires
on most paraphrases too. Outcome: the pair is a duplicate unless one of five values changed —

- a number (digits, English number words, kanji numerals, month names: "3" = "three" = "三"),
- a time named without a number (weekday, season, "next week", 先週, 毎朝),
- the polarity (not / never / no longer / quit / dislike; ない / ません / やめた / 嫌い),
- the person the statement is about (mother ↔ father, 姉 ↔ 兄, the user ↔ the user's wife),
- a name, place or other proper noun (capitalised words in English; kanji and katakana words
  in Japanese),
- in English, one content word swapped for another in an otherwise word-for-word identical
  statement ("learning the cello" / "learning the oboe": Japanese nouns are kanji or katakana
  words and are covered above), unless the two are spellings of one word ("favourite" /
  "favorite", "practise" / "practice"),

or one statement announces a change that the other does not ("now works at a bookshop", 転職した).

A number, time or name counts as *replaced* only when each statement holds one the other
lacks: a statement that merely adds a number, or reorders the same words ("大阪出身" /
"出身地は大阪"), keeps the same values. People are compared as sets: naming another or an extra
person changes whom the statement is about. A Japanese word is missing from the other statement
when fewer than half of its characters, or none of two in a row, appear there: 子供 / 子ども and
出身 / 出身地 stay the same word, 熊本出身 / 長崎出身 do not. Statements in two languages are
compared on numbers only. No I/O, no model: deterministic and symmetric.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any

from omoide.engine.classify.value_numbers import blank_numbers, find_numbers, find_times
from omoide.engine.lang import SEARCH_STOPWORDS, Lang, detect_lang, normalise

__all__ = ["ChangeKind", "Statement", "ValueChange", "find_value_change", "read_statement"]


class ChangeKind(StrEnum):
    NUMBER = "number"
    TIME = "time"
    NEGATION = "negation"
    PERSON = "person"
    NAME = "name"
    CHANGE = "change"  # one statement says something changed, the other does not


@dataclass(frozen=True)
class ValueChange:
    """What changed: the values only the first and only the second statement holds."""

    kind: ChangeKind
    first: tuple[str, ...]
    second: tuple[str, ...]

    @property
    def reason(self) -> str:
        before = ", ".join(self.first) or "–"
        after = ", ".join(self.second) or "–"
        return f"{self.kind.value} changed: {before} → {after}"


@dataclass(frozen=True)
class Statement:
    """The values of one statement, notation removed."""

    text: str  # normalised (NFKC)
    lang: Lang
    numbers: tuple[float, ...]  # ascending, repeats kept
    times: frozenset[str]
    negative: bool
    announces_change: bool
    people: frozenset[str]
    names: tuple[str, ...]  # proper nouns / content words that can be replaced
    words: frozenset[str]  # English: every lower-case word, to look names up in


# --- polarity -----------------------------------------------------------------------------

# "used to" is a past habit ("used to live in Osaka"); "is used to" means accustomed.
_EN_NEGATIVE = re.compile(
    r"\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without|rarely|seldom|hardly|"
    r"quit|quits|quitting|stopped|formerly|former|dislikes?|disliked|hates?|hated|"
    r"(?<!\bis\s)(?<!\bam\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bget\s)(?<!\bgot\s)used\s+to|"
    r"gave\s+up|given\s+up)\b|n['’]t\b", re.IGNORECASE)
# ない after kana is a negated verb or adjective (飲まない, 好きじゃない, 高くない); after kanji
# it is part of a word (少ない, 危ない). The exclusions are idioms that negate nothing.
_JA_NOT_NEGATIVE = re.compile(
    r"かもしれない|しれない|しかない|もったいない|たまらない|違いない|仕方が?ない|目がない|"
    r"(?:ければ|くては|くちゃ)(?:ならない|いけない)|ないと(?:いけない|だめ)|ざるを得ない")
_JA_NEGATIVE = re.compile(
    r"(?<=[\u3040-\u309f])ない|ません|なかった|無い|ずに|やめ[たてる]|辞め[たてる]|止め[たてる]|"
    r"嫌い|苦手|かつて")


# A statement that announces a change ("now works at a bookshop", 転職した) is news about a
# value, never a restatement of one that does not: the replaced value may be any word.
_EN_CHANGE = re.compile(
    r"\b(?:now|nowadays|these\s+days|anymore|switched|switches|changed|became|become|moved|"
    r"relocated|instead|replaced)\b", re.IGNORECASE)
_JA_CHANGE = re.compile(
    r"今は|今では|最近は|変わった|変えた|替えた|換えた|乗り換え|転職|引っ越|転居|移った|移り住|"
    r"代わりに|になった")


def _announces_change(text: str, lang: str) -> bool:
    return (_JA_CHANGE if lang == "ja" else _EN_CHANGE).search(text) is not None


def _negative(text: str, lang: str) -> bool:
    if lang == "ja":
        return _JA_NEGATIVE.search(_JA_NOT_NEGATIVE.sub(" ", text)) is not None
    return _EN_NEGATIVE.search(text) is not None


# --- people -------------------------------------------------------------------------------

_EN_PEOPLE = {
    "mother": "mother|mom|mum|mama|mommy|mummy", "father": "father|dad|papa|daddy",
    "parent": "parents?", "sister": "sisters?", "brother": "brothers?", "sibling": "siblings?",
    "son": "sons?", "daughter": "daughters?", "child": "child|children|kids?",
    "wife": "wife|wives", "husband": "husbands?", "partner": "partners?|spouses?",
    "girlfriend": "girlfriends?", "boyfriend": "boyfriends?", "fiance": "fianc[ée]e?",
    "grandmother": "grandmothers?|grandma|granny", "grandfather": "grandfathers?|grandpa",
    "grandparent": "grandparents?", "grandchild": "grandchild|grandchildren|grandsons?|"
    "granddaughters?", "aunt": "aunts?", "uncle": "uncles?", "cousin": "cousins?",
    "niece": "nieces?", "nephew": "nephews?", "friend": "friends?", "boss": "boss|bosses",
    "colleague": "colleagues?|co-?workers?", "neighbour": "neighbou?rs?",
    "roommate": "roommates?|flatmates?", "classmate": "classmates?",
}
_JA_PEOPLE = {
    "祖父母": "祖父母", "祖母": "祖母|おばあちゃん|おばあさん",
    "祖父": "祖父|おじいちゃん|おじいさん",
    "両親": "両親", "母": "母親|お母さん|おかあさん|母|ママ",
    "父": "父親|お父さん|おとうさん|父|パパ", "兄弟": "兄弟", "姉妹": "姉妹",
    "姉": "お姉さん|姉", "妹": "妹", "兄": "お兄さん|兄", "弟": "弟", "息子": "息子",
    "娘": "娘", "子供": "子供|子ども|こども|お子さん", "妻": "妻|嫁|奥さん|家内",
    "夫": "(?<![丈工])夫|旦那|ご主人|主人(?!公)", "彼氏": "彼氏", "彼女": "彼女",
    "恋人": "恋人", "婚約者": "婚約者", "叔父": "叔父|伯父|おじさん", "叔母": "叔母|伯母|おばさん",
    "いとこ": "いとこ|従兄弟|従姉妹", "甥": "甥", "姪": "姪", "孫": "孫",
    "友達": "友達|友だち|友人|親友", "上司": "上司", "同僚": "同僚", "部下": "部下", "先輩": "先輩",
    "後輩": "後輩", "隣人": "隣人|近所の人", "ルームメイト": "ルームメイト",
}


def _people_pattern(table: dict[str, str], *, words: bool
                    ) -> tuple[re.Pattern[str], dict[str, str]]:
    """One alternation over every spelling, and which person each named group stands for.
    Longest spelling first, so 祖母 is read before 母 and 兄弟 before 兄."""
    spellings = sorted(((alt, name) for name, alts in table.items() for alt in alts.split("|")),
                       key=lambda p: len(p[0]), reverse=True)
    groups = {f"p{i}": name for i, (_, name) in enumerate(spellings)}
    body = "|".join(f"(?P<p{i}>{alt})" for i, (alt, _) in enumerate(spellings))
    pattern = re.compile(rf"\b(?:{body})\b" if words else body, re.IGNORECASE)
    return pattern, groups


_PEOPLE_RE = {"en": _people_pattern(_EN_PEOPLE, words=True),
              "ja": _people_pattern(_JA_PEOPLE, words=False)}


def _people(text: str, lang: str) -> tuple[frozenset[str], str]:
    """The people a statement names (canonical), and the text with them blanked."""
    found: set[str] = set()
    pattern, groups = _PEOPLE_RE[lang]

    def take(match: re.Match[str]) -> str:
        found.add(groups[match.lastgroup or ""])
        return " " * len(match.group())

    blanked = pattern.sub(take, text)
    return frozenset(found), blanked


# --- names --------------------------------------------------------------------------------

# The statement's own subject is not a value ("私は…" and "ユーザーは…" are the same person).
_SELF = {"en": frozenset({"i", "me", "user", "users"}),
         "ja": re.compile(r"ユーザー|ユーザ|私|僕|俺|自分|わたし")}
# Sentence-initial words that are capitalised only because they start the sentence.
_OPENERS = SEARCH_STOPWORDS | {
    "every", "each", "last", "next", "lately", "recently", "usually", "always", "often",
    "sometimes", "also", "today", "yesterday", "tomorrow", "since", "during", "whenever",
    "although", "though", "yes", "many", "several", "one", "another",
}
_EN_CAPITAL = re.compile(r"\b([A-Z][A-Za-z0-9'’-]*)")
_EN_WORD = re.compile(r"[a-z0-9][a-z0-9'’-]*")
_JA_SPAN = re.compile(r"[\u4e00-\u9fff\u3005]+|[\u30a1-\u30fa\u30fc]+|[A-Za-z][A-Za-z0-9-]*")
# Hiragana that may follow a noun: particles and the copula. Any other hiragana after a kanji
# is okurigana, and that kanji is a verb or adjective stem (住んで, 好き, 赤い, 10年間習って),
# not part of a name, unless a kanji word is followed by する (勉強して, 通勤する).
_AFTER_NOUN = frozenset("はがをにでとのもへやかよねだ")
_SURU = frozenset("しすさせ")
_WEAK_CHARS = frozenset("ーッ・々")


def _en_names(text: str) -> tuple[str, ...]:
    names = []
    for match in _EN_CAPITAL.finditer(text):
        word = re.sub(r"['’]s$", "", match.group(1)).lower()
        opening = re.search(r"(?:^|[.!?]\s+)$", text[: match.start(1)]) is not None
        if word in _SELF["en"] or (opening and word in _OPENERS):
            continue
        names.append(word)
    return tuple(dict.fromkeys(names))


def _ja_names(text: str) -> tuple[str, ...]:
    names = []
    for match in _JA_SPAN.finditer(text):
        span = match.group()
        after = text[match.end(): match.end() + 1]
        okurigana = "\u3040" <= after <= "\u309f" and after not in _AFTER_NOUN
        if okurigana and not (len(span) > 1 and after in _SURU) and not span.isascii():
            span = span[:-1]  # drop the verb or adjective stem
        if span:
            names.append(span.lower() if span.isascii() else span)
    return tuple(dict.fromkeys(names))


def read_statement(text: str) -> Statement:
    """Parse one statement into its values (language detected from its script)."""
    text = normalise(text).replace("’", "'")
    lang = detect_lang(text)
    people, rest = _people(text, lang)
    rest = blank_numbers(rest, lang)
    names = _ja_names(_SELF["ja"].sub(" ", rest)) if lang == "ja" else _en_names(rest)
    words: set[str] = set()
    if lang == "en":
        words = set(_EN_WORD.findall(text.lower())) | set(_EN_WORD.findall(rest.lower()))
        words |= {part for w in words for part in re.split(r"[-']", w)}
        words |= {re.sub(r"'s$", "", w) for w in words}
    return Statement(text=text, lang=lang, numbers=find_numbers(text, lang),
                     times=find_times(text, lang), negative=_negative(text, lang),
                     announces_change=_announces_change(text, lang), people=people, names=names,
                     words=frozenset(words))


# --- comparing ----------------------------------------------------------------------------


def _replaced(first: Iterable[Any], second: Iterable[Any]) -> tuple[list, list] | None:
    """Values each side holds and the other lacks, when both sides hold one. Compared as
    multisets: a value said twice on one side and once on the other counts ("March 3")."""
    a, b = Counter(first), Counter(second)
    only_first, only_second = sorted(a - b), sorted(b - a)
    return (only_first, only_second) if only_first and only_second else None


def _en_has(word: str, other: Statement) -> bool:
    forms = {word, word + "s", word + "es", word[:-1] if word.endswith("s") else word}
    return bool(forms & other.words)


def _ja_has(span: str, other: Statement) -> bool:
    if span.isascii():
        return span in other.text.lower()
    chars = [c for c in span if c not in _WEAK_CHARS] or list(span)
    present = [c in other.text for c in chars]
    # Two absent characters in a row are a word of their own: 熊本出身 / 長崎出身 share half
    # their characters, but 熊本 is gone.
    absent_word = any(not a and not b for a, b in pairwise(present))
    return sum(present) * 2 >= len(chars) and not absent_word


def _missing(first: Statement, second: Statement) -> list[str]:
    has = _ja_has if first.lang == "ja" else _en_has
    return [name for name in first.names if not has(name, second)]


def _names_replaced(first: Statement, second: Statement) -> tuple[list, list] | None:
    gone, new = _missing(first, second), _missing(second, first)
    if not gone or not new:
        return None
    if first.lang == "ja" and not _same_script_or_words(gone, new):
        return None
    return gone, new


def _same_script_or_words(gone: list[str], new: list[str]) -> bool:
    """A kanji word swapped for a katakana one is a replaced name (東京 → ソウル) only when both
    are words of two or more characters: 猫 / ネコ is one animal in two spellings."""
    def scripts(spans: list[str]) -> set[str]:
        return {"kata" if re.fullmatch(r"[\u30a1-\u30fa\u30fc]+", s) else
                "latin" if s.isascii() else "kanji" for s in spans}

    if scripts(gone) & scripts(new):
        return True
    return max(map(len, gone)) >= 2 and max(map(len, new)) >= 2


_TOKEN = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
# After these a word describes (adjective, participle): wording, not a value to compare.
_DESCRIBING = frozenset({"am", "is", "are", "was", "were", "be", "been", "being", "feel",
                         "feels", "felt", "seem", "seems", "get", "gets", "got", "become",
                         "becomes", "very", "so", "really", "quite", "too"})


def _swapped_word(first: str, second: str) -> tuple[str, str] | None:
    """The one content word that differs between two English statements that are otherwise the
    same words in the same order, unless the two are spellings of one word."""
    a, b = _TOKEN.findall(first.lower()), _TOKEN.findall(second.lower())
    if len(a) != len(b):
        return None
    differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(differ) != 1:
        return None
    at = differ[0]
    x, y = a[at], b[at]
    if at and a[at - 1] in _DESCRIBING:
        return None  # "is used to" / "is accustomed to": a description in other words
    if x in SEARCH_STOPWORDS or y in SEARCH_STOPWORDS or _one_spelling(x, y):
        return None
    if find_numbers(x, "en") or find_numbers(y, "en"):
        return None  # "two" / "2": numbers are compared as values above
    if x.endswith("ing") and y.endswith("ing"):
        return None  # one activity in other words ("studying" / "learning Korean")
    return x, y


def _one_spelling(x: str, y: str) -> bool:
    """British/American spellings and inflections of one word: the same first four letters
    and at most two letters apart (favourite/favorite, practise/practice, color/colour)."""
    if x[:4] != y[:4]:
        return False
    return _distance(x, y) <= 2


def _distance(x: str, y: str) -> int:
    """Levenshtein distance (short words only: this runs on one pair of words)."""
    row = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        prev, row[0] = row[0], i
        for j, cy in enumerate(y, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (cx != cy))
    return row[-1]


def compare(first: Statement, second: Statement) -> ValueChange | None:
    """The first value that changed between two parsed statements, or None."""
    swapped = _replaced(first.numbers, second.numbers)
    if swapped:
        return ValueChange(ChangeKind.NUMBER, *(tuple(f"{v:g}" for v in side)
                                                for side in swapped))
    if first.lang != second.lang:
        return None  # words do not cross languages; numbers do
    swapped = _replaced(first.times, second.times)
    if swapped:
        return ValueChange(ChangeKind.TIME, tuple(swapped[0]), tuple(swapped[1]))
    if first.negative != second.negative:
        polarity = ("negative",), ("positive",)
        return ValueChange(ChangeKind.NEGATION, *(polarity if first.negative else polarity[::-1]))
    if first.people != second.people:
        return ValueChange(ChangeKind.PERSON, tuple(sorted(first.people - second.people)),
                           tuple(sorted(second.people - first.people)))
    names = _names_replaced(first, second)
    if names:
        return ValueChange(ChangeKind.NAME, tuple(names[0]), tuple(names[1]))
    if first.lang == "en":
        word = _swapped_word(first.text, second.text)
        if word:
            return ValueChange(ChangeKind.NAME, (word[0],), (word[1],))
    if first.announces_change != second.announces_change:
        stated = ("stated",), ()
        return ValueChange(ChangeKind.CHANGE, *(stated if first.announces_change
                                                else stated[::-1]))
    return None


def find_value_change(first: str, second: str) -> ValueChange | None:
    """The value that differs between two statements of (nearly) the same fact, or None when
    they state the same values. Symmetric: swapping the arguments swaps ``first``/``second``."""
    return compare(read_statement(first), read_statement(second))
