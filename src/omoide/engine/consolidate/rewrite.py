"""Make a sentence stand alone: third person and absolute dates (pure, offline).

A note is read far from the conversation it came from, so "I went there yesterday" said by
Nora on 8 May 2023 becomes "Nora went there yesterday (7 May 2023)". First-person
pronouns become the speaker's name (an English verb after "I" is conjugated: the common verbs
from a list, any other word unless it reads as a past form, participle, adverb or linking
word; "we" becomes "<name> and others", and "our"/"us" next to it "their"/"them"), except a
"my"/"me"/"myself" that refers back to its clause's own "I" (:mod:`.binding`: "Nora ran their
first marathon", 「ノラは自分の車を売った」); "you" and "your" become the addressee's name when
the caller knows who that is (あなた → "<name>さん"; the unnamed user, 「ユーザー」, takes no
honorific). Relative dates ("yesterday", "last month", "last Saturday", 先週, 3日前) are kept
and followed by the date they mean, resolved against the time the turn was said. Month names
come from a table, never from the locale. Generic "you" ("it makes you think") is rewritten
too: a known imprecision, cheaper than leaving every "you" unresolved. No I/O, no clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from omoide.engine.consolidate.binding import bind_first_person
from omoide.engine.consolidate.voice import is_role_label
from omoide.engine.lang import word_set

__all__ = ["format_day", "plain_japanese_ending", "resolve_relative_dates", "said_on",
           "to_third_person"]

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Verbs that end in -ly: present tense after "I", never adverbs.
_LY_VERBS = "apply|reply|supply|comply|imply|multiply|fly|rely|ally|bully|tally|rally|dally"
_ADVERBS = (
    r"really|just|also|always|still|usually|never|often|sometimes|actually|totally|definitely|"
    r"even|finally|recently|now|only|truly|absolutely|mostly|rarely|already|kinda|kind of|"
    r"sort of|particularly|especially|honestly|seriously|constantly|occasionally|generally|"
    # any other -ly adverb ("I hardly sleep"), not one of the verbs in -ly
    rf"(?!(?:{_LY_VERBS})\b)[a-z]{{2,}}ly"
)

_SUBJECT_TEMPLATE = (
    r"\b{pronoun}(?P<contraction>['’](?:m|re|ve|d|ll))?(?P<adverbs>(?:\s+(?:{adverbs}))*)"
    r"(?:\s+(?P<verb>[A-Za-z]+(?:['’]t)?))?(?![A-Za-z'’])"
)
_I_CLAUSE = re.compile(_SUBJECT_TEMPLATE.format(pronoun="I", adverbs=_ADVERBS))
# "you know," is a filler and "you guys" / "you two" are plural: those stay as written.
_YOU = r"[Yy]ou(?!\s+know\s*[,.!?]|\s+(?:guys|all|two|both)\b)"
_YOU_CLAUSE = re.compile(_SUBJECT_TEMPLATE.format(pronoun=_YOU, adverbs=_ADVERBS))
_WE_CLAUSE = re.compile(r"\b(?P<we>[Ww]e)(?P<contraction>['’](?:re|ve|d|ll))?(?![A-Za-z'’])")
# a pronoun, not part of a hyphened word ("me-time", "US-based" stay as written)
_ME = re.compile(r"(?<![\w-])me(?![\w-])")
_US = re.compile(r"(?<![\w-])us(?![\w-])")
_OUR = re.compile(r"\b(?:[Oo]ur|[Oo]urs)\b")
_YOUR = re.compile(r"\b(?:[Yy]our|[Yy]ours)\b")
_REFLEXIVE = {"ourselves": "themselves", "yourself": "themself"}
_REFLEXIVE_WORD = re.compile(r"\b(?:[Oo]urselves|[Yy]ourself)\b")
# after binding: the speaker by name
_MY = re.compile(r"(?<![\w-])(?:[Mm]y|[Mm]ine|[Mm]yself)(?![\w-])")

_CONTRACTIONS = {"'m": "is", "'re": "is", "'ve": "has", "'ll": "will"}
_WE_CONTRACTIONS = {"'re": "are", "'ve": "have", "'d": "would", "'ll": "will"}
_IRREGULAR = {
    "am": "is",
    "are": "is",
    "were": "was",
    "aren't": "isn't",
    "weren't": "wasn't",
    "have": "has",
    "do": "does",
    "don't": "doesn't",
    "haven't": "hasn't",
    "go": "goes",
    "ain't": "isn't",
}
_BASE_VERBS = word_set(
    """
    love like hate prefer enjoy adore dislike want need think feel know believe hope plan try
    live work play miss find keep take make get see use run teach study paint cook bake draw
    sing dance swim hike travel visit volunteer help care mean remember forget wish agree
    understand guess appreciate own drive walk watch listen collect practice practise spend
    attend learn wonder worry struggle mentor seem look sound admire recommend focus stay wear
    bring buy sell call come give grow join lead manage meet pay prepare sleep talk tend write
    usually say consider dream imagine fancy crave teach train coach support create build
    celebrate exercise meditate journal knit garden sew paint value cherish treasure carry
    speak ski surf skate climb juggle crochet
    """
)
# Past forms and participles that never take -s, and the words that follow "I" without being
# its verb (a preposition-like or adverb-like word): an unlisted word after "I" is conjugated
# only when it is none of these and does not read as past (-ed), an adverb (-ly) or a
# negation. Forms that are past and present alike (read, put, cut …) stay as written.
_NOT_PRESENT = word_set(
    """
    arose awoke bore beat became began bent bit bled blew broke bred brought built burnt bought
    caught chose clung came crept dealt dug did drew dreamt drank drove ate fell fed felt fought
    found fled flung flew forbade forgot forgave froze got gave went ground grew hung had heard
    hid held kept knelt knew laid led leant leapt learnt left lent lay lit lost made meant met
    mistook overcame paid rode rang rose ran said saw sought sold sent shook shone shot shrank
    sang sank sat slept slid slung smelt spoke sped spelt spent spilt spun spat spoilt sprang
    stood stole stuck stung stank strode struck strove swore swept swam swung took taught tore
    told thought threw trod understood undertook woke wore wove wept won wound withdrew wrung
    wrote been seen done gone taken given eaten driven written spoken broken chosen fallen
    forgotten frozen hidden ridden risen shaken stolen sworn thrown torn woken worn known grown
    flown drawn begun drunk sung sunk swum rung shrunk sprung gotten
    read put cut let set hit quit hurt cost shut spread bet cast burst fit split shed thrust
    and or but nor too then once first here there so as alone if when while who that which
    than almost ever soon later maybe somehow instead either neither both rather yet again
    myself personally anyway though for to of in on at with from by about into over after
    before up out off back down away home today tonight tomorrow
    """
)
_AUXILIARIES = word_set(
    "can could do does did should will would may might must shall am was were are have has had"
)
_PAST_PARTICIPLE_HINT = frozenset({"been", "never", "already", "just", "gone", "done", "had"})


def to_third_person(
    sentence: str, speaker: str, *, addressee: str | None = None, japanese: bool
) -> str:
    """First person → the speaker's name ("I love" → "Nora loves"); second person → the
    addressee's name when the episode tells who that is."""
    # "I ran my …" → "I ran their …", "you ran your …" → "you ran their …"
    sentence = bind_first_person(sentence, japanese=japanese, addressee=bool(addressee))
    if japanese:
        return _japanese_third_person(sentence, speaker, addressee)
    # After "we" became "Nora and others", "our"/"us" refer back to that group
    # ("… put their hearts into it"); alone, "our kids" are the speaker's kids.
    plural = _WE_CLAUSE.search(sentence) is not None
    text = _I_CLAUSE.sub(lambda m: _rewrite_subject(m, speaker, open_class=True), sentence)
    text = _WE_CLAUSE.sub(lambda m: _rewrite_we(m, speaker), text)
    text = _REFLEXIVE_WORD.sub(lambda m: _REFLEXIVE[m.group(0).lower()], text)
    text = _MY.sub(lambda m: speaker if m.group(0).lower() == "myself" else f"{speaker}'s", text)
    text = _OUR.sub("their" if plural else f"{speaker}'s", text)
    text = _ME.sub(speaker, text)
    text = _US.sub("them" if plural else speaker, text)
    if addressee:
        text = _YOUR.sub(f"{addressee}'s", text)
        text = _YOU_CLAUSE.sub(lambda m: _rewrite_subject(m, addressee), text)
    return text


