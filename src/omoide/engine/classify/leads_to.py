"""Which side of the new memory's change the old fact stands on (pure).

A change has two sides: what was left (its *source*: "moved **from** Osaka", "quit **the
shop**", 会社**を辞めて**, 大阪**から**) and what it led to (its *result*: "moved **to** Kyoto",
"**became** a nurse", "**opened** the shop", "**took up** the piano", クリニック**に移った**,
店**を開いた**, マイクを使う**ようになった**). Read against an old memory that states a
present fact, the side decides the pair:

* the old fact is the change's **result** ("runs the shop" → "opened the shop in 2016";
  "lives in Kyoto" → "moved to Kyoto"; "is learning the lute" → "took up the lute"): the new
  memory tells how the old fact came to hold, its origin, not its end;
* the old fact is the change's **source** ("runs the shop" → "quit the shop"; "lives in
  Osaka" → "moved from Osaka"): the old fact ended (``departure.left_old_filler`` reads the
  leaving verbs).

A negated old fact turns the sides round: "doesn't eat meat" → "stopped eating meat in 2019"
is the old fact's origin (its source is the negated old state), "doesn't drink" → "started
drinking" its end.

``change_into_old``, a feature the judge weighs, is the share of the result phrase's content
that the old memory says (for a negated old memory, of the stopped phrase's); 0 when the new
memory tells no change with a result side, its change is negated or planned, or names another
thing of a kind or a number the old memory lacks, when the old memory is a plan, a pursuit, a
pending application or an ended or past fact, when it is another person's change, or when
the old fact also stands on the change's source side. (Its strict reading, every result unit
the old memory's, was measured as a veto in round 20 and dropped: the judge weighing the share
already leaves those pairs open.) No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.quantity_compare import changed_units
from omoide.engine.classify.signals import EN_GENERIC, found_in
from omoide.engine.classify.text import Sentence, cue, parse

__all__ = ["LEADS_TO_FEATURES", "change_into_old", "change_sides", "leads_to_features"]

LEADS_TO_FEATURES: tuple[str, ...] = ("change_into_old",)

# A phrase: up to eight words, cut at a clause break (see ``_cut``).
_PHRASE = r"((?:[\w'&.:-]+\s*){1,8})"
# English verbs whose object or goal is what the change led to (a verb of moving may take its
# object first: "moved her savings to …").
_EN_RESULT = re.compile(
    r"\b(?:(?:moved|moves|moving|relocated|transferred|switched|changed)"
    r"(?:\s+(?:her|his|their|my|its|the)\s+[\w'-]+)?(?:\s+from(?:\s+[\w'&.-]+){1,4}?)?"
    r"\s+(?:to|into|over to)\s+"
    r"|(?:went back|came back|returned|got a job|got work)\s+(?:to|into|at|with)\s+"
    r"|(?:became|become|becomes|becoming|turned into|started|starts|began|begun|took up"
    r"|takes up|picked up|got into|joined|joins|opened|founded|launched|set up|enrolled in"
    r"|signed up for|adopted|got)\s+)" + _PHRASE
)
# English verbs whose object is what the change left (the source side).
_EN_SOURCE = re.compile(
    r"\b(?:(?:moved|moving|relocated|transferred|switched|changed|went|came|returned)"
    r"(?:\s+[\w'-]+){0,3}?\s+from"
    r"|(?<!her )(?<!his )(?<!my )(?<!their )(?<!the )(?<!a )left"  # not "her left hand"
    r"|quit|quits|stopped|stops|gave up|give up|resigned from"
    r"|retired from|dropped out of|moved out of|sold|closed|shut|broke up with|divorced)\s+"
    + _PHRASE
)
# Verbs of stopping (the source side, and the result side when the old fact is negated).
_STOP = {
    "en": re.compile(r"\b(?:stopped|stops|quit|quits|gave up|give up|given up)\s+" + _PHRASE),
    "ja": re.compile(r"([^\s、。をがはにでへも]{2,14})を(?:やめ|辞め|止め|断っ)"),
}
_EN_BREAKS = frozenset(lex.EN_VALUE_BREAKS) | frozenset(
    {
        "last",
        "this",
        "years",
        "ago",
        "to",
        "from",
        "while",
        "so",
        "which",
        "who",
        "then",
        "before",
        "until",
        "once",
        "as",
        "with",
        "because",
    }
)
# "in" / "on" / "at" / "for" end the phrase before a time ("in 2015", "on Monday", "for a
# year"), not before a place or an employer ("a pharmacy in Kushiro", "a nurse at the clinic").
_EN_TIME_AFTER = re.compile(
    r"(?:in|on|at|for|by)\s+(?:\d|early\b|late\b|mid\b|the (?:spring|summer|autumn|fall|"
    r"winter|end|start|beginning)\b|(?:a|an|one|two|three|few|several|some) \w*\s*"
    r"(?:years?|months?|weeks?|days?)\b|(?:january|february|march|april|may|june|july|august"
    r"|september|october|november|december|spring|summer|autumn|fall|winter|monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday)\b)"
)
_EN_FUNCTION = frozenset(
    {
        "a",
        "an",
        "the",
        "her",
        "his",
        "their",
        "my",
        "our",
        "its",
        "up",
        "out",
        "back",
        "it",
        "them",
        "him",
        "one",
        "again",
        "still",
        "now",
        "just",
        "also",
        "too",
        "there",
        "here",
        "in",
        "at",
        "on",
        "of",
        "for",
        "and",
        "by",
        "with",
    }
)
# A result told as another thing of its kind ("a new studio", "her own office", 自分の事務所,
# 新しい, 別の): a replacement, not the old fact's origin.
_ANOTHER = {
    "en": re.compile(r"\b(?:new|own|another|different|second|other)\b"),
    "ja": re.compile(r"新し|新た|自分の|自分で|別の|他の|ほかの|二つ目|2つ目"),
}
# Japanese: the noun phrase before に / へ and a verb of arriving or becoming, before を and a
# verb of starting or opening, and a clause before ようになった (the result side); before
# から, or before を and a verb of leaving, closing or stopping (the source side).
_JA_NOUN = r"([^\s、。をがはにでへも]{2,14})(?<!気)"
_JA_RESULT = re.compile(
    _JA_NOUN + r"(?:に|へ)(?:なった|なって|なり|移った|移って|移り|変わっ|変え|変更|転職"
    r"|就職|入社|入った|引っ越|移住|戻った|戻って|戻り|切り替え|乗り換え|異動|配属"
    r"|転勤|進学|昇進|加入|参加し|回され|回っ)"
    r"|" + _JA_NOUN + r"を(?:始め|はじめ|開い|開業|創業|立ち上げ|開店|開設|習い始め|飼い始め"
    r"|買っ|購入|引き受け|継い)"
    r"|([^\s、。]{1,16})ようになっ"
)
_JA_SOURCE = re.compile(
    _JA_NOUN + r"(?:から(?!は)|を(?:辞め|やめ|止め|退職|離れ|出て|出た|卒業|退学|手放|売っ|売却"
    r"|解約|退会|閉め|閉じ|畳ん|たたん))"
)
_NEGATED_AFTER = {
    "en": re.compile(r"^\s*(?:not|never)\b"),
    "ja": re.compile(r"^.{0,4}(?:ない|ません|ず|たい|つもり|予定)"),
}
_EN_NOT_DONE = re.compile(
    r"\b(?:not|never|will|going to|wants? to|plans? to|might|hopes? to)"
    r"\s+(?:\w+\s+){0,1}$"
)
_EN_STATE_PASSIVE = re.compile(r"\b(?:is|are|am|was|were|be|been|being)\s+$")
# A negated state the rules' negation does not read ("a non-drinker", "a non-smoker").
_NEGATED_STATE = {"en": re.compile(r"\bnon-?[a-z]|\bno\b"), "ja": re.compile(r"(?!)")}
# An old fact still pending ("has applied for", "is waiting for", 申請中, 応募した): what it
# waits for arriving ends it.
_PENDING = {
    "en": re.compile(
        r"\bappl(?:ied|ying|ication)\b|\bwait(?:ing|s)? (?:for|on)\b|\bpending\b"
        r"|\binterview|\bshortlisted\b|\bon the waiting list\b"
    ),
    "ja": re.compile(r"申請|応募|面接|待ち|待って|選考|検討中|予定"),
}
_NUMBER = {
    "en": re.compile(r"\d+(?:[.:]\d+)?|\b(?:" + "|".join(lex.EN_NUMBER_WORDS) + r")\b"),
    "ja": re.compile(r"\d+(?:[.:]\d+)?|[〇一二三四五六七八九十百千万]+"),
}
# A number with the word it stands in (要介護3, 2年生, "band 6"): the value it names.
_NUMBERED = {
    "en": re.compile(r"[a-z]*\s?\d+(?:[.:]\d+)?\s?[a-z]*"),
    "ja": re.compile(
        r"[^\u3040-\u309f\s、。]{0,3}(?:\d+|[〇一二三四五六七八九十百千万]+)"
        r"[^\u3040-\u309f\s、。]{0,2}"
    ),
}
_YEAR = re.compile(r"^(?:19|20)\d\d$")
# A date or a time since ("in 2016", "four years ago", "for ten years", 2018年の秋, 六年目,
# 十二年になる, 三年前): when the change happened, not a value it changed.
_WHEN = {
    "en": re.compile(
        r"\b(?:\d+|" + "|".join(lex.EN_NUMBER_WORDS) + r")\s+(?:years?|months?|weeks?|days?)"
        r"(?:\s+(?:ago|now|later|before|of))?\b|\b(?:19|20)\d\d\b"
        r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:january|february|march|april|may|june|july|august"
        r"|september|october|november|december)\b"
    ),
    "ja": re.compile(
        r"[\d〇一二三四五六七八九十百千]+(?:年|か月|ヶ月|カ月|ヵ月|週間|日)"
        r"(?=目|前|後|が経|経|になる|になり|ほど|以上|近く|半|ぶり|で|、|。|$|の|から|間)"
        r"|[\d〇一二三四五六七八九十百千]+年|[\d〇一二三四五六七八九十]+月(?!に)"
    ),
}
_JA_PARTICLES = re.compile(r"[のをがはにでとへもや]")
# The noun at the end of a Japanese phrase (its last run without kana, with any の- or
# と-linked nouns before it): 物流会社を辞めてハコブネ → ハコブネ, 大阪から京都 → 京都,
# 火曜と木曜 stays whole.
_JA_NOUN_END = re.compile(r"(?:[^\u3040-\u309f]+[のと])*[^\u3040-\u309f]+$")


def _cut(phrase: str) -> str:
    """An English phrase up to its first clause break (a break word after the first word, a
    time, or punctuation)."""
    words = phrase.split()
    out: list[str] = []
    for i, word in enumerate(words):
        bare = word.strip(".,;:!?")
        ahead = " ".join(words[i : i + 3])
        if out and (bare in _EN_BREAKS or _EN_TIME_AFTER.match(ahead) or _WHEN["en"].match(ahead)):
            break
        out.append(bare)
        if bare != word:  # punctuation ends the phrase
            break
    return " ".join(out)


def _units(phrase: str, lang: str) -> list[str]:
    """The content units of a phrase (English lemmas without function, generic or time
    words; Japanese units as the parser reads them)."""
    if lang == "ja":
        return list(parse(_JA_PARTICLES.sub("、", phrase), "ja").content)
    out = []
    for token in re.findall(r"[a-z][a-z'&-]*", phrase.lower()):
        lemma = en_lemma(token)
        if token in _EN_FUNCTION or lemma in EN_GENERIC:
            continue
        out.append(lemma)
    return out


def change_sides(sentence: Sentence, old: Sentence | None = None) -> tuple[list[str], list[str]]:
    """The result phrases and the source phrases of ``sentence``'s changes (a change negated
    or only intended is left out, as is one in the passive of a state, "is enrolled in", and
    a result ``old`` says in the same words: the part that stayed)."""
    text = sentence.text
    lang = sentence.lang
    results: list[str] = []
    sources: list[str] = []
    repeated = old.text if old is not None else ""
    if lang == "ja":
        for m in _JA_RESULT.finditer(text):
            if _NEGATED_AFTER["ja"].match(text[m.end() :]) or m.group() in repeated:
                continue
            phrase = m.group(1) or m.group(2)
            if phrase is not None:  # a noun before に / を: its last noun
                end = _JA_NOUN_END.search(phrase)
                phrase = end.group() if end else ""
            else:  # a clause before ようになった
                phrase = m.group(3)
            results.append(phrase)
        for m in _JA_SOURCE.finditer(text):
            end = _JA_NOUN_END.search(m.group(1))
            if end and not _NEGATED_AFTER["ja"].match(text[m.end() :]):
                sources.append(end.group())
    else:
        for pattern, side in ((_EN_RESULT, results), (_EN_SOURCE, sources)):
            for m in pattern.finditer(text):
                before = text[: m.start()]
                if _EN_NOT_DONE.search(before) or _EN_STATE_PASSIVE.search(before):
                    continue
                phrase = _cut(m.group(1))
                if (
                    side is sources
                    or f"{m.group()[: m.start(1) - m.start()]}{phrase}" not in repeated
                ):
                    side.append(phrase)
    return [r for r in results if r], [s for s in sources if s]


def _stopped(sentence: Sentence) -> list[str]:
    """The phrases ``sentence`` says were stopped or given up (not negated or intended)."""
    out = []
    for m in _STOP[sentence.lang].finditer(sentence.text):
        if sentence.lang == "en" and _EN_NOT_DONE.search(sentence.text[: m.start()]):
            continue
        if sentence.lang == "ja" and _NEGATED_AFTER["ja"].match(sentence.text[m.end() :]):
            continue
        out.append(_cut(m.group(1)) if sentence.lang == "en" else m.group(1))
    return [p for p in out if p]


def _old_is_present_state(old: Sentence) -> bool:
    """The old memory states a fact that holds now: not a plan, a pursuit, a pending
    application, an ended or a finished past fact."""
    return not (
        old.past_occasion
        or cue(lex.PLAN, old)
        or cue(lex.PURSUIT, old)
        or cue(lex.ENDED, old)
        or _PENDING[old.lang].search(old.text) is not None
    )


def _share(phrase: str, old: Sentence) -> float:
    """The share of ``phrase``'s content units the old memory says; 0 when the phrase holds a
    number the old memory does not (a new value: "became a Band 6", 要介護3になった) or names
    another thing of a kind ("a new studio", 自分の事務所)."""
    if _ANOTHER[old.lang].search(phrase):
        return 0.0
    if any(n.strip() not in old.text for n in _NUMBERED[old.lang].findall(phrase)):
        return 0.0
    units = _units(phrase, old.lang)
    return sum(found_in(u, old) for u in units) / len(units) if units else 0.0


def _new_number(old: Sentence, new: Sentence) -> bool:
    """The new memory holds a number the old one does not, where the old one holds numbers
    (a value changed: "one weekend in every five" → "every seven"), or one that is not a year
    where the old one holds none."""
    pattern, when = _NUMBER[old.lang], _WHEN[old.lang]
    old_numbers = set(pattern.findall(when.sub(" ", old.text)))
    fresh = set(pattern.findall(when.sub(" ", new.text))) - old_numbers
    if old_numbers:
        return bool(fresh)
    return any(not _YEAR.match(n) for n in fresh)


def _old_negated(old: Sentence) -> bool:
    return old.negative or _NEGATED_STATE[old.lang].search(old.text) is not None


def change_into_old(old: Sentence, new: Sentence) -> float:
    """How much of the new memory's change result the old memory says (for a negated old
    memory: of what the change stopped); 0 when the old fact stands on the source side too."""
    if old.lang != new.lang or old.owner != new.owner or cue(lex.PLAN, new):
        return 0.0
    if (
        not _old_is_present_state(old)
        or changed_units(old.quantities, new.quantities)
        or _new_number(old, new)
    ):
        return 0.0
    results, sources = change_sides(new, old)
    if _old_negated(old):  # "doesn't eat meat" ← "stopped eating meat": the stop led to it
        results, sources = _stopped(new), results
    if not results:
        return 0.0
    share = max(_share(r, old) for r in results)
    # what the old memory itself left ("stopped coffee and drinks tea" ← "drinks coffee
    # again") is on the old change's source side: arriving there is a change back
    left_by_old = change_sides(old)[1]
    if any(_share(s, parse(r, old.lang)) >= 0.5 for r in results for s in left_by_old):
        return 0.0
    return 0.0 if any(_share(s, old) >= 0.5 for s in sources) else share


def leads_to_features(old: Sentence, new: Sentence) -> list[float]:
    """The LEADS_TO_FEATURES row of a pair."""
    return [change_into_old(old, new)]
