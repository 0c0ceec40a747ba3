"""Dedup's notation of one Japanese text: a person named beside the user's relation (pure).

A part of ``dedup_ja_notation.ja_notation`` (twenty-sixth round), after the user is written as
私. Trigger: a near-copy that names one of the user's people in another frame: "私の妹の
リサさんは…" / "リサさんは私の妹で、…" / "リサさん(私の妹)は…" (the Japanese counterpart of
``dedup_en_frames``' apposition, "Sam, my son, is" / "my son Sam is"). Why: read character by
character, the moved name and relation were a changed part, which the judge weighed as a new
fact. Outcome: the two frames written as the first ("私の妹のリサさんは", without a comma
after it), the rest of the text as it was. The relation is a person word of the lexicon (妹,
上司, 犬 …) and the name a short run of kanji or katakana with an optional honorific; the
frame opens the text. Another relation or another name on the other side stays a changed
word. Since session 48, one of the user's own people said without 私の opens the text, or is
said with うちの ("妹のリサは" / "うちの妹は" / "私の妹のリサは"): the added 私の was the whole
aligned difference, which the judge weighed as a new fact (63 Japanese paraphrases of the
training sources missed so); but a kin or social word said bare is the speaker's own in
Japanese, so both are written "私の妹"; any other owner (夫の妹, リサの妹) stays as it is. The
words are the user's family, the people of their life and pets (not 彼女 or 先生, which name
another person as often as the user's). Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex

__all__ = ["ja_frames"]

_RELATION = "(" + "|".join(lex.JA_PERSONS) + ")"
# A name: one to four kanji or katakana (リサ, 健一), with an optional honorific.
_NAMED = r"((?:[\u4e00-\u9fff]{1,4}|[\u30a1-\u30fa\u30fc]{2,6})(?:さん|くん|ちゃん|君|様)?)"
# "リサさんは私の妹で、…" and "リサさん(私の妹)は…", opening the text.
_CLAUSE = re.compile(rf"^{_NAMED}は私の{_RELATION}で、")
_BRACKETED = re.compile(rf"^{_NAMED}\(私の{_RELATION}\)は、?")
# The first frame itself, with a comma after it or not.
_FIRST = re.compile(rf"^私の{_RELATION}の{_NAMED}は、")
# The user's own people, said bare opening the text or with うちの anywhere (the longest first,
# so 義母 is not read as 母; 母の日 is a day, not a person).
_OWN = lex.longest_first(
    "父 母 父親 母親 お父さん お母さん 両親 兄 姉 弟 妹 兄弟 姉妹 お兄さん お姉さん 息子 娘 "
    "長男 長女 次男 次女 妻 夫 旦那 嫁 祖父 祖母 おじいちゃん おばあちゃん 叔父 叔母 伯父 伯母 "
    "いとこ 甥 姪 孫 義父 義母 義兄 義姉 義弟 義妹 友人 友達 親友 同僚 上司 部下 先輩 後輩 "
    "彼氏 恋人 婚約者 ルームメイト " + " ".join(sorted(lex.JA_PETS))
)
_BARE = re.compile(rf"^(?:うちの)?({'|'.join(_OWN)})(?=[はがもと、]|の(?!日))")
_HOME = re.compile(rf"(?<![\u4e00-\u9fff\u30a1-\u30fa])うちの({'|'.join(_OWN)})")


def ja_frames(text: str) -> str:
    """``text`` (私 already the user) with a person named beside the user's relation written
    as "私の妹のリサさんは" (see the module docstring)."""
    text = _HOME.sub(r"私の\1", _BARE.sub(r"私の\1", text))
    for pattern in (_CLAUSE, _BRACKETED):
        match = pattern.match(text)
        if match is not None and match.group(1) != "私":
            return f"私の{match.group(2)}の{match.group(1)}は{text[match.end() :]}"
    return _FIRST.sub(r"私の\1の\2は", text)