def _rewrite_subject(match: re.Match[str], name: str, *, open_class: bool = False) -> str:
    """``I'm really into`` → ``Nora is really into``; ``you love`` → ``Sam loves``.
    ``open_class``: any word that reads as a present-tense verb is conjugated, not only the
    listed ones (after "I", which is always a subject; "you" is also an object)."""
    contraction = (match.group("contraction") or "").replace("’", "'")
    adverbs = match.group("adverbs") or ""
    verb = match.group("verb")
    tail = f" {verb}" if verb else ""
    if contraction == "'d":
        auxiliary = "had" if verb and verb.lower() in _PAST_PARTICIPLE_HINT else "would"
        return f"{name} {auxiliary}{adverbs}{tail}"
    if contraction:
        return f"{name} {_CONTRACTIONS[contraction]}{adverbs}{tail}"
    if verb is None:
        return f"{name}{adverbs}"
    if _after_auxiliary(match):
        return f"{name}{adverbs}{tail}"  # "what can I say" keeps its bare verb
    return f"{name}{adverbs} {_conjugate(verb, open_class=open_class)}"


def _after_auxiliary(match: re.Match[str]) -> bool:
    before = match.string[: match.start()].split()
    return bool(before) and before[-1].lower().strip(",") in _AUXILIARIES


