"""One thing's amount per period told again with another value (pure).

A rate — an amount of money or a count per hour, day, week, month or year — holds one value at
a time for one thing: "The user pays £40 a month for the allotment" → "The user's allotment
costs £46 a month from April"; "swims three times a week at the lido" → "swims once a week at
the lido now"; 「ユーザーは英会話教室に月に四回通っている」 →
「ユーザーの英会話教室は月二回になった」.
When both memories hold exactly one amount of one kind (money, or one counter: times, nights,
回, 日 …) per the same period, the two values differ, and more than half of the old memory's
topic words (besides the subject, the amount and the period: the thing counted or paid for) are
in the new one, the new value replaces the old one — without a change verb.

``rate_restated`` is 1 for such a pair. It is not read when either memory is a plan or a wish,
when the new memory adds ("also", "another", …も) or tells a past ("used to", 以前, 当時),
or when a memory holds two amounts of that kind and period (which one changed is not known).
The subject is the judge's to check (``subject_differs``). No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.text import Sentence
from omoide.engine.classify.value_numbers import number_spans
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, word_set

__all__ = ["RATE_FEATURES", "rate_features", "rate_restated"]

RATE_FEATURES: tuple[str, ...] = ("rate_restated", "rate_restated_whole")

_PERIODS = ("hour", "day", "week", "month", "year")
# English: "a / an / per / each / every <period>", "/month", "monthly", "weekly" …
_EN_PERIOD = re.compile(
    r"\b(?:a|an|per|each|every)\s+(?P<a>hour|day|night|week|fortnight|month|year)\b"
    r"|/\s*(?P<b>hour|hr|day|week|month|mo|year|yr)\b"
    r"|\b(?P<c>hourly|daily|nightly|weekly|fortnightly|monthly|yearly|annually|annual)\b")
_EN_PERIOD_OF = {"hr": "hour", "night": "day", "nightly": "day", "fortnight": "week",
                 "fortnightly": "week", "mo": "month", "yr": "year", "annually": "year",
                 "annual": "year", "hourly": "hour", "daily": "day", "weekly": "week",
                 "monthly": "month", "yearly": "year"}
_NUMERAL = "\\d一二三四五六七八九十百千数"
# Japanese: 時給, 日給, 毎週, 週に二回, 月に五回, 月二回, 月給, 月額, 年収 … (not 4月 or 先月: a
# date, not a period).
_JA_PERIOD = {
    "hour": re.compile(rf"時給|(?<![{_NUMERAL}])[1一]時間(?:に|あたり|当たり)"),
    "day": re.compile(rf"日給|日当|毎日|(?<![{_NUMERAL}])[1一]日(?:に|あたり|当たり)"),
    "week": re.compile(rf"毎週|週給|(?<![{_NUMERAL}先今来毎])週(?:に|で)?(?=[{_NUMERAL}])"),
    "month": re.compile(rf"毎月|月給|月額|月謝|月々|(?<![{_NUMERAL}先今来毎])月(?:に|で)?"
                        rf"(?=[{_NUMERAL}])"),
    "year": re.compile(rf"毎年|年収|年俸|年額|(?<![{_NUMERAL}去今来毎])年(?:に|で)?"
                       rf"(?=[{_NUMERAL}])"),
}
_EN_MONEY_BEFORE = re.compile(r"[$£€¥]\s*$")
_EN_MONEY_AFTER = re.compile(r"\s*(?:k\b)?\s*(?:pounds?|dollars?|euros?|yen|quid|bucks)\b")
_EN_UNIT_AFTER = re.compile(r"\s*([a-z]+)")
_EN_MULTIPLES = {"once": en_lemma("times"), "twice": en_lemma("times"), "thrice": en_lemma("times")}
_NUMBER_WORDS = word_set(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred thousand million dozen and a once twice thrice")
_JA_MONEY_AFTER = re.compile(r"(?:円|ドル|ユーロ|ポンド)")
_JA_COUNTER_AFTER = re.compile(r"(?:か|ヶ|ケ)?([\u3400-\u9fff々\u30a0-\u30ff])")
# A clause ends at a comma, semicolon, colon or a sentence end (not inside "1,200" or "23.50").
_CLAUSE = {"en": re.compile(r"(?:[^,;:.!?]|(?<=\d)[,.](?=\d))+"),
           "ja": re.compile(r"(?:[^、。，．；：!?！？,.]|(?<=\d)[,.](?=\d))+")}
_PAST = {"en": re.compile(r"\bused to\b|\bback then\b|\bat the time\b|\bformerly\b"),
         "ja": re.compile(r"以前|当時|昔|かつて|前は")}
# Another thing of one kind or another person's ("the same", "another", 母も).
_ANOTHER = {"en": re.compile(r"\bsame\b|\bother\b|\bsecond\b"),
            "ja": re.compile(rf"同じ|(?:{'|'.join(lex.JA_PERSONS)}|さん|ちゃん|くん|実家)も")}
# An old amount given as a bound ("under 60", "more than 40", 三万円を超える, 30件以上), or
# roughly ("about thirty", 二十時間ほど).
_EN_OPEN_BEFORE = re.compile(r"\b(?:under|over|more than|less than|fewer than|at least|at most"
                             r"|up to|above|below|upwards of|no more than|maximum|minimum)\s*$")
_EN_ABOUT_BEFORE = re.compile(r"\b(?:about|around|roughly|nearly|almost|approximately|some"
                              r"|circa)\s*$")
_JA_OPEN_AFTER = re.compile(r"^[^、。\s]{0,3}?(?:以上|以下|未満|を超え|超|まで|以内)")
_JA_ABOUT = re.compile(r"^[^、。\s]{0,3}?(?:ほど|くらい|ぐらい|前後|程度)")
_EN_ORDINAL = re.compile(r"^(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth"
                         r"|seventh|eighth|ninth|tenth|[a-z]+-(?:first|second|third|fourth"
                         r"|fifth|sixth|seventh|eighth|ninth))$")
_EN_WORD = re.compile(r"[a-z][a-z'\-]+")
_JA_RUN = re.compile(r"[\u3400-\u9fff々〆ヶ\u30a0-\u30ff]{2,}")
_JA_SUBJECT = re.compile(r"ユーザー|わたし|私|僕|自分|さん")
_EN_NOT_TOPIC = frozenset({"user", "user's", "the", "hour", "day", "night", "week",
                           "fortnight", "month", "year", "time", "pound", "dollar", "euro",
                           "now", "from", "this", "that", "pay", "cost", "costs", "is", "are"})


def rate_restated(old: Sentence, new: Sentence, *, whole: bool = False) -> bool:
    """Whether ``new`` gives one of ``old``'s rates (one amount of one kind per one period of
    one thing) another value; ``whole``: every topic word of ``old`` is in ``new`` (else more
    than half)."""
    lang = new.lang
    if old.lang != lang or _PAST[lang].search(new.text) or any(
            re.search(lex.PLAN[lang], s.text) for s in (old, new)) or re.search(
            lex.ADDITIVE[lang], new.text) or _ANOTHER[lang].search(new.text):
        return False
    olds, news = _rates(old.text, lang), _rates(new.text, lang)
    said = [v for vs in news.values() for v, _ in vs]
    for key, values in olds.items():
        if len(values) != 1 or len(news.get(key, ())) != 1:
            continue
        (value, bound), (fresh, _) = values[0], news[key][0]
        if bound == "open" or value in said or (
                bound == "about" and 0.75 * value <= fresh <= 1.25 * value):
            continue
        topic = _topic(old.text, lang)
        said_again = len(topic & _topic(new.text, lang))
        return bool(topic) and (said_again == len(topic) if whole else
                                said_again > 0.5 * len(topic))
    return False


def _rates(text: str, lang: str) -> dict[tuple[str, str], list[tuple[float, str]]]:
    """Each amount with a period in its clause, by (kind, period): kind is "money" or the
    counter the amount is counted in; with its bound ("open", "about" or "")."""
    out: dict[tuple[str, str], list[tuple[float, str]]] = {}
    spans = [s for s in number_spans(text, lang) if not _date(text, *s, lang)]
    if lang == "en":
        spans += [(m.start(), m.end(), float(1 + ("once", "twice", "thrice").index(m.group())))
                  for m in re.finditer(r"\b(?:once|twice|thrice)\b", text)
                  if not any(s <= m.start() < e for s, e, _ in spans)]
    for clause in _CLAUSE[lang].finditer(text):
        periods = _periods(clause.group(), lang)
        if len(periods) != 1:
            continue
        period = periods.pop()
        for start, end, value in spans:
            if clause.start() <= start < clause.end():
                kind = _kind(text, start, end, lang)
                if kind:
                    out.setdefault((kind, period), []).append(
                        (value, _bound(text, start, end, lang)))
    return out


def _date(text: str, start: int, end: int, _value: float, lang: str) -> bool:
    """A number that names a day, not an amount: an ordinal ("the first Sunday", "the 25th"),
    a month name, a day of the month (毎月25日)."""
    if lang == "en":
        word = text[start:end] + re.match(r"[a-z]*", text[end:]).group()
        # a word that is no number word is a month name ("June")
        return bool(_EN_ORDINAL.match(word)) or (word.isalpha() and not _is_number_word(word))
    return text[end:].startswith("日") and text[:start].endswith(("毎月", "月"))


def _is_number_word(word: str) -> bool:
    return all(part in _NUMBER_WORDS for part in re.split(r"[\s-]+", word))


def _bound(text: str, start: int, end: int, lang: str) -> str:
    if lang == "en":
        before = text[max(0, start - 16):start].rstrip("$£€¥ ")
        return "open" if _EN_OPEN_BEFORE.search(before + " ") or re.match(
            r"\s*(?:\+|or more|or less|plus)\b", text[end:]) else (
            "about" if _EN_ABOUT_BEFORE.search(before + " ") else "")
    after = text[end:]
    return "open" if _JA_OPEN_AFTER.search(after) else (
        "about" if _JA_ABOUT.search(after) or text[:start].endswith(("約", "およそ")) else "")


def _periods(clause: str, lang: str) -> set[str]:
    if lang == "en":
        found = set()
        for m in _EN_PERIOD.finditer(clause):
            word = m.group("a") or m.group("b") or m.group("c")
            found.add(_EN_PERIOD_OF.get(word, word))
        return found
    return {name for name, pattern in _JA_PERIOD.items() if pattern.search(clause)}


def _kind(text: str, start: int, end: int, lang: str) -> str:
    """"money" for an amount of a currency, else the counter or unit word after it; "" when
    there is none."""
    after = text[end:]
    if lang == "en":
        word = text[start:end]
        if word in _EN_MULTIPLES:
            return _EN_MULTIPLES[word]
        if _EN_MONEY_BEFORE.search(text[max(0, start - 3):start]) or _EN_MONEY_AFTER.match(after):
            return "money"
        unit = _EN_UNIT_AFTER.match(after)
        if not unit or unit.group(1) in FACT_TOPIC_STOPWORDS or unit.group(1) in (
                "a", "an", "per", "each", "every"):
            return ""
        return en_lemma(unit.group(1))
    if _JA_MONEY_AFTER.match(after):
        return "money"
    counter = _JA_COUNTER_AFTER.match(after)
    return counter.group(1) if counter else ""


def _topic(text: str, lang: str) -> set[str]:
    """What the memory is about besides its subject, amounts (with their units) and periods:
    English lemmas of content words (not the first word, the subject), Japanese kanji and
    katakana runs."""
    blanked = text
    for start, end, _ in sorted(number_spans(text, lang), reverse=True):
        unit = (_EN_UNIT_AFTER if lang == "en" else _JA_COUNTER_AFTER).match(text, end)
        end = unit.end() if unit else end  # the amount with its unit or counter
        blanked = blanked[:start] + " " * (end - start) + blanked[end:]
    if lang == "en":
        words = _EN_WORD.findall(blanked)[1:]
        lemmas = {en_lemma(w.removesuffix("'s")) for w in words
                  if len(w) > 2 and w not in FACT_TOPIC_STOPWORDS
                  and not _EN_PERIOD.fullmatch(w) and not _EN_MONEY_AFTER.fullmatch(w)}
        return lemmas - {en_lemma(w) for w in _EN_NOT_TOPIC}
    for pattern in _JA_PERIOD.values():
        blanked = pattern.sub(" ", blanked)
    return {run for run in _JA_RUN.findall(_JA_SUBJECT.sub(" ", blanked))}


def rate_features(old: Sentence, new: Sentence) -> list[float]:
    """``RATE_FEATURES`` for one pair."""
    return [float(rate_restated(old, new)), float(rate_restated(old, new, whole=True))]
