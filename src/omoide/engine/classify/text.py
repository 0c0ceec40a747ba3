"""Read one short memory into the features the offline classifier compares (pure).

English: lower-case word tokens, lemmatised by suffix rules. Japanese has no spaces, so
content is taken from script runs (kanji, katakana, Latin letters) compared as character
bigrams, after particles, time words and quantities are removed. Each memory also gets an
*owner* (whose fact it is: the user, the persona, a brother …), its quantities, its stance
(affirmative or negative) and whether it is about a finished past occasion.
No I/O; the same text always gives the same features.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.quantity import Quantity, find_quantities, strip_quantities
from omoide.engine.classify.refusal import ends_something, without_negated_ends
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, Lang, detect_lang, word_set

__all__ = [
    "USER",
    "Sentence",
    "cue",
    "ends_something",
    "languages_differ",
    "parse",
    "without_negated_ends",
]

USER = "user"

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_EN_TOKEN = re.compile(r"\$?\d[\d,]*(?:\.\d+)?(?:st|nd|rd|th)?|[a-z]+(?:'s)?")
# A run of kanji, katakana and Latin letters (digits inside): the nouns of a Japanese memory.
_JA_COMPOUND = re.compile(
    r"[\u3400-\u9fff々〆ヶ\u30a0-\u30ffA-Za-z][\u3400-\u9fff々〆ヶ\u30a0-\u30ffA-Za-z0-9]*"
)
_JA_QUOTED = re.compile(r"「([^」]+)」")
_JA_USER_WORDS = re.compile(r"ユーザー|わたし|私|僕|自分")
_JA_PERSON = "|".join(lex.JA_PERSONS)
# 「ユーザーの妻の父は」: the owner is the last person of the chain (妻の父), not 妻; a sentence
# that opens on a relation as its topic (妹のマイは, 父は) is about the user's relation.
_JA_OWNER = re.compile(
    rf"(?:ユーザー|わたし|私|僕|自分)の(?P<person>(?:{_JA_PERSON})(?:の(?:{_JA_PERSON}))*)"
    r"(?:さん)?(?:は|が|も|には|では|の|、)"
    rf"|^(?P<bare>(?:{_JA_PERSON})(?:の(?:{_JA_PERSON}))*)(?:さん)?(?:の[^はがをにで、。]{{1,10}})?(?:は|も)"
    r"|(?P<user>ユーザー|わたし|私|僕|自分)(?:は|が|も|には|って|、)"
    r"|(?:^|、)(?P<name>[\u30a1-\u30ff]{2,})(?:は|が|も)"
)
# A sentence that opens on a possessive and a relation ("Her brother Tom …", "His wife …") is
# about that relation of the user's: memories speak of the user in the third person.
_EN_POSSESSIVES = frozenset({"her", "his", "their", "our", "your"})
_EN_SKIP_BEFORE_PERSON = word_set(
    "best close old childhood little big twin step former late new current"
)
_EN_BEFORE_VERB = word_set("to will would can could does do did not user i she he they we you")
_EN_AGE_QUALIFIER = word_set("younger older elder big little")
_EN_NAME_VERBS = word_set(
    "said says is was has had likes loves wants thinks told calls will can decided prefers asked "
    "feels 's"
)
_EN_PAST = re.compile(r"\b(?:was|were|had|did)\b")
_EN_AUX_PAST = frozenset({"was", "were", "had", "did"})
_EN_AUX_PRESENT = word_set("is are am has have does do can will")
_JA_PAST_END = re.compile(r"(?:た|だった|でした|ました|ていた|かった)[。.]?$")
_JA_STATE_END = re.compile(r"(?:始めた|にした|言っていた|と言った|になった|ようになった)[。.]?$")


@dataclass(frozen=True)
class Sentence:
    """The comparable features of one memory."""

    text: str  # NFKC-normalised; lower-case for English
    lang: Lang
    owner: str  # USER, a person word ("brother", "兄") or a name ("tomoe", "トモエ")
    content: tuple[str, ...]  # topic units: English lemmas, Japanese bigrams / single kanji
    words: frozenset[str]  # every lemma (English) or every content unit (Japanese)
    compounds: tuple[str, ...]  # English "modifier head" pairs, Japanese kanji/katakana runs
    quantities: tuple[Quantity, ...]
    negative: bool  # negated or a negative preference ("doesn't like", "苦手")
    past_occasion: bool  # about a finished past event, so a newer fact cannot undo it
    reading: str  # the text without negated end cues (``without_negated_ends``): cues read it


def cue(kind: dict[str, str], sentence: Sentence) -> bool:
    """Whether the sentence contains one of a lexicon's cue patterns for its language (an end
    cue only where it is not negated: "won't quit" and 諦めない say it goes on)."""
    if kind is lex.STOPPED:
        return ends_something(sentence.text, sentence.lang)
    return re.search(kind[sentence.lang], sentence.reading) is not None


def languages_differ(old: str, new: str, lang: str = "auto") -> bool:
    """Two memories written in two languages (detected when ``lang`` is "auto"): the offline
    rules and the judge compare words, and words do not cross languages."""
    if lang in (Lang.EN, Lang.JA):
        return False
    nfkc = unicodedata.normalize
    return detect_lang(nfkc("NFKC", old).strip()) != detect_lang(nfkc("NFKC", new).strip())


def parse(text: str, lang: str = "auto") -> Sentence:
    """Features of one memory; ``lang`` is "en", "ja" or "auto" (detect from the script)."""
    norm = unicodedata.normalize("NFKC", text).strip()
    chosen = Lang(lang) if lang in (Lang.EN, Lang.JA) else detect_lang(norm)
    return _parse_ja(norm) if chosen == Lang.JA else _parse_en(norm)


# --- English ------------------------------------------------------------------------------


def _en_normalise(text: str) -> str:
    text = text.replace("\u2019", "'").lower()
    text = re.sub(r"\bcan't\b|\bcannot\b", "can not", text)
    text = re.sub(r"\bwon't\b", "will not", text)
    return re.sub(r"n't\b", " not", text)


def _parse_en(norm: str) -> Sentence:
    text = _en_normalise(norm)
    reading = without_negated_ends(text, "en")
    tokens = _EN_TOKEN.findall(text.replace("-", " "))
    owner, owner_words = _en_owner(norm, tokens)
    lemmas = [en_lemma(t) for t in tokens]
    topic_tokens = _EN_TOKEN.findall(strip_quantities(text, "en").replace("-", " "))
    content = tuple(
        dict.fromkeys(
            lem
            for tok, lem in ((t, en_lemma(t)) for t in topic_tokens)
            if _is_en_content(tok, lem) and tok.removesuffix("'s") not in owner_words
        )
    )
    return Sentence(
        text=text,
        lang=Lang.EN,
        owner=owner,
        content=content,
        words=frozenset(lemmas),
        compounds=_en_pairs(tokens, lemmas),
        quantities=find_quantities(text, "en"),
        negative=_is_negative(reading, "en"),
        past_occasion=_en_past_occasion(text, tokens),
        reading=reading,
    )


def _is_en_content(token: str, lemma: str) -> bool:
    bare = token.removesuffix("'s")
    return (
        bare not in FACT_TOPIC_STOPWORDS
        and lemma not in FACT_TOPIC_STOPWORDS
        and bare not in lex.EN_TIME_WORDS
        and lemma not in lex.EN_TIME_WORDS
        and bare not in lex.EN_NUMBER_WORDS
        and bare not in lex.EN_ORDINALS
        and not bare[0].isdigit()
        and not bare.startswith("$")
    )


def _en_person(tokens: list[str], start: int) -> str | None:
    """The person word right after a possessive ("user's younger sister" → "younger sister").

    "father-in-law" and "husband's mother" are people of their own, not the father or the
    husband.
    """
    qualifier = ""
    for i, tok in enumerate(tokens[start : start + 3], start):
        bare = tok.removesuffix("'s")
        lemma = en_lemma(bare)
        if bare in lex.EN_PERSONS or lemma in lex.EN_PERSONS:
            person = f"{qualifier} {bare if bare in lex.EN_PERSONS else lemma}".strip()
            if tokens[i + 1 : i + 3] == ["in", "law"]:
                return f"{person}-in-law"
            if tok.endswith("'s"):
                relative = _en_person(tokens, i + 1)
                return f"{person}'s {relative}" if relative else person
            return person
        if bare in _EN_AGE_QUALIFIER:
            qualifier = bare
        elif bare not in _EN_SKIP_BEFORE_PERSON:
            return None
    return None


def _en_owner(raw: str, tokens: list[str]) -> tuple[str, frozenset[str]]:
    """Whose fact it is: the first "User"/"I" (or "User's brother"), or a leading name.

    A capitalised word followed by a verb or "'s" ("Tomoe said …") names someone other than
    the user; memories with no subject at all are about the user.
    """
    raw_words = re.findall(r"[A-Za-z]+(?:'s)?", raw.replace("\u2019", "'"))
    for i, tok in enumerate(tokens):
        bare = tok.removesuffix("'s")
        if bare in _EN_POSSESSIVES and i == 0:  # "Her brother Tom …": the user's brother
            person = _en_person(tokens, i + 1)
            if person:
                return person, frozenset({bare, *re.findall(r"[a-z]+", person)})
        if bare in ("user", "i", "my", "she", "he"):
            person = _en_person(tokens, i + 1) if tok.endswith("'s") or bare == "my" else None
            if person:
                return person, frozenset({bare, *re.findall(r"[a-z]+", person)})
            return USER, frozenset({bare})
        if i < len(raw_words) and _is_name(raw_words, i):
            return bare, frozenset({bare})
    return USER, frozenset()


def _is_name(raw_words: list[str], i: int) -> bool:
    word = raw_words[i]
    bare = word.removesuffix("'s").lower()
    if not word[0].isupper() or bare in FACT_TOPIC_STOPWORDS or bare.endswith("ly"):
        return False
    following = raw_words[i + 1].lower() if i + 1 < len(raw_words) else ""
    return word.endswith("'s") or following in _EN_NAME_VERBS


def _en_pairs(tokens: list[str], lemmas: list[str]) -> tuple[str, ...]:
    """Adjacent content words as "modifier head" ("green tea", "night shift").

    A verb and its object ("learning Spanish", "goes running") is not a compound.
    """
    pairs = []
    for i in range(len(tokens) - 1):
        left, right = tokens[i], tokens[i + 1]
        if left.endswith("'s") or not (
            _is_en_content(left, lemmas[i]) and _is_en_content(right, lemmas[i + 1])
        ):
            continue
        if re.fullmatch(lex.PREF_POS["en"], left) or left in ("favorite", "favourite"):
            continue
        if _looks_verbal(left, tokens[i - 1] if i else ""):
            continue
        pairs.append(f"{lemmas[i]} {lemmas[i + 1]}")
    return tuple(pairs)


def _looks_verbal(word: str, before: str) -> bool:
    """-ing, -ed, a third-person -s, an irregular past, or right after a subject/auxiliary."""
    if word.endswith(("ing", "ed")) or word in lex.EN_PAST_IRREGULAR:
        return True
    if word.endswith("s") and not word.endswith("ss"):
        return True
    return before in _EN_BEFORE_VERB


def _en_past_occasion(text: str, tokens: list[str]) -> bool:
    """A finished past event ("swam the Windermere mile in 2019", "first car was …").

    Past tense whose result is a present state ("adopted", "asked Tomoe to", "quit") does not
    count: those memories can still be contradicted.
    """
    if re.search(lex.PAST_FACT["en"], text) and _EN_PAST.search(text):
        return True
    verb = _en_main_verb(tokens)
    if verb is None or verb in lex.EN_PAST_STATE_VERBS:
        return False
    return verb in _EN_AUX_PAST or verb in lex.EN_PAST_IRREGULAR or verb.endswith("ed")


def _en_main_verb(tokens: list[str]) -> str | None:
    """The first verb-like word after the subject (an auxiliary, -s, -ed or irregular past)."""
    start = next(
        (i + 1 for i, t in enumerate(tokens) if t.removesuffix("'s") in ("user", "i", "she", "he")),
        0,
    )
    for tok in tokens[start : start + 5]:
        if tok in _EN_AUX_PAST or tok in _EN_AUX_PRESENT or tok in lex.EN_PAST_IRREGULAR:
            return tok
        if tok.endswith("ed") or (tok.endswith("s") and not tok.endswith(("ss", "'s"))):
            return tok
    return None


# --- Japanese -----------------------------------------------------------------------------


def _parse_ja(norm: str) -> Sentence:
    owner = _ja_owner(norm)
    reading = without_negated_ends(norm, "ja")
    body = _ja_strip(norm, owner)
    compounds = tuple(dict.fromkeys(_JA_COMPOUND.findall(body) + _JA_QUOTED.findall(norm)))
    content = tuple(dict.fromkeys(unit for c in compounds for unit in _ja_units(c)))
    return Sentence(
        text=norm,
        lang=Lang.JA,
        owner=owner,
        content=content,
        words=frozenset(content),
        compounds=tuple(c for c in compounds if len(c) >= 2),
        quantities=find_quantities(norm, "ja"),
        negative=_is_negative(reading, "ja"),
        past_occasion=_ja_past_occasion(norm),
        reading=reading,
    )


# A head count of animals: a sentence that opens on a pet (``lexicon.JA_PETS``) as its topic
# and counts them (猫は三匹になった) tells how many the user keeps, a fact of the user's, not
# one the pet holds (犬は十歳だ).
_JA_HEAD_COUNT = re.compile(r"[0-9一二三四五六七八九十何数]+(?:匹|頭|羽)")


def _ja_owner(text: str) -> str:
    """The topic-marked subject: 「ユーザーの父は」→ 父, 「ハルは」→ ハル, else the user (and
    the user when a pet opens the sentence only to be counted: 猫は三匹になった)."""
    match = _JA_OWNER.search(text)
    if match is None:
        return USER
    if match.group("bare") in lex.JA_PETS and _JA_HEAD_COUNT.search(text):
        return USER
    if match.group("person") or match.group("bare"):
        return match.group("person") or match.group("bare")
    if match.group("name") and match.group("name") != "ユーザー":
        return match.group("name")
    return USER


def _ja_strip(text: str, owner: str) -> str:
    """Remove what never names a topic: user words, the owner, quantities and time words."""
    text = _JA_USER_WORDS.sub(" ", text)
    if owner != USER:
        text = text.replace(owner, " ")
    text = strip_quantities(re.sub(r"\d+[月日]", " ", text), "ja")
    for word in lex.JA_TIME_WORDS:
        text = text.replace(word, " ")
    return text


def _ja_units(compound: str) -> list[str]:
    """Bigrams of a run, a Latin word whole, or a one-kanji run (a verb stem: 飼, 呼)."""
    if compound.isascii():
        return [compound.lower()] if len(compound) > 1 else []
    if len(compound) == 1:
        return [compound] if _CJK.match(compound) else []
    return [compound[i : i + 2] for i in range(len(compound) - 1)]


def _ja_past_occasion(text: str) -> bool:
    """Ends in a past form (〜た, 〜だった) that is not a lasting change (始めた, になった)."""
    if re.search(lex.PAST_FACT["ja"], text):
        return True
    if re.search(lex.STOPPED["ja"], text) or re.search(lex.CHANGE["ja"], text):
        return False
    return bool(_JA_PAST_END.search(text)) and not _JA_STATE_END.search(text)


# --- both ---------------------------------------------------------------------------------


def _is_negative(reading: str, lang: str) -> bool:
    """Negative stance: any negation or a negative preference word, in the reading without
    negated end cues (``Sentence.reading``: "is not giving up chess" is no negative stance).

    "doesn't like", "can't stand" and 苦手 are negative; the idiom 目がない (crazy about)
    is not, although it contains ない.
    """
    text = reading
    if lang == "ja":
        for idiom in lex.JA_IDIOMS_NOT_NEGATION:
            text = text.replace(idiom, "")
    negated = re.search(lex.NEGATION[lang], text) is not None
    return negated or re.search(lex.PREF_NEG[lang], text) is not None
