"""One statement read into the values dedup's veto compares (pure).

:func:`read_statement` reads a statement (language detected from its script) into a
:class:`Statement`: its numbers and times (``value_numbers``), its polarity (not / never / quit /
dislike; ない / やめた / 嫌い), whether it announces a change ("now works at…", 転職した), the
people it names (canonical: mum → mother, お母さん → 母) and its names — capitalised words in
English, kanji, katakana and Latin words in Japanese, the statement's own subject and
sentence openers left out. ``value_change`` compares two of them. No I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from omoide.engine.classify.value_numbers import blank_numbers, find_numbers, find_times
from omoide.engine.lang import SEARCH_STOPWORDS, Lang, detect_lang, normalise

__all__ = ["Statement", "read_statement"]


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
    r"gave\s+up|given\s+up)\b|n['’]t\b",
    re.IGNORECASE,
)
# ない after kana is a negated verb or adjective (飲まない, 好きじゃない, 高くない); after kanji
# it is part of a word (少ない, 危ない). The exclusions are idioms that negate nothing.
_JA_NOT_NEGATIVE = re.compile(
    r"かもしれない|しれない|しかない|もったいない|たまらない|違いない|仕方が?ない|目がない|"
    r"(?:ければ|くては|くちゃ)(?:ならない|いけない)|ないと(?:いけない|だめ)|ざるを得ない"
)
_JA_NEGATIVE = re.compile(
    r"(?<=[\u3040-\u309f])ない|ません|なかった|無い|ずに|やめ[たてる]|辞め[たてる]|止め[たてる]|"
    r"嫌い|苦手|かつて"
)


# A statement that announces a change ("now works at a bookshop", 転職した) is news about a
# value, never a restatement of one that does not: the replaced value may be any word.
_EN_CHANGE = re.compile(
    r"\b(?:now|nowadays|these\s+days|anymore|switched|switches|changed|became|become|moved|"
    r"relocated|instead|replaced)\b",
    re.IGNORECASE,
)
_JA_CHANGE = re.compile(
    r"今は|今では|最近は|変わった|変えた|替えた|換えた|乗り換え|転職|引っ越|転居|移った|移り住|"
    r"代わりに|になった"
)


def _announces_change(text: str, lang: str) -> bool:
    return (_JA_CHANGE if lang == "ja" else _EN_CHANGE).search(text) is not None


def _negative(text: str, lang: str) -> bool:
    if lang == "ja":
        return _JA_NEGATIVE.search(_JA_NOT_NEGATIVE.sub(" ", text)) is not None
    return _EN_NEGATIVE.search(text) is not None


# --- people -------------------------------------------------------------------------------

_EN_PEOPLE = {
    "mother": "mother|mom|mum|mama|mommy|mummy",
    "father": "father|dad|papa|daddy",
    "parent": "parents?",
    "sister": "sisters?",
    "brother": "brothers?",
    "sibling": "siblings?",
    "son": "sons?",
    "daughter": "daughters?",
    "child": "child|children|kids?",
    "wife": "wife|wives",
    "husband": "husbands?",
    "partner": "partners?|spouses?",
    "girlfriend": "girlfriends?",
    "boyfriend": "boyfriends?",
    "fiance": "fianc[ée]e?",
    "grandmother": "grandmothers?|grandma|granny",
    "grandfather": "grandfathers?|grandpa",
    "grandparent": "grandparents?",
    "grandchild": "grandchild|grandchildren|grandsons?|granddaughters?",
    "aunt": "aunts?",
    "uncle": "uncles?",
    "cousin": "cousins?",
    "niece": "nieces?",
    "nephew": "nephews?",
    "friend": "friends?",
    "boss": "boss|bosses",
    "colleague": "colleagues?|co-?workers?",
    "neighbour": "neighbou?rs?",
    "roommate": "roommates?|flatmates?",
    "classmate": "classmates?",
}
_JA_PEOPLE = {
    "祖父母": "祖父母",
    "祖母": "祖母|おばあちゃん|おばあさん",
    "祖父": "祖父|おじいちゃん|おじいさん",
    "両親": "両親",
    "母": "母親|お母さん|おかあさん|母|ママ",
    "父": "父親|お父さん|おとうさん|父|パパ",
    "兄弟": "兄弟",
    "姉妹": "姉妹",
    "姉": "お姉さん|姉",
    "妹": "妹",
    "兄": "お兄さん|兄",
    "弟": "弟",
    "息子": "息子",
    "娘": "娘",
    "子供": "子供|子ども|こども|お子さん",
    "妻": "妻|嫁|奥さん|家内",
    "夫": "(?<![丈工])夫|旦那|ご主人|主人(?!公)",
    "彼氏": "彼氏",
    "彼女": "彼女",
    "恋人": "恋人",
    "婚約者": "婚約者",
    "叔父": "叔父|伯父|おじさん",
    "叔母": "叔母|伯母|おばさん",
    "いとこ": "いとこ|従兄弟|従姉妹",
    "甥": "甥",
    "姪": "姪",
    "孫": "孫",
    "友達": "友達|友だち|友人|親友",
    "上司": "上司",
    "同僚": "同僚",
    "部下": "部下",
    "先輩": "先輩",
    "後輩": "後輩",
    "隣人": "隣人|近所の人",
    "ルームメイト": "ルームメイト",
}


def _people_pattern(
    table: dict[str, str], *, words: bool
) -> tuple[re.Pattern[str], dict[str, str]]:
    """One alternation over every spelling, and which person each named group stands for.
    Longest spelling first, so 祖母 is read before 母 and 兄弟 before 兄."""
    spellings = sorted(
        ((alt, name) for name, alts in table.items() for alt in alts.split("|")),
        key=lambda p: len(p[0]),
        reverse=True,
    )
    groups = {f"p{i}": name for i, (_, name) in enumerate(spellings)}
    body = "|".join(f"(?P<p{i}>{alt})" for i, (alt, _) in enumerate(spellings))
    pattern = re.compile(rf"\b(?:{body})\b" if words else body, re.IGNORECASE)
    return pattern, groups


_PEOPLE_RE = {
    "en": _people_pattern(_EN_PEOPLE, words=True),
    "ja": _people_pattern(_JA_PEOPLE, words=False),
}


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
_SELF = {
    "en": frozenset({"i", "me", "user", "users"}),
    "ja": re.compile(r"ユーザー|ユーザ|私|僕|俺|自分|わたし"),
}
# Sentence-initial words that are capitalised only because they start the sentence.
_OPENERS = SEARCH_STOPWORDS | {
    "every",
    "each",
    "last",
    "next",
    "lately",
    "recently",
    "usually",
    "always",
    "often",
    "sometimes",
    "also",
    "today",
    "yesterday",
    "tomorrow",
    "since",
    "during",
    "whenever",
    "although",
    "though",
    "yes",
    "many",
    "several",
    "one",
    "another",
}
_EN_CAPITAL = re.compile(r"\b([A-Z][A-Za-z0-9'’-]*)")
_EN_WORD = re.compile(r"[a-z0-9][a-z0-9'’-]*")
_JA_SPAN = re.compile(r"[\u4e00-\u9fff\u3005]+|[\u30a1-\u30fa\u30fc]+|[A-Za-z][A-Za-z0-9-]*")
# Hiragana that may follow a noun: particles and the copula. Any other hiragana after a kanji
# is okurigana, and that kanji is a verb or adjective stem (住んで, 好き, 赤い, 10年間習って),
# not part of a name, unless a kanji word is followed by する (勉強して, 通勤する).
_AFTER_NOUN = frozenset("はがをにでとのもへやかよねだ")
_SURU = frozenset("しすさせ")


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
        after = text[match.end() : match.end() + 1]
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
    return Statement(
        text=text,
        lang=lang,
        numbers=find_numbers(text, lang),
        times=find_times(text, lang),
        negative=_negative(text, lang),
        announces_change=_announces_change(text, lang),
        people=people,
        names=names,
        words=frozenset(words),
    )
