"""Dedup's notation of one Japanese text: numbers, steps and bounds said another way (pure).

A part of ``dedup_notation.text_notation`` (nineteenth round), after the numbers are read in one
notation (``dedup_number_notation.one_notation``). Trigger: a near-copy that keeps every value
but writes it otherwise, where the veto or the judge saw a changed number or bound: minutes in
kanji after an hour (7時十分 / 7時10分), an hour with a zero minute (7時00分 / 7時), a lone
kanji digit after a word and before a particle (要介護二で / 要介護2で), a step of every other
day, week or month in words or as a count (隔週 / 2週間ごと / 1週おき), "more than" said with
上回る (超えた / 上回った), "since" said with 以来 (2020年以来 / 2020年から), a count said per
one (ずつ: 月3万円ずつ / 月3万円), 度 as 回 after a period (週に2度 / 週に2回), a range said
with a comma (2、3回 / 2〜3回), one person in kana (ひとりで / 1人で), and an evening hour after
毎晩 or 今夜 (毎晩11時 / 23時). Outcome: each written one way; a number, a bound or a step
that differs stays different. Deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from omoide.engine.classify.lexicon import JA_KANJI_DIGITS

__all__ = ["ja_forms"]

_VALUE = JA_KANJI_DIGITS
_KANJI_DIGITS = "".join(_VALUE)


def _kanji_minutes(text: str) -> int | None:
    """十 / 十五 / 二十 / 四十五 / 五 as a number of minutes (below 60), else None."""
    if "十" not in text:
        return _VALUE.get(text) if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    if len(tens) > 1 or len(ones) > 1:
        return None
    value = (_VALUE.get(tens, 0) if tens else 1) * 10 + (_VALUE.get(ones, 0) if ones else 0)
    return value if value < 60 else None


def _minutes(match: re.Match[str]) -> str:
    value = _kanji_minutes(match.group(1))
    return match.group() if value is None else f"時{value}分"


# Minutes in kanji after a digit hour (十分 alone is "enough", so only after 時).
_KANJI_MINUTES = re.compile(rf"(?<=[0-9])時([{_KANJI_DIGITS}十]{{1,3}})分")
_ZERO_MINUTES = re.compile(r"(?<=[0-9])時0?0分")
# A lone kanji digit after a katakana word, before a particle or the end of a clause
# (ベスト八に, レベル三の; not after kanji: 尺八, 七五三), or before a katakana counter
# (六フィート, 三コマ; not 三ノ宮).
_LONE_DIGIT = re.compile(
    r"(?<=[\u30a1-\u30fa\u30fc])([二三四五六七八九])"
    r"(?=[でにのはをもと、。．.]|$)"
    rf"|(?<![{_KANJI_DIGITS}十百千万0-9])([{_KANJI_DIGITS}])"
    r"(?=[\u30a1-\u30fa\u30fc])(?!ノ)"
)
# Every other day, week or month: 隔日 / 1日おき / 2日ごと, 隔週 / 1週間おき / 2週間ごと /
# 2週おき is read as every two (2週おき is not every third, but it is said so).
_ALTERNATE = (
    (re.compile(r"(?<![0-9])(?:1日おき|2日ごと)(?:に|で)?"), "隔日"),
    (re.compile(r"(?<![0-9])(?:1週(?:間)?おき|2週(?:間)?ごと)(?:に|で)?"), "隔週"),
    (re.compile(r"(?<![0-9])(?:1(?:か|ヶ|カ|ケ)月おき|2(?:か|ヶ|カ|ケ)月ごと)(?:に|で)?"), "隔月"),
)
_ALTERNATE_WORD = re.compile(r"(隔[日週月])(?:で|に)(?![ぁ-ゖ])")
# 上回る is 超える (the bound "over"); 以来 is から (since).
_OVER = (
    (re.compile(r"上回(?:る|り)"), "超える"),
    (re.compile(r"上回った"), "超えた"),
    (re.compile(r"上回って"), "超えて"),
    (re.compile(r"以来"), "から"),
)
# A count per one: 3万円ずつ / 3万円, 2個ずつ / 2個 (after a number and its counter).
_EACH = re.compile(r"(?<=[0-9])([^\s0-9、。]{0,3}?)ずつ")
# 度 after a period and a count is 回 (週に2度 / 週に2回, 毎週2度 / 毎週2回).
_TIMES = re.compile(r"((?:[日週月年]に|毎[日週月年])[0-9]+)度")
# A range said with a comma between two neighbouring numbers: 2、3回 / 2〜3回 (read as 2から3
# まで by ``one_notation``).
_COMMA_RANGE = re.compile(
    rf"(?<![0-9{_KANJI_DIGITS}十])([0-9]+|[二三四五六七八九])、([0-9]+)"
    r"(?=[回人日個本枚冊度年件軒]|時間|週間|か月|ヶ月)"
)
# One person, in kana or in digits: ひとりで / 1人で, ひとり暮らし / 1人暮らし.
_ALONE = re.compile(r"(?:ひとり|独り)(?!ひとり)")
# Other forms of one value or time: ひとつ / 1つ, 土日 / 週末, 毎週末 / 週末ごとに / 週末に (a
# habit), 週三で / 週3で, この4月 / 今年の4月, 1か月に / 毎月, 円まで / 円以内 (an amount's
# bound), 深夜0時 / 24時 / 0時, 13時から始まる / 13時開始, 火・金 / 火曜と金曜, 幼い頃 /
# 子どものころ, ご近所さん / 近所の人, 日に3杯 / 毎日3杯, スムージーのみ /
# だけ, が怖い / が苦手 (twentieth round).
_ONE_WAY: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"ひとつ", "1つ"),
        (r"土日", "週末"),
        (r"毎週末|週末ごとに?|週末になると", "週末に"),
        (r"(?<=[週月年])([二三四五六七八九])(?=で|回|度)", lambda m: str(_VALUE[m.group(1)])),
        (r"(?<![0-9])この([0-9]{1,2}月)", r"今年の\1"),
        (r"(?<![0-9])1(?:か|ヶ|カ|ケ)月(?:に|で)", "毎月"),
        (r"(?<![0-9])1週間(?:に|で)", "毎週"),
        (r"(?<=[0-9])(円|回|個|杯|本|人|時間|kg|g)まで", r"\1以内"),
        (r"(?:深夜)?(?:零|0)時|(?<![0-9])24時(?!間)", "0時"),
        (r"(?<=[0-9]時|[0-9]分)(?:から)?(?:始まる|開始|スタート)", "から"),
        (r"(?<![月火水木金土日])([月火水木金土日])・([月火水木金土日])(?![曜])", r"\1曜と\2曜"),
        (r"(?:幼い|小さい)(?:ころ|頃)", "子どものころ"),
        (r"ご近所さん", "近所の人"),
        (r"(?<![0-9月毎今昨明翌前同当初])日に(?=[0-9])", "毎日"),
        (r"(?<=[\u4e00-\u9fff\u30a1-\u30fa\u30fc])のみ(?![込物会屋])", "だけ"),
        # the humble おります before a clause joins (働いておりまして / 働いていて), いたします
        (r"([てで])おりまして", r"\1いて"),
        (r"(?<=[\u4e00-\u9fff])いた(?=し)", ""),
        # a dislike said as a fear or a weakness (クモが怖い / 苦手, 朝が弱い / 苦手), read as
        # 苦手, the word the polarity reader knows: against 好き it is then a change
        (r"が(?:怖い|こわい|弱い)|を(?:怖|こわ)が(?:る|っている|ります|っています)", "が苦手"),
    )
)
# An evening hour after 毎晩 / 今晩 / 毎夜 / 今夜: 毎晩11時 is 23時 (a small hour stays: 毎晩1時).
_EVENING = re.compile(r"(毎晩|今晩|毎夜|今夜)(?:の)?([0-9]{1,2})時")


def _range(match: re.Match[str]) -> str:
    first = match.group(1)
    low, high = int(_VALUE.get(first, first)), int(match.group(2))
    return f"{low}から{high}まで" if high == low + 1 else match.group()


def _evening(match: re.Match[str]) -> str:
    hour = int(match.group(2))
    return f"{match.group(1)}{hour + 12 if 6 <= hour < 12 else hour}時"


def ja_forms(text: str) -> str:
    """``text`` (numbers already in digits) with the forms of the module docstring written one
    way."""
    text = _KANJI_MINUTES.sub(_minutes, text)
    text = _ZERO_MINUTES.sub("時", text)
    text = _LONE_DIGIT.sub(lambda m: str(_VALUE[m.group(1) or m.group(2)]), text)
    for pattern, replacement in _ALTERNATE:
        text = pattern.sub(replacement, text)
    text = _ALTERNATE_WORD.sub(r"\1", text)
    for pattern, replacement in _OVER:
        text = pattern.sub(replacement, text)
    text = _EACH.sub(r"\1", text)
    text = _TIMES.sub(r"\1回", text)
    text = _COMMA_RANGE.sub(_range, text)
    text = _ALONE.sub("1人", text)
    for pattern, replacement in _ONE_WAY:
        text = pattern.sub(replacement, text)
    return _EVENING.sub(_evening, text)
