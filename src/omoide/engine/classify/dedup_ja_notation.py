"""Dedup's notation of one Japanese text: endings, units, fillers and spellings of one word (pure).

A part of ``dedup_notation.text_notation`` (split out in the twenty-third round), after the
numbers are read in one notation (``dedup_number_notation.one_notation``) and before the pair is
compared. Trigger: a near-copy that keeps every fact but writes a word otherwise, where the
veto and the learned judge saw a changed word: a polite or contracted ending (働いてます /
働いている, 薬剤師です / 薬剤師だ, 行きました / 行った), a unit word or its symbol (180センチ /
180cm), a discourse filler (ちなみに, 実は, 補足すると), the user named in the first person
(ユーザーは / 私は), a formal noun or common word in kanji or kana by convention (子供 / 子ども,
甘い物 / 甘いもの, 子供の頃 / 子どものころ), a relative time of one meaning (昨年 / 去年, 来春 /
来年の春), 〜中 / 〜している and a reported statement's frame (と話していた / とのこと /
しているそう, since the twenty-fourth round), a person named beside the user's relation
(リサさんは私の妹で、 / 私の妹のリサさんは: ``dedup_ja_frames``, since the twenty-sixth; and
since session 48 one of the user's own people said bare or with うちの, 妹の / 私の妹の); then
numbers, steps and bounds said another way (``dedup_ja_forms``) and everyday synonyms
(``dedup_ja_synonyms``). Outcome: the text with each written one way; a word that differs stays
different. Deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from omoide.engine.classify.dedup_ja_forms import ja_forms
from omoide.engine.classify.dedup_ja_frames import ja_frames
from omoide.engine.classify.dedup_ja_inflection import ja_inflections
from omoide.engine.classify.dedup_ja_synonyms import ja_synonyms
from omoide.engine.classify.lexicon import JA_COMPOUND_UNITS

__all__ = ["ja_notation"]

# Japanese predicate endings that differ by politeness or contraction only, at the end of a
# clause (before 。、 or the end): the te-form with いる in all its wordings; the copula; the
# polite present and negative in their plain forms (a godan stem's i-row kana to the u-row or
# the a-row: 働きます / 働く, 飲みません / 飲まない; an e-row or kanji stem as it is: 食べます /
# 食べる, 寝ます / 寝る).
_JA_END = r"(?=[。．.、，,!！?？」）)]*$|[。．.、，,!！?？])"
_I_ROW, _U_ROW, _A_ROW = "いきぎしちにびみり", "うくぐすつぬぶむる", "わかがさたなばまら"
_E_ROW = "えけげせぜてでねへべぺめれ"
# A godan verb's polite past to its plain past: 飲みました / 飲んだ, 書きました / 書いた.
_PAST = {
    "い": "った",
    "ち": "った",
    "り": "った",
    "み": "んだ",
    "に": "んだ",
    "び": "んだ",
    "き": "いた",
    "ぎ": "いだ",
    "し": "した",
}
_JA_ENDINGS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern + _JA_END), replacement)
    for pattern, replacement in (
        (r"([てで])(?:おります|おる|います|ます|いる|る)", r"\1いる"),
        (r"(?<=[がはもにと人匹頭羽名つ])います", "いる"),  # いる itself: 2人います, 家にいます
        (r"(?<=[がはもにと人匹頭羽名つ])いません", "いない"),
        (r"([てで])(?:おりません|いません|ません|ない|いない)", r"\1いない"),
        (r"([てで])(?:おりました|いました|ました|いた|た)", r"\1いた"),
        # (nineteenth round) the explanatory のだ / んだ after a plain form (移るんだ / 移る,
        # 好きなんです / 好き); a past in だ after ん is a verb's (住んだ, 読んだ), not the copula
        (r"(?<=[うくぐすつぬぶむるたい])[んの](?:だ|です)", ""),
        (r"な[んの](?:だ|です)", ""),
        (r"(?:でございます|であります|である|です|(?<!ん)だ)", ""),
        # the continuative in its formal wording: 集めており、/ 集めていて、, 薬剤師であり、/ で、
        (r"([てで])おり", r"\1いて"),
        (r"であり", "で"),
        (r"ませんでした", "なかった"),
        (r"(?<=[がはもにと人匹頭羽名つ])いました", "いた"),
        (r"行きました", "行った"),
        (r"来ました", "来た"),
        (r"しました", "した"),
        (rf"([{_E_ROW}\u4e00-\u9fff])ました", r"\1た"),  # 食べました, 寝ました
        (rf"([{_I_ROW}])ました", lambda m: _PAST[m.group(1)]),  # 飲みました / 飲んだ
        (r"来ません", "来ない"),
        (r"来ます", "来る"),
        (r"しません", "しない"),
        (r"します", "する"),
        (rf"([{_E_ROW}\u4e00-\u9fff])ません", r"\1ない"),  # 食べません, 寝ません
        (rf"([{_E_ROW}\u4e00-\u9fff])ます", r"\1る"),
        (rf"([{_I_ROW}])ません", lambda m: _A_ROW[_I_ROW.index(m.group(1))] + "ない"),
        (rf"([{_I_ROW}])ます", lambda m: _U_ROW[_I_ROW.index(m.group(1))]),
    )
)
# A unit word after a number, and its symbol; a compound unit word is read whole, the longest
# first (``lexicon.JA_COMPOUND_UNITS``: 200ミリリットル is 200ml, not "200mmリットル").
_JA_UNITS = {
    "センチ": "cm",
    "ミリ": "mm",
    "メートル": "m",
    "グラム": "g",
    "ヘクタール": "ha",
    "リットル": "l",
    "パーセント": "%",
    **JA_COMPOUND_UNITS,
}
_JA_UNIT = re.compile(r"(?<=[0-9])\s*(" + "|".join(sorted(_JA_UNITS, key=len, reverse=True)) + ")")
_JA_USER = re.compile(r"(?:ユーザー|わたし|あたし|私|僕|ぼく|俺|おれ|自分)(?=[はがのもをに、]|$)")
# Discourse fillers that frame a statement without changing it (ちなみに, 実は, やっぱり).
# (正直 only as a filler before a comma: 正直な人 is "an honest person")
# (eighteenth round: the same kind said as a clause: 実を言うと, 念のため書いておくと, 補足すると)
_JA_FILLERS = re.compile(
    r"(?:ちなみに|実は|やっぱり|やはり|一応)、?"
    r"|正直(?:に言うと|言って|なところ)?、"
    r"|(?:実を|改めて)言うと、?|ざっくり言(?:うと|えば)、?|補足すると、?"
    r"|(?:念のため)?(?:書いて|記して|メモして)おくと、?|念のため記すと、?"
    r"|そういえば、|覚え書き[:：]\s*"
)


# (twenty-fourth round) a reported statement's frame, one way: と話していた, と言っていた,
# とのこと and a plain ending's hearsay そうだ (しているそう; not 降りそう, a look).
_JA_HEARSAY = re.compile(
    r"(?:と|って)(?:話して|言って)(?:い)?た|とのこと(?:だ|です)?"
    r"|(?<=[るたいだ])そう(?:だ|です)?(?=[。.!！]?$)"
)
# Formal nouns and a few common words written in kanji or in kana by convention (子供 /
# 子ども, 友達 / 友だち, 甘い物 / 甘いもの, 走る事 / 走ること, 子供の頃 / 子どものころ, 一緒に /
# いっしょに), and relative times said in two words of one meaning (昨年 / 去年, 来春 / 来年の春,
# 本日 / 今日).
_JA_WORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"子供", "子ども"),
        (r"友達", "友だち"),
        (r"(?<=[ぁ-ゖ])物(?![\u4e00-\u9fff])", "もの"),
        (r"(?<=[るたな])事(?=[がはをもにで])", "こと"),
        (r"(?<=[のた])頃", "ころ"),
        (r"一緒", "いっしょ"),
        (r"沢山", "たくさん"),
        (r"全て", "すべて"),
        (r"出来(?=[るたなま])", "でき"),
        (r"曜日", "曜"),
        (r"昨年", "去年"),
        (r"本年", "今年"),
        (r"本日", "今日"),
        (r"来([春夏秋冬])", r"来年の\1"),
        (r"昨([春夏秋冬])", r"去年の\1"),
        (r"今([春夏秋冬])(?![休])", r"今年の\1"),
        # (thirty-first round) closed-class words the style guides write in kana: a verb
        # after て as an auxiliary (運んで行く / 運んでいく, 買って来た / 買ってきた, 食べて見る /
        # 食べてみる, 書いて置く / 書いておく) and a formal noun after の or た (食事の後 / 食事の
        # あと; not 方, which after の is as often a person, 高齢者の方, as a side, 前のほう)
        (r"(?<=[てで])行(?=[かきくけこっ])", "い"),
        (r"(?<=[てで])来(?=[たてま])", "き"),
        (r"(?<=[てで])来(?=る)", "く"),
        (r"(?<=[てで])来(?=な)", "こ"),
        (r"(?<=[てで])見(?=[るたてよれな])", "み"),
        (r"(?<=[てで])置(?=[かきくけこい])", "お"),
        (r"(?<=[のた])後(?=[、にでもは])", "あと"),
    )
)
# An activity going on, said with 中 or with している at the end of a clause (勉強中 / 勉強
# している, 入院中だ / 入院している).
_JA_ONGOING = re.compile(
    r"(?<![\u4e00-\u9fff])([\u4e00-\u9fff]{2})中(?=(?:だ|です)?" + _JA_END + ")"
)


def ja_notation(text: str) -> str:
    """One Japanese text, its numbers already in one notation, in dedup's notation (see the
    module docstring)."""
    text = _JA_UNIT.sub(lambda m: _JA_UNITS[m.group(1)], ja_forms(text))
    text = _JA_FILLERS.sub("", text)
    text = ja_frames(_JA_USER.sub("私", text))
    for pattern, replacement in _JA_WORDS:
        text = pattern.sub(replacement, text)
    text = _JA_ONGOING.sub(r"\1している", ja_inflections(text))
    for pattern, replacement in _JA_ENDINGS:
        text = pattern.sub(replacement, text)
    text = _JA_HEARSAY.sub("と言っていた", text)
    return ja_synonyms(text)
