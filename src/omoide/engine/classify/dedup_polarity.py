"""Dedup's polarity rule: one Japanese predicate denied on one side only, a denial widened or
narrowed, a favour received turned into one given; an English superlative or a bound on a
number turned round; a clock time moved (pure).

Trigger: dedup asks whether a Japanese near-copy is a duplicate. Why: 週末は映画を見ない /
週末も映画を見る, 夜は何も飲まないようにしている / 夜もたまに飲むことがある, 鶏肉は食べないが卵は
食べる / 鶏肉も卵も食べない and 友人に車を直してもらった / 友人の車を直した keep every word
but a few kana, so their cosine is 0.97–0.99 and the aligned difference is small; the veto's
polarity misses some (ない after a one-kanji verb stem: 見ない, 寝ない) and, when it sees one,
is only a signal the judge weighs against the negations that paraphrases reword with another
word (飲めない / 下戸, 吸わない / 非喫煙者, "does not eat" / "avoids"). What tells them apart is
where the negation sits, not whether one is seen. Outcome: ``polarity_changed`` is True when

- **the same predicate is denied on one side only**: aligned character by character, the
  two texts share a verb's stem and differ from there on, where one side's ending is a
  grammatical negation (ない, なかった, なく, ません, ず; after one kana of the verb's own
  ending: 飲ま|ない / 飲|む, し|ない / す|る) and the other side's ending holds no negation,
  grammatical or lexical (やめる, 嫌い, 苦手, …): 見|ない / 見|る; since the twenty-fourth
  round the other side may hold negations elsewhere, fewer than the denied side holds (眠れず、
  薬を飲んでいる / 眠れないが、薬は飲んでいない). A negation said with another word (飲めない /
  下戸) changes the stem and is left to the judge. Since the thirty-fifth round the other
  side's count leaves out the ず of words that deny nothing (必ず) and the ない of しか…ない
  ("only"), and a
  noun denied by the copula (アレルギーではない) against the same noun affirmed (アレルギーなので)
  is a denial on one side only too;
- **a denial is widened or narrowed**: one text holds a denied and an affirmed clause in
  contrast (〜ないが / けど / のに 〜る, 〜ではなく〜, a clause in brackets) and the other does not
  (AはしないがBはする / AもBもしない);
- **a favour changes direction**: one text says the act was done for the speaker (〜てもらう,
  〜ていただく, 〜てくれる, 〜てくださる) and the other does not (友人に車を直してもらった / 友人の
  車を直した).

English is left to the veto's polarity, which reads "not" wherever it stands, but for a
superlative turned round: "least" before a word the other text holds without it ("the user's
favourite opera" / "the user's least favourite opera"; "at least", a bound, is the veto's). In
either language, a bound on a number turned round ("no more than £85" / "at least £85", 以内 /
超え: :mod:`dedup_bound`), a clock time moved (6時 / 7時, 8:30 / 9:30:
:mod:`dedup_clock`), and one word swapped for its converse or another step of one scale, the
rest unchanged (learns / teaches, mild / severe, most / every, 得意 / 苦手: :mod:`dedup_contrast`);
in Japanese, one katakana word, or one name in Latin letters, replaced by another with little
in common, the rest unchanged (:mod:`dedup_katakana`); in either language, a word negated
by a prefix on one side only (合格 / 不合格, "paid" / "unpaid": :mod:`dedup_prefix`); and an
attempt that fell short, an alternative dropped or a purpose said as a result
(:mod:`dedup_turn`). Like the status and trade rules, a pair it finds is never a duplicate.
Deterministic and symmetric.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from omoide.engine.classify.dedup_agent import agent_changed
from omoide.engine.classify.dedup_bound import bound_turned
from omoide.engine.classify.dedup_clock import clock_changed
from omoide.engine.classify.dedup_contrast import contrast_swapped
from omoide.engine.classify.dedup_en_turns import en_turned
from omoide.engine.classify.dedup_frequency import frequency_changed
from omoide.engine.classify.dedup_katakana import katakana_swapped, latin_swapped
from omoide.engine.classify.dedup_prefix import prefix_negated
from omoide.engine.classify.dedup_rank import rank_changed
from omoide.engine.classify.dedup_turn import turn_changed
from omoide.engine.lang import is_japanese

__all__ = ["polarity_changed"]

_IGNORED = re.compile(r"[\s。、，,.!！?？「」『』・]+")
# A grammatical negation at the start of a predicate's ending, after at most one kana of the
# verb's own ending (飲ま|ない, し|ない, 来|ない: the a-row of a godan verb, する's し).
_DENIED_ENDING = re.compile(r"[ぁ-ゖ]?(?:ない|なかった|なく|ません|ず|ぬ)")
# Any negation, grammatical or said with a word of its own: the other side must hold none.
_ANY_NEGATION = re.compile(
    r"ない|なかった|なく|ません|ず|ぬ|無い|無し|やめ|辞め|止め|嫌|苦手|駄目|ダメ|断|控え|避け|"
    r"抜い|禁"
)
# A verb's stem ends in kana or in one kanji (見る, 寝る, 食べる, 口にする).
_STEM_END = re.compile(r"[ぁ-ゖ\u4e00-\u9fff]$")
# The endings of an affirmed verb: the other side's differing part opens with one.
_VERB_ENDING = re.compile(r"[うくぐすつぬぶむるたてでれりっんいきしちみびにえけせめべ]")

# Clauses in contrast: after a predicate (ない, る, た, い, だ, ず, ます, です), が / けど / けれど
# / のに, or ではなく / じゃなく, or a clause in brackets.
_CONTRAST = re.compile(
    r"(?:(?<=ない)|(?<=[ぬずるただす]))(?:けれども|けれど|けど|のに|が)|"
    r"(?:では|じゃ)なく(?:て)?、?|[()（）]"
)
_PREDICATE = re.compile(r"[ぁ-ゖ]$|[\u4e00-\u9fff]$")
# A favour done for the speaker (received): 〜てもらう, 〜ていただく, 〜てくれる, 〜てくださる,
# after the verb's kanji stem (直|して|もらった).
_RECEIVED = re.compile(
    r"([\u4e00-\u9fff]+)[ぁ-ゖ]?[っんい]?[てで](?:もら|貰|いただ|頂|くれ|くださ|下さ)"
)
# The topic: what the statement opens with, up to its first は or が.
_TOPIC = re.compile(r"^[^はが]*[はが]")


def _favour_turned(first: str, second: str) -> bool:
    """One text says the act was done for its topic (直してもらった), the other, with the same
    topic, does the same verb itself, not in the passive (直した, not 直された): the favour
    goes the other way. A change of topic or a passive is a change of voice (祖母が教えてくれた /
    私は祖母に教わった, 娘に勧められた / 娘が勧めてくれた), left to the judge."""
    for received, other in ((first, second), (second, first)):
        found = _RECEIVED.search(received)
        if found is None or _RECEIVED.search(other):
            continue
        topic, other_topic = _TOPIC.match(received), _TOPIC.match(other)
        if topic is None or other_topic is None or topic.group() != other_topic.group():
            continue
        stem = found.group(1)
        after = [other[m.end() : m.end() + 3] for m in re.finditer(re.escape(stem), other)]
        if any(not re.match(r"[ぁ-ゖ]?(?:られ|れ)", tail) for tail in after):
            return True
    return False


# ず in words that deny nothing (必ず "always", ずっと, ずつ, わずか, 思わず), and しか, whose
# ない says "only" (手引きのものしか使わない: only a hand saw), not a denial (session 35).
_NOT_DENYING = re.compile(r"必ず|まず|ずっと|ずつ|わずか|少なからず|相変わらず|思わず")


def _negations(text: str) -> int:
    return len(_ANY_NEGATION.findall(text))


def _denials(text: str) -> int:
    """The negations of the side that is not denied, less the ず of words that deny nothing
    and one ない for each しか: those do not match the other side's denial. (The denied side
    keeps its full count, so the rule keeps every pair it kept before: 宿坊にしか泊まらない /
    ビジネスホテルに泊まった is an exclusive turned, a change.)"""
    plain = _NOT_DENYING.sub("", text)
    return max(0, _negations(plain) - plain.count("しか"))


def _same_predicate_denied(first: str, second: str) -> bool:
    a, b = _IGNORED.sub("", first), _IGNORED.sub("", second)
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal" or i1 == 0 or j1 == 0 or not _STEM_END.search(a[:i1]):
            continue
        for x, y, denied, other in ((a[i1:i2], b[j1:j2], a, b), (b[j1:j2], a[i1:i2], b, a)):
            if (
                _DENIED_ENDING.match(x)
                and (not y or _VERB_ENDING.match(y))
                and _denials(other) < _negations(denied)
            ):
                return True
    return False


# A noun denied by the copula (アレルギーではない, 会員じゃなかった): its last two characters.
_DENIED_NOUN = re.compile(r"(..)(?:では|じゃ)(?:ない|なく|なかった|ありません)")


def _noun_denied(denied: str, other: str) -> bool:
    """``denied`` denies a noun with the copula (金属アレルギーではない) that ``other`` affirms
    (金属アレルギーなので, 会員だ, 会員で、, 会員。 once the notation dropped だ; not 会員でない or
    会員でいない, a denial in another form)."""
    for match in _DENIED_NOUN.finditer(denied):
        noun = re.escape(match.group(1))
        if re.search(
            noun + r"(?:なので|なのに|だ|です|であ|で(?![はな])|(?=[。、,.]|$))", other
        ) and not (re.search(noun + r"(?:では|じゃ|でい|で)?な(?:い|く|かっ)", other)):
            return True
    return False


def _contrasted(text: str) -> bool:
    """A denied and an affirmed clause in contrast within ``text``."""
    clauses = [c for c in _CONTRAST.split(re.sub(r"[\s、。，,.!！?？]+", "", text)) if c]
    if len(clauses) < 2:
        return False
    polarity = {bool(_ANY_NEGATION.search(c)) for c in clauses if _PREDICATE.search(c)}
    return polarity == {True, False}


# "least" before a word (not "at least", a bound the veto reads): the word's sense reversed.
_LEAST = re.compile(r"(?<!\bat )\bleast\s+([a-z]+)", re.IGNORECASE)


def _least_turned(first: str, second: str) -> bool:
    """``first`` says "least X" where ``second`` says X without it: "the user's favourite opera"
    / "the user's least favourite opera" (the superlative turned round)."""
    for match in _LEAST.finditer(first):
        word = match.group(1).lower()
        if re.search(rf"\b{word}\b", second, re.IGNORECASE) and not re.search(
            rf"\bleast\s+{word}\b", second, re.IGNORECASE
        ):
            return True
    return False


def polarity_changed(first: str, second: str) -> bool:
    """True when a Japanese pair denies one predicate on one side only, holds a denied and an
    affirmed clause in contrast on one side only, says a favour was received on one side
    only or replaces a katakana word or a Latin name by another (``dedup_katakana``); or an
    English pair says "least" before a word on one side only; or a bound on a number turned
    round, a clock time moved, a word swapped for its converse or another step of one scale
    (``dedup_contrast``), an attempt, an alternative or a purpose turned (``dedup_turn``) or
    the one who acts or pays turned to the subject itself (``dedup_agent``) or a post said
    with another grade (``dedup_rank``) or how often said with words of another meaning
    (``dedup_frequency``) or a word negated by a prefix on one side only (``dedup_prefix``),
    either language (module docstring)."""
    if bound_turned(first, second) or clock_changed(first, second):
        return True
    if contrast_swapped(first, second) or turn_changed(first, second):
        return True
    if agent_changed(first, second) or rank_changed(first, second):
        return True
    if frequency_changed(first, second) or prefix_negated(first, second):
        return True
    if not is_japanese(first) and not is_japanese(second):
        return (
            _least_turned(first, second) or _least_turned(second, first) or en_turned(first, second)
        )
    if not (is_japanese(first) and is_japanese(second)):
        return False
    return (
        _same_predicate_denied(first, second)
        or _noun_denied(first, second)
        or _noun_denied(second, first)
        or katakana_swapped(first, second)
        or latin_swapped(first, second)
        or _contrasted(first) != _contrasted(second)
        or _favour_turned(first, second)
    )