def _rewrite_we(match: re.Match[str], speaker: str) -> str:
    contraction = (match.group("contraction") or "").replace("’", "'")
    subject = f"{speaker} and others"
    return f"{subject} {_WE_CONTRACTIONS[contraction]}" if contraction else subject


def _conjugate(verb: str, *, open_class: bool = False) -> str:
    """Third-person singular of a known present-tense verb; anything else stays as written."""
    low = verb.lower().replace("’", "'")
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low not in _BASE_VERBS and not (open_class and _reads_present(verb)):
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return f"{verb}es"
    if low.endswith("y") and low[-2:-1] not in set("aeiou"):
        return f"{verb[:-1]}ies"
    return f"{verb}s"


def _reads_present(verb: str) -> bool:
    """An unlisted word after "I" that can only be a present-tense verb ("I drink", "I rent"):
    lower case, not a past form, participle, adverb, negation or linking word."""
    low = verb.lower()
    return (verb.isalpha() and verb.islower() and len(low) > 1 and low not in _NOT_PRESENT
            and low not in _AUXILIARIES and not low.endswith(("ed", "ing"))
            and (not low.endswith("ly") or low in _LY_VERBS.split("|")))


# 私立 (private), 私服 (plain clothes) … are not the pronoun.
_JA_WE = re.compile(r"(?:私|僕|俺|わたし|あたし)(?:たち|達|ら)")
_JA_I = re.compile(r"私(?![立服物用鉄的生])|僕|俺|わたし|あたし")
_JA_YOU = re.compile(r"あなた|あんた")


# Casual speech ends a statement with a particle that speaks to the listener (〜したよ, 〜だね,
# 〜いいよね, 〜するぞ) or with an explanatory んだ/なんだ (始めたんだ, 好きなんだ). A note is the
# store's statement, read far from that listener: the plain form stays (〜した, 〜だ, 〜好き).
# Only after a predicate's last kana (a past た/だ, a dictionary-form or adjective ending, です
# and ます's す), so a noun ending in the same kana keeps it; んだ only after a dictionary or past
# form, since a kanji before it is a past tense (読んだ, 住んだ), not an explanation.
_JA_PREDICATE_END = "たるいうくすつぬぶむぐだ"
_JA_LISTENER_PARTICLE = re.compile(
    rf"(?<=[{_JA_PREDICATE_END}])(?:よね|よな|よ|ね|なあ|なー|な|わ|ぞ|ぜ)"
    r"(?P<end>[。！!…〜～ー]*)$")
