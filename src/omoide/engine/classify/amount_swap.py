"""One amount replaced: the old statement said again with its one number changed (pure).

"takes drug A 20 mg a day" → "takes drug A 10 mg a day since her review"; "works four days
a week at the library" → "works three days a week at the library"; 毎朝四時に起きている →
毎朝六時に起きている; 家賃は月八万円だ → 家賃は月九万円だ.

**Trigger** (``amount_swapped``). The two statements are the same words but for one short
span on each side, and the two spans are the same words but for their numbers (digits,
number words, kanji numerals; "twice" reads as "two times"), which differ: the same measure of
the same thing, said of the same owner, with another value. English may add a tail after the
restated statement that opens on a reason or a time ("… since the twins left home", "… after
the renewal"); Japanese may end on a change (…になった, …に増えた). It does not fire when:

* the owners differ, or the span is the subject (nothing shared before it; in Japanese a
  span holding the topic particle) — one amount of two people;
* either side is negated, or the new one adds ("also", "another", …も) — two things of a kind;
* the frame tells an event, a plan or an occasion (``one_slot``'s event reading: a past
  tense, "plans to", "next week", 行った, 予定) — one occasion's count, not a state's;
* a span names a calendar date or a weekday (a month name, 月 / 日 / 曜 in Japanese) — an
  appointment on another day may be another appointment;
* a span holds a rough bound ("about", "over", 以上, ほど) and the values lie within a
  quarter of each other, or the old one is a bound the new value fills in;
* the number names the thing a many-holding verb holds ("owns boat number 3" → "owns boat
  number 4", 2号機を持っている → 3号機を持っている): an identifier, not an amount — one may own
  both (an identifier as a copula's value, "the locker is number 12", still swaps).

**Why.** The judge weighs a changed quantity (``quantity_changed``) but, where the new
statement repeats the old one with a tail or in other words around the number, leaves it
under its thresholds: a restated frame reads to the embedding as a paraphrase
(``bench/results/classify_val26.md``).

**Outcome.** ``amount_swapped`` is 1 for such a pair: a sure close the model does not weigh
(``judge_signals.SURE_ONLY``); the vetoes and the subject check still win. No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.one_slot import OneSlot, one_slot, shared_ends
from omoide.engine.classify.text import Sentence, cue
from omoide.engine.classify.value_numbers import find_values, numeral_value
from omoide.engine.lang import word_set

__all__ = ["AMOUNT_SWAP_FEATURES", "amount_swap_features", "amount_swapped"]

AMOUNT_SWAP_FEATURES: tuple[str, ...] = ("amount_swapped",)

# --- English ------------------------------------------------------------------------------

_EN_TOKEN = re.compile(r"[$£€¥]?[a-z0-9][a-z0-9'&.,\-]*(?::\d+)*|:")
# Left out of the alignment: articles, and the adverbs that put a statement in the present.
_EN_DROP = word_set("a an the now currently still just only")
# A tail after the restated statement: a reason or a time, not a second thing.
_EN_TAIL = word_set("since after because following from when as this at in on until thanks due")
_EN_MAX_SPAN = 4
_EN_DIGITS = re.compile(r"^[$£€¥]?\d[\d,]*(?:\.\d+)?(?:st|nd|rd|th)?$")
_EN_NUMBER_WORDS = word_set(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred thousand million dozen first second third fourth fifth sixth seventh "
    "eighth ninth tenth"
)
_EN_MULTIPLES = {"once": ("1", "times"), "twice": ("2", "times"), "thrice": ("3", "times")}
_EN_ROUGH = word_set(
    "about around roughly approximately nearly almost some over under more less than least up "
    "to at most plus"
)
_EN_DATE = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays"
    r"|saturdays|sundays|birthday|anniversary)\b"
)
# An event or a plan in the shared frame: a past occasion or a future one holds for many
# values ("bought 3 tickets" / "bought 5 tickets" are two purchases).
_EN_EVENT = re.compile(
    r"\b(?:visited|went|traveled|travelled|toured|tried|bought|ordered|attended|saw|met"
    r"|watched|ate|cooked|took|won|ran|got|received|gave|sent|sold|scored|caught|celebrated"
    r"|yesterday|tomorrow|ago|tonight|today|(?:last|next) (?:week|month|year|night|time"
    r"|weekend|spring|summer|fall|autumn|winter)|another|one more|again|plans? to|planning"
    r"|will|going to|wants? to|would like|hopes? to|thinking of|considering|was|were|did)\b"
)


def _en_tokens(text: str) -> list[str]:
    out = []
    for token in _EN_TOKEN.findall(text):
        token = token.strip(".,")
        if token and token not in _EN_DROP:
            out.extend(_EN_MULTIPLES.get(token, (token,)))
    return out


def _en_is_number(token: str) -> bool:
    if _EN_DIGITS.match(token):
        return True
    parts = [p for p in token.split("-") if p]
    return bool(parts) and all(p in _EN_NUMBER_WORDS for p in parts)


def _en_shape(span: list[str]) -> tuple[str, ...]:
    """The span with its numbers blanked and its words lemmatised ("three cats" and "one
    cat" are one shape; so are "two-weeks-on" and "three-weeks-on")."""
    out: list[str] = []
    for token in span:
        if _en_is_number(token):
            if not out or out[-1] != "#":
                out.append("#")
        elif "-" in token:
            out.append("-".join("#" if _en_is_number(p) else en_lemma(p) for p in token.split("-")))
        else:
            out.append(en_lemma(token))
    return tuple(out)


def _has_number(span: list[str]) -> bool:
    return any(_en_is_number(t) or any(_en_is_number(p) for p in t.split("-") if p) for t in span)


def _en_swapped(old: str, new: str) -> bool:
    a, b = _en_tokens(old), _en_tokens(new)
    cuts = [len(b)] + [k for k in range(2, len(b)) if b[k] in _EN_TAIL]
    for cut in cuts:
        head = b[:cut]
        p, s = shared_ends(a, head)
        ma, mb = a[p : len(a) - s], head[p : len(head) - s]
        if not (ma and mb and len(ma) <= _EN_MAX_SPAN and len(mb) <= _EN_MAX_SPAN):
            continue
        if p == 0 or p + s < 2 or not (_has_number(ma) and _has_number(mb)):
            continue
        if _en_shape(ma) != _en_shape(mb):
            continue
        frame = " ".join(a[:p]) + " | " + " ".join(a[len(a) - s :])
        around = a[p - 1 : p] + ma + mb + a[len(a) - s : len(a) - s + 1]  # a day of a month
        return _en_values_differ(ma, mb, a[max(0, p - 2) : p]) and not (
            _EN_DATE.search(" ".join(around)) or _EN_EVENT.search(frame)
        )
    return False


def _en_values_differ(ma: list[str], mb: list[str], before: list[str]) -> bool:
    """The spans' numbers differ; a rough or bounded amount (in the span or right before it)
    changes only by more than a quarter, and not into its own open side."""
    old_v = find_values(" ".join(ma), "en")
    new_v = find_values(" ".join(mb), "en")
    if not old_v or not new_v or old_v == new_v:
        return False
    if not any(t in _EN_ROUGH for t in before + ma + mb):
        return True
    # a rough or bounded amount: only a change well beyond a quarter counts
    x, y = old_v[0][0], new_v[0][0]
    return (
        x > 0
        and y > 0
        and max(x, y) / min(x, y) > 1.25
        and not (any(t in {"over", "more", "least", "plus"} for t in before + ma) and y > x)
        and not (any(t in {"under", "less", "most", "up"} for t in before + ma) and y < x)
    )


# --- Japanese -----------------------------------------------------------------------------

_JA_NUMERAL = re.compile(r"[0-9０-９〇零一二三四五六七八九十百千万億両.,]+")
_JA_DIGIT = "0-9〇一二三四五六七八九十"
_JA_DATE = re.compile(
    rf"[{_JA_DIGIT}]+月(?!に)|(?<![週月])(?<!週に)(?<!月に)[{_JA_DIGIT}]+日(?!間)"
    r"|[月火水木金土日]曜|来週|先週|今週|明日|昨日|今日|来月|先月|今月|去年|来年"
    r"|今年|昨年"
)
_JA_ROUGH = re.compile(r"約|ほど|くらい|ぐらい|前後|近く|以上|以下|以内|未満|余り|超")
# A change said at the end instead of the old copula: …になった, …に増えた, …に減った.
_JA_CHANGE_END = re.compile(
    r"(?:に|まで|へ)(?:なった|なりました|増えた|増えました|減った"
    r"|減りました|上がった|上がりました|下がった|下がりました|伸びた"
    r"|縮んだ)$"
)
# An event, a plan or a first time in the shared frame: an occasion's count, not a state's.
_JA_EVENT = re.compile(r"予定|つもり|たい|計画|行った|訪れ|買っ|また|もう一|初めて")
_JA_OLD_END = re.compile(r"(?:だ|です|である|だった|でした)?$")
_JA_PUNCT = re.compile(r"[\s。、,.!?！？「」『』（）()・]")


def _ja_shape(span: str) -> str:
    """The span with its numerals blanked (毎朝四時 and 毎朝六時 are one shape)."""
    return _JA_NUMERAL.sub("#", span)


def _ja_swapped(slot: OneSlot) -> bool:
    """The Japanese slot is one amount of one shape with another number, after the
    predicate (not the topic), in a frame that tells no date, event or plan."""
    o, n = slot.old_span, slot.new_span
    if not (o and n) or _ja_shape(o) != _ja_shape(n) or "#" not in _ja_shape(o):
        return False
    if re.search(r"[はがも]", o + n) or re.match(r"^[はがも]", slot.after) or not slot.before:
        return False
    if _JA_DATE.search(o + n) or _JA_DATE.search(slot.before + slot.after):
        return False
    frame = slot.before + slot.after
    if _JA_EVENT.search(frame):
        return False
    if _JA_ROUGH.search(o + n) and not _ja_far(o, n):
        return False
    return _ja_numbers(o) != _ja_numbers(n)


def _ja_numbers(span: str) -> tuple[tuple[float, ...], ...]:
    """The span's values; numerals before no known counter (S級1班) as their digits."""
    return find_values(span, "ja") or tuple(
        (numeral_value(m.replace(",", "")) or 0.0,) for m in _JA_NUMERAL.findall(span)
    )


def _ja_far(o: str, n: str) -> bool:
    """Two rough amounts more than a quarter apart."""
    x, y = find_values(o, "ja"), find_values(n, "ja")
    if not x or not y:
        return False
    a, b = x[0][0], y[0][0]
    return a > 0 and b > 0 and max(a, b) / min(a, b) > 1.25


def _ja_changed_end(old: Sentence, new: Sentence) -> OneSlot | None:
    """The one slot of a Japanese pair whose new statement ends on a change (…に増えた)
    where the old one ended on the copula: both endings are left out before aligning."""
    a, b = _JA_PUNCT.sub("", old.text), _JA_PUNCT.sub("", new.text)
    end = _JA_CHANGE_END.search(b)
    if end is None:
        return None
    b = b[: end.start()]
    a = _JA_OLD_END.sub("", a, count=1)
    p, s = shared_ends(list(a), list(b))
    ma, mb = a[p : len(a) - s], b[p : len(b) - s]
    if not ma or not mb or len(ma) > 10 or len(mb) > 10 or p + s < 4:
        return None
    return OneSlot(ma, mb, a[:p], a[len(a) - s :])


# --- the amount told changed ("went up to", に増えた) ------------------------------------

# The new statement tells the amount changed to a new value, the number right after.
_EN_CHANGED_TO = re.compile(
    r"\b(?:(?:went|gone|go|goes|has gone|have gone) (?:up|down)|grown|grew|risen|rose|fallen"
    r"|fell|dropped|climbed|jumped|shrunk|shrank|(?:raised|increased|reduced|cut|lowered"
    r"|upped|trimmed|put up|brought down)(?: [a-z'\-]+){0,4}?|down|a raise) to"
    r" (?:about |around |roughly |nearly |just |only )?(?=[$£€¥]?\d|(?:one|two|three|four|five"
    r"|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred)\b)"
)
_JA_CHANGED_TO = re.compile(
    r"(?:[0-9〇一二三四五六七八九十百千万.,]+[^\s0-9〇一二三四五六七八九十百千万]{0,3}から)?"
    r"[0-9〇一二三四五六七八九十百千万.,]+[^\s0-9〇一二三四五六七八九十百千万、。]{0,3}"
    r"(?:に|まで)(?:増え|減っ|減らし|増やし|上が|下が|な[っり]|伸び)"
)
# Once, as an experience (…になったことがある): an occasion, not the standing amount.
_JA_ONCE = re.compile(r"ことがあ|こともあ|ことがな")
_EN_CONTENT = re.compile(r"[a-z][a-z'\-]{2,}")
_EN_FUNCTION = word_set(
    "the and for with from user user's his her their has have had is are was now this that "
    "about around each every per day week month year days weeks months years times"
)


def _changed_to(old: Sentence, new: Sentence) -> bool:
    """The new statement tells the old statement's amount changed to another value of the
    same unit ("rent is 700 a month" → "rent has gone up to 760 a month"), and repeats at
    least half of the old statement's other words (the same thing measured)."""
    if old.lang == "ja":
        match = _JA_CHANGED_TO.search(new.text)
        if match is None or _JA_ONCE.search(new.text):
            return False
        told = _ja_amounts(match.group())[-1:]
        olds = _ja_amounts(old.text)
    else:
        match = _EN_CHANGED_TO.search(new.text)
        if match is None:
            return False
        told = _en_amounts(new.text[match.end() :])[:1]
        olds = _en_amounts(old.text)
    if not told or not any(u == told[0][1] and v != told[0][0] for v, u in olds):
        return False
    if any(u == told[0][1] and v == told[0][0] for v, u in olds):
        return False
    if old.lang == "ja":
        units = set(re.findall(r"[\u3400-\u9fff々]{2,}|[\u30a0-\u30ff]{2,}", old.text))
        units = {u for u in units if not re.search(r"[一二三四五六七八九十百千万]", u)}
        return bool(units) and 2 * sum(u in new.text for u in units) >= len(units)
    words = {
        en_lemma(w)
        for w in _EN_CONTENT.findall(old.text)
        if w not in _EN_FUNCTION and not _en_is_number(w)
    }
    new_words = {en_lemma(w) for w in _EN_CONTENT.findall(new.text)}
    return bool(words) and 2 * len(words & new_words) >= len(words)


_EN_AMOUNT = re.compile(
    r"(?P<cur>[$£€¥])?(?P<num>\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
    r"|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\b(?P<k>k\b)?"
    r"(?:[\s\-]+(?P<unit>[a-z]+))?"
)
_EN_UNIT_SKIP = frozenset({"a", "an", "per", "of", "each", "every", "or", "and", "to"})
_EN_SAME_UNIT = {"people": "person", "persons": "person"}


def _en_amounts(text: str) -> list[tuple[float, str]]:
    """(value, unit) of each amount: the currency sign, else the word after the number."""
    out = []
    for m in _EN_AMOUNT.finditer(text):
        values = find_values(m.group("num"), "en")
        if not values:
            continue
        value = values[0][0] * (1000 if m.group("k") else 1)
        unit = m.group("cur") or m.group("unit") or ""
        if unit in _EN_UNIT_SKIP:
            unit = ""
        unit = _EN_SAME_UNIT.get(unit, en_lemma(unit)) if not m.group("cur") else unit
        if unit:
            out.append((value, unit))
    return out


_JA_AMOUNT = re.compile(
    r"([0-9〇一二三四五六七八九十百千万.,]+)"
    r"([^\s0-9〇一二三四五六七八九十百千万、。からにま]{1,2})"
)


def _ja_amounts(text: str) -> list[tuple[float, str]]:
    """(value, counter) of each amount written with a counter (一錠, 十五棟, 九百万円)."""
    out = []
    for m in _JA_AMOUNT.finditer(text):
        value = numeral_value(m.group(1).replace(",", ""))
        if value is not None:
            out.append((value, m.group(2)[0]))
    return out


# --- both ---------------------------------------------------------------------------------

# A thing named by a number, held by a verb one may hold many things with (present tense):
# English the verb before "number N" / "no. N" / "#N"; Japanese N号 / N番 before the verb.
_EN_HELD_ID = re.compile(r"\b(?:owns?|has|have|keeps?)\b.*?(?:\bnumber|\bno\.|#)\s?(\d+)\b")
_JA_HELD_ID = re.compile(
    rf"([{_JA_DIGIT}]+)(?:号|番(?!目)).*?(?:持っている|飼っている|所有している)"
)


def _held_identifiers(old: Sentence, new: Sentence) -> bool:
    """Whether both statements hold a thing named by a number and the numbers differ: two
    things of a kind, not one amount changed."""
    pattern = _JA_HELD_ID if old.lang == "ja" else _EN_HELD_ID
    a, b = pattern.search(old.text), pattern.search(new.text)
    return a is not None and b is not None and a.group(1) != b.group(1)


def amount_swapped(old: Sentence, new: Sentence) -> bool:
    """Whether the new statement repeats the old one with its one amount changed (see the
    module's trigger)."""
    if old.owner != new.owner or old.negative or new.negative or cue(lex.ADDITIVE, new):
        return False
    if _held_identifiers(old, new):
        return False
    if _changed_to(old, new):
        return True
    if old.lang == "ja":
        slot = one_slot(old, new) or _ja_changed_end(old, new)
        return slot is not None and _ja_swapped(slot)
    return _en_swapped(old.text, new.text)


def amount_swap_features(old: Sentence, new: Sentence) -> list[float]:
    """The AMOUNT_SWAP_FEATURES row of a pair."""
    return [float(amount_swapped(old, new))]
