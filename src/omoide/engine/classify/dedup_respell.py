"""Dedup's notation across a pair: a length of time in another unit, an amount of pounds in
words, and a common Japanese word said with its synonym where the word has other senses
(pure).

A part of ``dedup_notation.pair_notation`` (nineteenth round). Trigger: the two texts of a
near-copy hold one length of time in two units (1時間 / 60分, 1.5年 / 18か月, 2週間 / 14日間,
"3 days" / "72 h"), one sum in pounds written "£1876" and "1876 lb" (the notation reads
"pounds" as the unit of weight), or swap a common word for its synonym where that word cannot
be rewritten in every text (会社 / 勤め先: 会社 is also "a company"; 家 / 自宅: 家 is also "a
family"; 今 / 現在, 得意 / 上手, 代 / 料金). Why: each was read as a changed number or word.
Outcome: ``second`` rewritten as ``first`` writes the same length or sum, and a word that
differs from ``first``'s only as a member of one synonym set (the alignment's whole
difference there) written as ``first``'s. A length that differs (1時間 / 90分) or a word of
another meaning in the same place stays apart. Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify.dedup_spans import aligned
from omoide.engine.classify.value_numbers import numeral_value

__all__ = ["ja_same_words", "same_aspect", "same_lengths", "same_pounds"]

# Units of one kind of length of time, in one base unit each (minutes; months; days).
_JA_UNITS: tuple[dict[str, float], ...] = (
    {"分": 1, "分間": 1, "時間": 60},
    {"か月": 1, "ヶ月": 1, "カ月": 1, "ケ月": 1, "か月間": 1, "ヶ月間": 1, "年": 12, "年間": 12},
    {"日間": 1, "週間": 7},
    {"日間": 24 * 60, "時間": 60},
)
_EN_UNITS: tuple[dict[str, float], ...] = (
    {"min": 1, "minutes": 1, "minute": 1, "h": 60, "hours": 60, "hour": 60},
    {"months": 1, "month": 1, "years": 12, "year": 12},
    {"days": 1, "day": 1, "weeks": 7, "week": 7},
    {"days": 24 * 60, "day": 24 * 60, "h": 60, "hours": 60},
)
_JA_LENGTH = re.compile(
    r"(?<![0-9.])([0-9]+(?:\.[0-9]+)?)(か月間|ヶ月間|か月|ヶ月|カ月|ケ月|年間|"
    r"年(?![0-9生度])|週間|日間|時間|分間|分)|半年"
)
_EN_LENGTH = re.compile(
    r"(?<![0-9.:])([0-9]+(?:\.[0-9]+)?)[\s-]?(minutes|minute|min|hours|hour|h|"
    r"days|day|weeks|week|months|month|years|year)\b",
    re.IGNORECASE,
)


def _lengths(text: str, japanese: bool) -> list[tuple[float, str, int, int]]:
    """(value, unit, start, end) of each length of time in ``text``."""
    pattern = _JA_LENGTH if japanese else _EN_LENGTH
    out = []
    for match in pattern.finditer(text):
        if match.group() == "半年":
            out.append((6.0, "か月", match.start(), match.end()))
        else:
            out.append((float(match.group(1)), match.group(2).lower(), match.start(), match.end()))
    return out


def _same(x: tuple[float, str], y: tuple[float, str], japanese: bool) -> bool:
    return any(
        x[1] in units
        and y[1] in units
        and x[1] != y[1]
        and abs(x[0] * units[x[1]] - y[0] * units[y[1]]) < 1e-6
        for units in (_JA_UNITS if japanese else _EN_UNITS)
    )


def same_lengths(first: str, second: str, japanese: bool) -> str:
    """``second`` with each length of time that ``first`` holds in another unit (and
    ``second`` does not hold as ``first`` writes it) written as ``first`` writes it."""
    mine, theirs = _lengths(first, japanese), _lengths(second, japanese)
    written = {(v, u) for v, u, _, _ in theirs}
    out, last = [], 0
    for value, unit, start, end in theirs:
        if any((v, u) == (value, unit) for v, u, _, _ in mine):
            continue
        match = next(
            (
                first[s:e]
                for v, u, s, e in mine
                if (v, u) not in written and _same((v, u), (value, unit), japanese)
            ),
            None,
        )
        if match is not None:
            out += [second[last:start], match]
            last = end
    return "".join(out) + second[last:]


_POUNDS = re.compile(r"(?<![0-9.])([0-9]+(?:\.[0-9]+)?) lb\b")


def same_pounds(first: str, second: str) -> str:
    """``second`` with "N lb" written "£N" where ``first`` holds £N (a sum, not a weight)."""
    return _POUNDS.sub(
        lambda m: f"£{m.group(1)}" if f"£{m.group(1)}" in first else m.group(), second
    )


# Words one statement may use for another with no change of fact, where a word has other
# senses elsewhere (so they are read only as a pair's whole difference at one place).
_JA_SETS: tuple[frozenset[str], ...] = tuple(
    frozenset(s)
    for s in (
        ("会社", "勤め先", "勤務先", "職場"),
        ("家", "自宅"),
        ("今", "現在", "いま"),
        ("得意", "上手"),
        ("料金", "代"),
        ("ボーナス", "賞与"),
        ("給料", "給与"),
        ("仕事", "職業"),
        ("お酒", "酒", "アルコール"),
        ("主に", "おもに"),
        ("特に", "とりわけ", "とくに"),
        ("まったく", "全く", "一切"),
        ("抑", "控"),
        ("湯船", "浴槽"),
        ("捕手", "キャッチャー"),
        ("投手", "ピッチャー"),
        ("通信講座", "通信教育"),
        ("自家用車", "マイカー"),
        ("運転免許", "車の免許"),
        ("運転免許証", "免許証"),
        ("昼休み", "ランチタイム"),
        ("値段", "価格"),
        ("医者", "医師"),
        ("病院", "クリニック"),
        ("手放せ", "欠かせ"),
        ("考え", "検討し"),
        ("時代", "のころ", "の頃"),
        ("ライセンス", "免許"),
        ("インストラクター", "講師"),
        ("資格", "免状"),
        ("法科大学院", "ロースクール"),
        ("醸造所", "ブルワリー"),
        ("料理教室", "クッキングスクール"),
        ("ミニトマト", "プチトマト"),
        ("調香師", "パフューマー"),
        ("化粧品", "コスメ"),
        ("趣味", "ホビー"),
        ("旅行", "旅"),
        ("誕生日", "バースデー"),
        ("結婚式", "ウェディング"),
        ("歯医者", "歯科医"),
        ("美容院", "美容室"),
        ("携帯電話", "携帯"),
        ("住まい", "住居"),
        ("大学院生", "院生"),
        ("写真", "フォト"),
        ("予約", "リザーブ"),
        # a report's verb (と言っていた / と話していた) and doing a role (をやっている /
        # をしている / を務めている)
        ("言っ", "話し"),
        ("やっ", "し", "務め"),
    )
)


_NUMERAL = re.compile(r"[0-9〇一二三四五六七八九十百千万]+")


def _members(old: str, new: str) -> bool:
    if _NUMERAL.fullmatch(old) and _NUMERAL.fullmatch(new):
        return numeral_value(old) == numeral_value(new) is not None  # 要介護一 / 要介護1
    # (twenty-sixth round) also with a topic は on one side only: 今は2期目 / 現在2期目
    for x, y in (
        (old, new),
        (old.removeprefix("の"), new),
        (old, new.removeprefix("の")),
        (old.removesuffix("は"), new),
        (old, new.removesuffix("は")),
    ):
        if x != y and any(x in words and y in words for words in _JA_SETS):
            return True
    return False


def ja_same_words(first: str, second: str) -> str:
    """``second`` with each word that differs from ``first``'s in that place only as another
    member of one synonym set written as ``first`` writes it."""
    out = []
    for differs, i1, i2, j1, j2 in aligned(first, second):
        old, new = first[i1:i2], second[j1:j2]
        out.append(old if differs and old and new and _members(old, new) else new)
    return "".join(out)


# A habit (毎日, 毎週, いつも, 週3回, …) said in the plain present or with 〜ている: 毎日5キロ走る /
# 毎日5キロ走っている, 毎朝コーヒーを飲む / 飲んでいる. Where both texts name a habit and one
# ends a clause with the plain verb, the other's 〜ている of that verb (its te-form agreeing
# with the plain ending) is written as the plain verb. A past, a negative, or a verb without a
# habit keeps its form (結婚する / 結婚している differ).
_HABIT = re.compile(
    r"毎[日週月年朝晩夜回]|いつも|よく|普段|ふだん|週末"
    r"|[日週月年]に?[0-9]|[0-9]+回"
)
_CLAUSE_END = r"(?=[。．.、，,!！?？」）)]*$|[。．.、，,!！?？])"
_E_ROW = "えけげせぜてでねへべぺめれ"
_STEM = rf"[\u4e00-\u9fff]+[{_E_ROW}]?|を"  # を: ボランティアをする / をしている
_TE_IRU = re.compile(rf"({_STEM})([っんいし]?[てで])いる{_CLAUSE_END}")
_TE_FORM = {
    "う": "って",
    "つ": "って",
    "る": "って",
    "む": "んで",
    "ぶ": "んで",
    "ぬ": "んで",
    "く": "いて",
    "ぐ": "いで",
    "す": "して",
    "する": "して",
}


def _plain(first: str, stem: str, te: str) -> str | None:
    """The plain ending ``first`` gives ``stem`` at a clause end, if its te-form is ``te``."""
    match = re.search(rf"{re.escape(stem)}(する|[うつるむぶぬくぐす]){_CLAUSE_END}", first)
    if match is None:
        return None
    ending = match.group(1)
    ichidan = ending == "る" and stem[-1] in _E_ROW
    return ending if te == ("て" if ichidan else _TE_FORM[ending]) else None


def same_aspect(first: str, second: str) -> str:
    """``second`` with a habit's 〜ている written as ``first``'s plain verb (see above)."""
    if not (_HABIT.search(first) and _HABIT.search(second)):
        return second

    def one(match: re.Match[str]) -> str:
        stem = match.group(1)
        for start in range(len(stem) - (2 if stem[-1] in _E_ROW else 1), -1, -1):
            ending = _plain(first, stem[start:], match.group(2))  # 飲, then 杯飲
            if ending is not None:
                return stem + ending
        return match.group()

    return _TE_IRU.sub(one, second)
