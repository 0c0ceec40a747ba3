"""What one sentence of a memory says of its subject, for ``note_close`` (pure)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.quantity import Quantity
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, word_set

__all__ = [
    "EN_GENERIC_COUNT_UNITS",
    "SINGLE",
    "Claim",
    "en_owned",
    "en_units",
    "ja_another_subject",
    "ja_owner",
    "ja_someone_acts",
    "ja_units",
    "second",
    "spanned",
    "wide",
    "wide_place",
]

# The value a partner's start ends: being single ("is single", 独身), in both languages.
SINGLE = frozenset({"<single>"})

# The units of an English count that do not name what is counted (time words, frequency, age,
# money, "more", "other"), as lemmas: two counts in one of them are of the same thing only with
# a topic word in common ("volunteers two days a week" is not "works six days a week"). The
# count readers ``note_count`` and ``note_tally`` share them.
EN_GENERIC_COUNT_UNITS = frozenset(
    en_lemma(en_lemma(w))
    for w in lex.EN_TIME_WORDS
    | {
        "freq",
        "age",
        "night",
        "evening",
        "morning",
        "afternoon",
        "hour",
        "minute",
        "shift",
        "time",
        "$",
        "long",
        "more",
        "other",
    }
)


@dataclass(frozen=True)
class Claim:
    """What one sentence says of its subject: a state holding ``value`` ("state"), an end of
    ``value`` ("end"), a role ("role": a state an end may close, never one a new value
    replaces), or what the subject does now ("activity": the words of a present clause)."""

    subject: str
    kind: str  # "home", "work", "study", "partner"; an end: also "any" (quit) or "left" (a job)
    frame: str  # the frame's preposition class ("at", "as", "in", …): values compare within one
    value: frozenset[str]
    shape: str  # "state", "end", "role", "activity"
    span: frozenset[str] = frozenset()  # the whole sentence's words: what an end may name
    cue: str = ""  # which reading found it ("quit", "no more", "single" …): the reason names it
    amount: Quantity | None = None  # a count's quantity (shape "count", see ``note_count``)


def spanned(claim: Claim, span: frozenset[str]) -> Claim:
    """The claim with its sentence's words."""
    return Claim(
        claim.subject,
        claim.kind,
        claim.frame,
        claim.value,
        claim.shape,
        span,
        claim.cue,
        claim.amount,
    )


def second(claim: Claim) -> Claim:
    """A state said next to a mark of a second value ("also", part-time, 週末): it may still be
    ended by name, never replaced by another value."""
    if claim.shape != "state":
        return claim
    return Claim(
        claim.subject,
        claim.kind,
        claim.frame,
        claim.value,
        "role",
        claim.span,
        claim.cue,
        claim.amount,
    )


# Countries and continents: a home said as one of these holds every town inside it ("lives in
# Canada" → "lives in Winnipeg" narrows, it does not move), so it is never replaced by a value.
_WIDE = word_set(
    "africa america americas asia europe oceania antarctica abroad overseas uk britain england "
    "scotland wales ireland usa us states canada mexico brazil argentina chile peru colombia "
    "france germany spain portugal italy netherlands holland belgium switzerland austria poland "
    "sweden norway denmark finland iceland greece turkey russia ukraine romania hungary czechia "
    "croatia china japan korea india pakistan bangladesh nepal thailand vietnam cambodia "
    "malaysia singapore indonesia philippines taiwan australia zealand egypt morocco kenya "
    "nigeria ghana ethiopia tanzania uganda israel dubai emirates qatar saudi iran iraq"
) | {
    "アメリカ",
    "米国",
    "カナダ",
    "イギリス",
    "英国",
    "フランス",
    "ドイツ",
    "イタリア",
    "スペイン",
    "オランダ",
    "スイス",
    "北欧",
    "欧州",
    "ヨーロッパ",
    "アジア",
    "中国",
    "韓国",
    "台湾",
    "タイ",
    "ベトナム",
    "インド",
    "シンガポール",
    "マレーシア",
    "フィリピン",
    "インドネシア",
    "オーストラリア",
    "豪州",
    "ニュージーランド",
    "ブラジル",
    "海外",
    "外国",
    "日本",
    "国内",
    "アフリカ",
    "ハワイ",
}


def wide_place(value: frozenset[str]) -> bool:
    """Whether a place's words name only countries or continents (a town may be inside)."""
    return bool(value) and value <= _WIDE


def wide(claim: Claim) -> Claim:
    """A home said as a country or a continent held as ``second`` holds one: ended by name,
    never replaced (a town named later may be inside it)."""
    return second(claim) if claim.kind == "home" and wide_place(claim.value) else claim


