"""Dedup reads a near-copy in one notation, so that a spelling is not taken for a change (pure).

Trigger: dedup asks whether a near-copy above the threshold is a duplicate. Why: the veto and
the learned judge compare the two texts' words, and a difference of notation alone looked like
a changed word: full-width digits (月８回 / 月8回), a word in kanji or in kana (珈琲 / コーヒー,
寿司 / すし, 子供 / 子ども), katakana or hiragana (リンゴ / りんご), a long-vowel or ヴ spelling
(ライヴ / ライブ), a polite or contracted ending (働いてます / 働いている, 薬剤師です / 薬剤師だ),
a number or date written otherwise ("sixty-eight" / 68, 二匹 / 2匹, 令和2年 / 2020年: the veto's
``one_notation``), a unit word or its symbol (180センチ / 180cm, "68 kilograms" / "68kg"), a
British or American spelling ("organises" / "organizes", "theatre" / "theater"), an English
contraction ("don't" / "do not", "gonna" / "going to"), an everyday synonym ("relocated" /
"moved", "kids" / "children": ``dedup_synonyms``; 台所 / キッチン, 受かった / 合格した:
``dedup_ja_synonyms``), the user named in the first person
("the user's wife" / "my wife", ユーザーは / 私は), a discourse filler or a word that only says
the statement holds now ("As it happens,", "currently", ちなみに, 実は), a title before a name
("St. Louis" / "Saint Louis"), a case particle (三線が弾ける / 三線を弾ける), an acronym ("UN" /
"United Nations") or a hyphen ("e-mail" / "email"); a formal noun or common word in kanji or
kana by convention (甘い物 / 甘いもの, 子供の頃 / 子どものころ), a relative time of one meaning
(昨年 / 去年, 来春 / 来年の春), 〜中 / 〜している, a polite past (行きました / 行った), a kanji
digit before a counter no list holds, a clipped katakana word (スマホ / スマートフォン); since the
nineteenth round numbers, steps and bounds said another way (7時十分 / 7:10, 隔週 / 2週間ごと,
上回った / 超えた, "Tue" / "Tuesday", "a quarter to 10" / 9:45: ``dedup_ja_forms``,
``dedup_en_forms``), a length of time in another unit (1時間 / 60分, "3 days" / "72 h"), a sum in
pounds written out, a habit's 〜ている against the plain verb and common synonyms whose words
have other senses (会社 / 勤め先, 今 / 現在: ``dedup_respell``), a distance, weight or temperature
in another unit with the same value ("100-mile" / "160 km": ``dedup_quantity``); since the
twenty-fourth round a period, rate, share or sum said another way (半年 / 6か月, 年間 / 1年で,
8割 / 80%, "£700 pcm" / "£700 a month", "quarterly" / ``4 times a year``, "one weekend in 4" /
"every 4th weekend": ``dedup_periods``) and a Japanese negative connective or a verb of ending's
continuative in one form (眠れず、/ 眠れないで、, 自信がなく、, 辞め、/ 辞めて、:
``dedup_ja_inflection``). Outcome:
the two texts rewritten so that such differences vanish, and nothing else changed.

Each text is rewritten on its own (NFKC; numbers and dates: ``dedup_number_notation``; endings,
units, fillers, the user's forms: ``dedup_ja_notation``; units, contractions, fillers, titles,
spellings, the user's forms: ``dedup_en_notation``); then, across the pair, for Japanese, a span
of one text is spelt as the other's where the two read alike and one is written in kanji and the
other in kana (``reading``, the caller's kanji-to-kana reader, which the engine does not own;
without it, since the thirty-fourth round, ``kanji``, the caller's table of each kanji's
readings, where the kana can spell the kanji: 粘った / ねばった, 麓 / ふもと, ``dedup_kanji``;
katakana and hiragana spellings of one word always meet; two kanji spellings that read alike
are left apart: 市立 / 私立 differ), キロ is read as the km or kg the other text
writes with the same number, a lone kanji digit as the digit the other writes before the same
kanji, a katakana word as the other's clipping of it or as the Latin word it spells
(``dedup_loanword``: パイソン / Python), a common word's kanji as the katakana the other writes
and a katakana word as the other's long-vowel spelling (``dedup_kana_words``: 眼鏡 / メガネ,
コンピュータ / コンピューター), one swapped case particle as the other's, and に / へ or で /
にて when that is the pair's only difference (``dedup_spans``); for English, a run of words as
the acronym the other text holds (``dedup_abbrev``: "UN", "LISA" for "Lifetime ISA", "wpm"), a
word as its first letter before a hyphen ("e-bike"), and a hyphenated word as the other text
joins or spaces it; since the twenty-first round also a passive clause in the active voice where
the other text holds the verb at the same tense (``dedup_voice``: "X is led by Y" / "Y leads X"),
a word and a number as the other's capital and number ("Year 3" / "Y3"), a word as the other's
clipping of it ("spectrometer" / "spec": ``dedup_abbrev``) and, in Japanese, a case particle the
other text drops (コーヒーを買う / コーヒー買う: ``dedup_spans.dropped_particle``); since the
thirtieth round a clipped month or a digit ordinal where the other text spells the same one
out ("Oct" / "October", "2nd" / "second": ``dedup_abbrev.spelt_out``); since the thirty-first, in
Japanese, a comma or a topic は after a case particle where that is the pair's only difference
(夜に / 夜には, 教室で、 / 教室では: ``dedup_spans.topic_marked``), an auxiliary verb after て
and a formal noun after の or た in kana (運んで行く / 運んでいく, 夕食の後 / 夕食のあと:
``dedup_ja_notation``) and a half of the day said once before a clock range (午後1時から5時 /
13時から17時). Deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from omoide.engine.classify.dedup_abbrev import (
    abbreviated,
    clipped,
    lettered,
    numbered,
    spelt_out,
)
from omoide.engine.classify.dedup_en_notation import en_notation
from omoide.engine.classify.dedup_ja_notation import ja_notation
from omoide.engine.classify.dedup_kana_words import katakana_spelled, long_vowels
from omoide.engine.classify.dedup_kanji import KanjiReadings, spells
from omoide.engine.classify.dedup_loanword import initialled, transliterated
from omoide.engine.classify.dedup_negated import negated_otherwise
from omoide.engine.classify.dedup_number_notation import one_notation
from omoide.engine.classify.dedup_quantity import same_quantities
from omoide.engine.classify.dedup_respell import (
    ja_same_words,
    same_aspect,
    same_lengths,
    same_pounds,
)
from omoide.engine.classify.dedup_spans import (
    aligned,
    counted,
    dropped_particle,
    same_direction,
    topic_marked,
    unclipped,
)
from omoide.engine.classify.dedup_voice import active_voice
from omoide.engine.lang import Script, as_hiragana, is_japanese, script_runs

__all__ = ["Reading", "pair_notation", "text_notation"]

Reading = Callable[[str], str]  # kanji and kana to their hiragana reading

# --- one text ----------------------------------------------------------------------------


def text_notation(text: str) -> str:
    """One text in dedup's notation (see the module docstring), each text on its own: numbers
    and dates first (``one_notation``: "sixty-eight kilograms" is then read as "68 kg"), then
    the words of its language (``ja_notation``, ``en_notation``)."""
    text = one_notation(unicodedata.normalize("NFKC", text).strip())
    return ja_notation(text) if is_japanese(text) else en_notation(text)


# --- two texts: spellings of one Japanese word ----------------------------------------------

_VU = {"ゔぁ": "ば", "ゔぃ": "び", "ゔぇ": "べ", "ゔぉ": "ぼ", "ゔ": "ぶ"}
_VU_PATTERN = re.compile("|".join(sorted(_VU, key=len, reverse=True)))
_KANJI = frozenset({Script.HAN})
_CONTEXT = 2  # equal characters read with a differing span on each side (子|供|の)
_GAP = 1  # an equal run this short between two differences is read with them


def _folded(reading: str) -> str:
    """A reading with the differences of spelling folded away: katakana as hiragana, ヴ as
    ブ, no long-vowel mark, no voicing mark (回転ずし reads 寿司 voiced)."""
    text = _VU_PATTERN.sub(lambda m: _VU[m.group()], as_hiragana(reading)).replace("ー", "")
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", decomposed.replace("\u3099", "").replace("\u309a", ""))


def _scripts(span: str) -> set[Script]:
    return {run.script for run in script_runs(span)}


def _kana_only(span: str) -> bool:
    return bool(span) and _scripts(span) <= {Script.HIRAGANA, Script.KATAKANA}


def _same_word(
    old: str,
    new: str,
    spans: tuple[str, str],
    reading: Reading | None,
    kanji: KanjiReadings | None,
) -> bool:
    """``old`` and ``new`` (two differing parts) spell one word: kana spellings that fold to one
    (リンゴ / りんご, ライヴ / ライブ), or one in kanji and the other in kana whose ``spans``
    (the parts with a little equal context) read alike, or (no ``reading``) whose kana can
    spell the kanji by the table of each kanji's readings (``dedup_kanji``: 粘った / ねばった).
    Two kanji spellings that read alike may be two words (市立 / 私立)."""
    if not old or not new:
        return False
    if _kana_only(old) and _kana_only(new):
        return _folded(old) == _folded(new)
    if sum(bool(_scripts(s) & _KANJI) for s in (old, new)) != 1:
        return False
    if reading is not None:
        return _folded(reading(spans[0])) == _folded(reading(spans[1]))
    written_first = bool(_scripts(old) & _KANJI)
    if kanji is None or not _kana_only(new if written_first else old):
        return False
    written, kana = spans if written_first else spans[::-1]
    return spells(written, kana, kanji)


def _respelled(
    first: str, second: str, reading: Reading | None, kanji: KanjiReadings | None = None
) -> str:
    """``second`` with each span that spells one of ``first``'s words otherwise written as
    ``first`` writes it."""
    out = []
    for differs, i1, i2, j1, j2 in aligned(first, second, _GAP):
        if not differs:
            out.append(second[j1:j2])
            continue
        same = any(
            _same_word(
                first[i1:i2],
                second[j1:j2],
                (first[i1 - before : i2 + after], second[j1 - before : j2 + after]),
                reading,
                kanji,
            )
            for before in range(min(_CONTEXT, i1, j1) + 1)
            for after in range(min(_CONTEXT, len(first) - i2, len(second) - j2) + 1)
        )
        out.append(first[i1:i2] if same else second[j1:j2])
    return "".join(out)


# --- two texts: a particle, an acronym, a hyphen ---------------------------------------------

# Japanese case particles one statement may use for another with no change of fact (牛乳が飲めない
# / 牛乳を飲めない, 娘が / 娘は, 私には / 私は); read alike only where one such swap is the pair's
# only one of its kind: 兄が弟を / 兄を弟が trade roles, and stay apart.
_PARTICLES = frozenset({"は", "が", "を", "には"})
_HYPHENATED = re.compile(r"\b([A-Za-z]+)-([A-Za-z]+)\b")


def _particle_block(first: str, second: str, block: tuple[bool, int, int, int, int]) -> bool:
    differs, i1, i2, j1, j2 = block
    if not differs:
        return False
    after_a, after_b = first[i2 : i2 + 1], second[j2 : j2 + 1]
    options = ((first[i1:i2], second[j1:j2]), (first[i1:i2] + after_a, second[j1:j2] + after_b))
    return any(
        x != y and x in _PARTICLES and y in _PARTICLES and (k == 0 or after_a == after_b)
        for k, (x, y) in enumerate(options)
    )


def _same_particles(first: str, second: str) -> str:
    """``second`` with its one swapped case particle written as ``first`` writes it."""
    blocks = aligned(first, second, _GAP)
    swaps = [b for b in blocks if _particle_block(first, second, b)]
    if len(swaps) != 1:
        return second
    _, i1, i2, j1, j2 = swaps[0]
    if first[i1:i2] not in _PARTICLES and second[j1:j2] not in _PARTICLES:
        i2, j2 = i2 + 1, j2 + 1
    return second[:j1] + first[i1:i2] + second[j2:]


# キロ after a number is a kilometre or a kilogram: read as the one the other text writes
# (a compound unit word, 5キロワット, is its symbol by then: ``ja_notation``).
_KILO = re.compile(r"([0-9]+)キロ")


def _kilo(first: str, second: str) -> str:
    """``second`` with "Nキロ" written as ``first`` writes N kilometres or kilograms."""

    def one(match: re.Match[str]) -> str:
        unit = re.search(rf"(?<![0-9]){match.group(1)}\s?(km|kg)", first)
        return f"{match.group(1)}{unit.group(1)}" if unit else match.group()

    return _KILO.sub(one, second)


def _joined(first: str, second: str) -> str:
    """``second`` with each hyphenated word written as ``first`` writes it, joined or spaced
    ("e-commerce" / "ecommerce", "colour-blind" / "colour blind")."""

    def one(match: re.Match[str]) -> str:
        x, y = match.group(1), match.group(2)
        for form in (x + y, f"{x} {y}"):
            if re.search(rf"\b{re.escape(form)}\b", first, re.IGNORECASE):
                return form
        return match.group()

    return _HYPHENATED.sub(one, second)


def pair_notation(
    first: str,
    second: str,
    reading: Reading | None = None,
    *,
    kanji: KanjiReadings | None = None,
) -> tuple[str, str]:
    """Both texts in dedup's notation: each on its own (:func:`text_notation`), then
    ``second``'s Japanese spellings of ``first``'s words written as ``first`` writes them (a
    kanji word and its kana spelling through ``reading``, or, without one, through ``kanji``,
    a table of each kanji's readings) and
    one swapped case particle as ``first``'s; in English, a name written out where the other
    holds its acronym, and a hyphenated word where the other joins or spaces it."""
    a, b = text_notation(first), text_notation(second)
    b = same_quantities(a, b)
    if is_japanese(a) and is_japanese(b):
        a, b = _kilo(b, a), _kilo(a, b)
        a, b = counted(b, a), counted(a, b)
        a, b = unclipped(b, a), unclipped(a, b)
        a, b = transliterated(b, a), transliterated(a, b)
        a, b = initialled(b, a), initialled(a, b)
        a, b = katakana_spelled(a, b), katakana_spelled(b, a)
        b = long_vowels(a, b)
        b = _same_particles(a, _respelled(a, b, reading, kanji))
        a, b = dropped_particle(b, a), dropped_particle(a, b)
        b = topic_marked(a, b)
        b = same_direction(a, b)
        b = ja_same_words(a, same_lengths(a, b, japanese=True))
        a, b = same_aspect(b, a), same_aspect(a, b)
        a, b = negated_otherwise(a, b, "ja")
    elif not is_japanese(a) and not is_japanese(b):
        a, b = active_voice(b, a), active_voice(a, b)
        a, b = abbreviated(b, a), abbreviated(a, b)
        a, b = lettered(b, a), lettered(a, b)
        a, b = numbered(b, a), numbered(a, b)
        a, b = spelt_out(b, a), spelt_out(a, b)
        a, b = _joined(b, a), _joined(a, b)
        a, b = clipped(b, a), clipped(a, b)
        b = same_pounds(a, same_lengths(a, b, japanese=False))
        a = same_pounds(b, a)
        a, b = negated_otherwise(a, b, "en")
    return a, b
