"""Dedup's notation of one Japanese text: a common word said with its everyday synonym, native
or loanword (pure).

A part of ``dedup_notation.text_notation`` (see its docstring; sixteenth round). Trigger: a
near-copy that swaps one common word for its near-synonym and keeps everything else (台所 /
キッチン, 打ち合わせ / ミーティング, 在宅勤務 / テレワーク, 朝ご飯 / 朝食, 受かった / 合格した,
購入した / 買った, 勤めている / 働いている; since the twenty-sixth round 取得している /
持っている, 所属している / 入っている, に参加する / に出る, 退職した / 辞めた). Why: the veto
read the swap as a word replaced (a kanji word for a katakana one looks like 緑茶 / コーヒー to
it), and the judge weighed that against the cosine. Outcome: each member of a set written as the
set's first word (the native word where there is one, so that 台所 / 庭 stays a kanji word
replaced), in both texts alike, so the swap vanishes and a replaced word of another meaning does
not. The sets are general Japanese (a verb's stems listed form by form); a katakana member is
read only as a whole katakana word (コック, not コックピット), and words whose senses differ by
context (会議, 家) are in none. Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["ja_synonyms"]

# Each set: the form every member is written as, then its synonyms (a member may end with a
# lookahead, 主人(?!公): not 主人公).
_NOUNS: tuple[tuple[str, ...], ...] = (
    ("台所", "キッチン"),
    ("料理人", "シェフ", "コック"),
    ("看護師", "看護婦", "ナース"),
    ("打ち合わせ", "打合せ", "ミーティング"),
    ("在宅勤務", "テレワーク", "リモートワーク", "在宅ワーク"),
    ("手帳", "スケジュール帳"),
    ("確認", "チェック"),
    ("無料", "タダ"),
    ("返事", "返信"),
    ("朝食", "朝ごはん", "朝ご飯", "朝御飯", "朝飯"),
    ("昼食", "昼ごはん", "昼ご飯", "昼御飯", "昼飯"),
    ("夕食", "晩ごはん", "晩ご飯", "晩御飯", "夕飯", "晩飯", "夜ごはん", "夜ご飯"),
    ("休日", "休みの日"),
    ("自転車", "チャリ"),
    ("パソコン", "PC"),
    ("夫", "旦那", "主人(?!公)"),
    ("妻", "家内", "奥さん", "奥様"),
    ("父", "父親", "お父さん"),
    ("母", "母親", "お母さん"),
    ("祖父", "おじいさん", "おじいちゃん"),
    ("祖母", "おばあさん", "おばあちゃん"),
    ("未婚", "結婚していない", "独身"),
    ("教師", "先生"),
    ("料金", "代金"),
    ("トイレ", "お手洗い"),
    ("アルバイト", "バイト"),
    ("規則", "ルール"),
    ("贈り物", "プレゼント"),
    ("献立", "メニュー"),
    ("スーパー", "スーパーマーケット"),
    ("切符", "チケット"),
)
# Verbs: the native verb's te-, ta-, plain and negative forms, and the Sino-Japanese noun said
# with する (所有している / 持っている, 購入した / 買った), or a second native verb's forms.
_ENDS = ("して", "した", "する", "しない")
_QUIT = tuple(f"たばこをやめ{end}" for end in ("て", "た", "る", "ない"))
_QUITTING = (
    ("禁煙", _ENDS),
    *(
        (f"{w}を{s}", ("て", "た", "る", "ない"))
        for w in ("タバコ", "煙草")
        for s in ("やめ", "止め")
    ),
)
_VERBS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    *(
        (native, tuple(noun + end for end in _ENDS))
        for native, noun in (
            (("買って", "買った", "買う", "買わない"), "購入"),
            (("持って", "持った", "持つ", "持たない"), "所有"),
            (("使って", "使った", "使う", "使わない"), "使用"),
            (("売って", "売った", "売る", "売らない"), "販売"),
            (("引っ越して", "引っ越した", "引っ越す", "引っ越さない"), "転居"),
            (("働いて", "働いた", "働く", "働かない"), "勤務"),
        )
    ),
    (tuple("勉強" + end for end in _ENDS), ("学んで", "学んだ", "学ぶ", "学ばない")),
    (tuple("合格" + end for end in _ENDS), ("受かって", "受かった", "受かる", "受からない")),
    (("働いて", "働いた", "働く", "働かない"), ("勤めて", "勤めた", "勤める", "勤めない")),
    # (nineteenth round) 勤める takes に where 働く takes で; 禁煙 is quitting tobacco
    # (written たばこをやめる, which the reader reads as a stop)
    (
        ("で働いて", "で働いた", "で働く", "で働かない"),
        ("に勤めて", "に勤めた", "に勤める", "に勤めない"),
    ),
    *((_QUIT, tuple(word + end for end in ends)) for word, ends in _QUITTING),
    # (twenty-sixth round) a licence or grade held, said with 取得している; membership said
    # with 所属; an event attended, with に参加; leaving a job, with 退職 (each seen in four or
    # more writers' paraphrases, in no related pair)
    (("持って",), ("取得して",)),
    (
        ("に入って", "に入った", "に入る", "に入らない"),
        ("に所属して", "に所属した", "に所属する", "に所属しない"),
    ),
    (
        ("に出て", "に出た", "に出る", "に出ない"),
        ("に参加して", "に参加した", "に参加する", "に参加しない"),
    ),
    (
        ("辞めて", "辞めた", "辞める", "辞めない", "辞めて、"),
        ("退職して", "退職した", "退職する", "退職しない", "退職し、"),
    ),
)
_SETS: tuple[tuple[str, ...], ...] = (
    *_NOUNS,
    *((form, other[i]) for native, other in _VERBS for i, form in enumerate(native)),
)
_KATAKANA = "\u30a1-\u30fa\u30fc"
_FORM: dict[str, str] = {}
_PARTS: list[str] = []
for _words in _SETS:
    for _member in _words[1:]:
        _plain = re.sub(r"\(\?[=!].*?\)", "", _member)
        _FORM[_plain] = _words[0]
        _bounded = (
            rf"(?<![{_KATAKANA}]){_member}(?![{_KATAKANA}])"
            if re.fullmatch(f"[{_KATAKANA}]+", _plain)
            else rf"(?<![A-Za-z]){_member}(?![A-Za-z])"
            if _plain.isascii()
            else _member
        )
        _PARTS.append(_bounded)
_PATTERN = re.compile("|".join(sorted(_PARTS, key=len, reverse=True)))


def ja_synonyms(text: str) -> str:
    """``text`` with each word of a synonym set written as the set's first word."""
    return _PATTERN.sub(lambda m: _FORM[m.group()], text)