def en_owned(sentences: Sequence[tuple[str | None, str]]) -> Iterator[tuple[str, str]]:
    """Each English sentence that has a subject: (subject, its text in lower case with curly
    apostrophes straightened)."""
    for subject, written in sentences:
        if subject is not None:
            yield subject, written.lower().replace("\u2019", "'")


_EN_WORD = re.compile(r"[a-z][a-z&\-]*")
_EN_WORD_OR_CODE = re.compile(r"[a-z0-9][a-z0-9&\-]*")


def en_units(
    text: str,
    subject: str,
    stop: frozenset[str],
    *,
    codes: bool = False,
    shortest: int = 3,
    verbs: bool = False,
) -> frozenset[str]:
    """An English text's content words, lemmatised: none of the shared stop words or ``stop``,
    not the subject's own name, at least ``shortest`` letters; words with digits too when
    ``codes`` ("5k", "a4"); the generic verbs (have, get, do …) only when ``verbs``."""
    pattern = _EN_WORD_OR_CODE if codes else _EN_WORD
    units = frozenset(
        en_lemma(w)
        for w in pattern.findall(text.lower().replace("'s", " "))
        if w not in FACT_TOPIC_STOPWORDS and w not in stop and w != subject and len(w) >= shortest
    )
    return units if verbs else units - lex.EN_GENERIC_VERBS


_JA_RUN = re.compile(r"[\u3400-\u9fff々]+|[\u30a0-\u30ffー・]{2,}|[A-Za-z0-9]{2,}")
_KANJI_RUN = re.compile(r"[\u3400-\u9fff々]+")


def ja_units(
    text: str, stop: frozenset[str] = frozenset(), *, lone: bool = False
) -> frozenset[str]:
    """A Japanese text's units, but ``stop``: each kanji run's bigrams (a lone kanji whole
    when ``lone``), each katakana or Latin run whole."""
    units: set[str] = set()
    for run in _JA_RUN.findall(text):
        if _KANJI_RUN.fullmatch(run) and (len(run) > 1 or not lone):
            units.update(run[i : i + 2] for i in range(len(run) - 1))
        else:
            units.add(run)
    return frozenset(units - stop)


def ja_another_subject(body: str, at: int) -> bool:
    """Whether the clause that runs up to ``at`` names a subject of its own (が): what follows
    is someone else's doing (友達が個展を開いた)."""
    return "が" in body[:at].split("、")[-1]


_JA_OWNER = re.compile(r"^(?P<s>[^、。はがをにでのと\s「」]{1,10}?)(?:さん|ちゃん|くん|君)?の")
# A person (not a pet: a pet's count is its owner's fact) after the possessive: someone else.
_JA_PEOPLE = [p for p in (*lex.JA_PERSONS, *lex.JA_CHAIN_PERSONS) if p not in lex.JA_PETS]
# A word of two or more letters is a person only whole (子ども, not 子ども食堂; 家族, not 家族旅行);
# one kanji is one at any length (兄, 兄貴).
_JA_SOMEONE = re.compile(
    "(?:"
    + "|".join(p for p in _JA_PEOPLE if len(p) > 1)
    + r")(?![\u3400-\u9fff\u30a0-\u30ffー])|(?:"
    + "|".join(p for p in _JA_PEOPLE if len(p) == 1)
    + r")|[^、。]{1,6}?(?:さん|ちゃん|くん|君)"
)


def ja_someone_acts(clause: str) -> bool:
    """Whether a person of the subject's circle is the clause's own subject (弟が, 友達は,
    健さんが): what it says is that person's doing."""
    return any(
        re.match(r"[がは]", clause[m.end() : m.end() + 1]) for m in _JA_SOMEONE.finditer(clause)
    )


def ja_owner(body: str) -> str | None:
    """Whose the sentence's first noun is when it opens on a possessive of a thing, with no
    subject of its own in that clause but the thing (修の個展、延期した → 修; 修のフットサルが
    変わった → 修; 修の兄が…, ユーザーの弟は… → None: another person's)."""
    m = _JA_OWNER.match(body)
    if m is None or _JA_SOMEONE.match(body, m.end()):
        return None
    # the thing owned may be the clause's が (修のフットサルが金曜に変わった); any other が is
    # another subject
    thing = re.match(r"[^、。がはをにでの]{1,12}?が", body[m.end() :])
    rest = body.split("、")[0][m.end() + (thing.end() if thing else 0) :]
    return None if "が" in rest else m.group("s")