_JA_EXPLANATORY = re.compile(r"(?:(?<=[たるいうくすつぬぶむぐ])ん|なん)だ(?P<end>[。！!…〜～ー]*)$")


def plain_japanese_ending(sentence: str) -> str:
    """A casual Japanese statement's listener particles and explanatory んだ dropped:
    「猫の名前はミケにしたよ」 → 「猫の名前はミケにした」, 「ギターを始めたんだよね」 →
    「ギターを始めた」."""
    text = sentence.rstrip()
    for pattern in (_JA_LISTENER_PARTICLE, _JA_EXPLANATORY, _JA_LISTENER_PARTICLE):
        text = pattern.sub(lambda m: m.group("end"), text)
    return text


def _japanese_third_person(sentence: str, speaker: str, addressee: str | None) -> str:
    text = plain_japanese_ending(_JA_I.sub(speaker, _JA_WE.sub(f"{speaker}たち", sentence)))
    if not addressee:
        return text
    # さん follows a name; 「ユーザー」 names a role, and 「ユーザーさん」 reads as a nickname.
    return _JA_YOU.sub(addressee if is_role_label(addressee) else f"{addressee}さん", text)


def format_day(day: datetime, *, japanese: bool) -> str:
    """``8 May 2023`` / ``2023年5月8日``, independent of the process locale."""
    if japanese:
        return f"{day.year}年{day.month}月{day.day}日"
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def _format_month(year: int, month: int, *, japanese: bool) -> str:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return f"{year}年{month}月" if japanese else f"{_MONTHS[month - 1]} {year}"


def said_on(when: datetime | None, *, japanese: bool, speaker: str | None = None,
            content: str = "") -> str:
    """The suffix that dates a note and, when its words do not name the speaker, says who
    said it: `` (8 May 2023)``, `` (Ken, 8 May 2023)``, ``（花子、2023年5月8日）``. Short and
    without sentence words, so that two notes said on the same day do not look alike. A note
    carries its date once: when ``content`` (its words) already holds that day in either
    language's form (a resolved "today (8 May 2023)", a day written out), the date is left out."""
    if when is not None and any(format_day(when, japanese=ja) in content for ja in (False, True)):
        when = None
    parts = [p for p in (speaker, None if when is None else format_day(when, japanese=japanese))
             if p]
    if not parts:
        return ""
    return f"（{'、'.join(parts)}）" if japanese else f" ({', '.join(parts)})"


def resolve_relative_dates(sentence: str, when: datetime, *, japanese: bool) -> str:
    """Follow each relative date with the date it means: "yesterday (7 May 2023)"."""
    rules = _JA_RULES if japanese else _EN_RULES
    out = sentence
    for pattern, resolve in rules:
        out = pattern.sub(lambda m, r=resolve: _annotate(m, r(m, when), japanese), out)
    return out


def _annotate(match: re.Match[str], resolved: str | None, japanese: bool) -> str:
    if resolved is None:
        return match.group(0)
    return f"{match.group(0)}（{resolved}）" if japanese else f"{match.group(0)} ({resolved})"


_Resolver = Callable[[re.Match[str], datetime], str | None]
_AMOUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_AMOUNTS |= {"a few": 3, "a couple of": 2, "couple of": 2, "several": 3}


def _day(offset: int) -> _Resolver:
    return lambda _m, when: format_day(when + timedelta(days=offset), japanese=False)


def _week(relation: str) -> _Resolver:
    return lambda _m, when: f"the {relation} {format_day(when, japanese=False)}"


def _month(offset: int, japanese: bool = False) -> _Resolver:
    return lambda _m, when: _format_month(when.year, when.month + offset, japanese=japanese)


def _year(offset: int, japanese: bool = False) -> _Resolver:
    return lambda _m, when: f"{when.year + offset}年" if japanese else str(when.year + offset)


