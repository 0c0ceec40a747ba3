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
word. Deterministic.
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


def ja_frames(text: str) -> str:
    """``text`` (私 already the user) with a person named beside the user's relation written
    as "私の妹のリサさんは" (see the module docstring)."""
    for pattern in (_CLAUSE, _BRACKETED):
        match = pattern.match(text)
        if match is not None and match.group(1) != "私":
            return f"私の{match.group(2)}の{match.group(1)}は{text[match.end() :]}"
    return _FIRST.sub(r"私の\1の\2は", text)