def _weekday(direction: int) -> _Resolver:
    def resolve(match: re.Match[str], when: datetime) -> str:
        target = _WEEKDAYS.index(match.group(1).lower())
        step = (
            ((when.weekday() - target) % 7 or 7)
            if direction < 0
            else -((target - when.weekday()) % 7 or 7)
        )
        return format_day(when - timedelta(days=step), japanese=False)

    return resolve


def _ago(match: re.Match[str], when: datetime) -> str | None:
    raw = match.group(1).lower()
    amount = int(raw) if raw.isdigit() else _AMOUNTS.get(raw)
    if not amount:
        return None
    unit = match.group(2).lower()
    if unit == "day":
        return format_day(when - timedelta(days=amount), japanese=False)
    if unit == "week":
        return f"around {format_day(when - timedelta(weeks=amount), japanese=False)}"
    if unit == "month":
        return _format_month(when.year, when.month - amount, japanese=False)
    return str(when.year - amount)


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"\b{pattern}\b", re.IGNORECASE)


_WEEKDAY_GROUP = "(" + "|".join(_WEEKDAYS) + ")"
_EN_RULES: tuple[tuple[re.Pattern[str], _Resolver], ...] = (
    # "feels like (just) yesterday" is an idiom, not a date.
    (re.compile(r"(?<!like )(?<!like just )\b(?:yesterday|last night)\b", re.IGNORECASE), _day(-1)),
    (_en("today|tonight|this morning|this afternoon|this evening"), _day(0)),
    (_en("tomorrow"), _day(1)),
    (_en("last week"), _week("week before")),
    (_en("next week"), _week("week after")),
    (_en("(?:last|this past) weekend"), _week("weekend before")),
    (_en("(?:this|next|this coming) weekend"), _week("weekend after")),
    (_en("last month"), _month(-1)),
    (_en("this month"), _month(0)),
    (_en("next month"), _month(1)),
    (_en("last year"), _year(-1)),
    (_en("this year"), _year(0)),
    (_en("next year"), _year(1)),
    (
        _en(
            r"(\d+|an?|one|two|three|four|five|six|a few|(?:a )?couple of|several)\s+"
            r"(day|week|month|year)s?\s+ago"
        ),
        _ago,
    ),
    (_en(rf"(?:last|this past)\s+{_WEEKDAY_GROUP}"), _weekday(-1)),
    (_en(rf"(?:next|this coming)\s+{_WEEKDAY_GROUP}"), _weekday(1)),
)


def _ja_day(offset: int) -> _Resolver:
    return lambda _m, when: format_day(when + timedelta(days=offset), japanese=True)


def _ja_week(relation: str) -> _Resolver:
    return lambda _m, when: f"{format_day(when, japanese=True)}の{relation}"


def _ja_ago(match: re.Match[str], when: datetime) -> str | None:
    amount, unit = int(match.group(1)), match.group(2)
    if unit == "日":
        return format_day(when - timedelta(days=amount), japanese=True)
    if unit == "週間":
        return f"{format_day(when - timedelta(weeks=amount), japanese=True)}頃"
    if unit in {"か月", "ヶ月", "ヵ月", "カ月"}:
        return _format_month(when.year, when.month - amount, japanese=True)
    return f"{when.year - amount}年"


_JA_RULES: tuple[tuple[re.Pattern[str], _Resolver], ...] = (
    (re.compile(r"昨日|昨夜|昨晩"), _ja_day(-1)),
    (re.compile(r"今日|今朝|今夜|今晩"), _ja_day(0)),
    (re.compile(r"明日"), _ja_day(1)),
    (re.compile(r"先週末?"), _ja_week("前の週")),
    (re.compile(r"来週末?"), _ja_week("次の週")),
    (re.compile(r"先月"), _month(-1, japanese=True)),
    (re.compile(r"今月"), _month(0, japanese=True)),
    (re.compile(r"来月"), _month(1, japanese=True)),
    (re.compile(r"去年|昨年"), _year(-1, japanese=True)),
    (re.compile(r"今年"), _year(0, japanese=True)),
    (re.compile(r"来年"), _year(1, japanese=True)),
    (re.compile(r"(\d+)\s*(日|週間|か月|ヶ月|ヵ月|カ月|年)前"), _ja_ago),
)
