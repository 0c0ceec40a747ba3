"""A user's turn that only accepts what the persona proposed (pure, offline).

The persona often closes a turn with a proposal: "Maybe a glass of water before coffee?",
"How about a short walk after lunch?", "Ping me on Friday?", 「散歩してみたら？」. A reply
that only accepts it ("sure, I'll try that", "could work, thanks. night!", 「そうしてみる」)
says nothing about the user: the proposal is the persona's words, and agreeing to them is
not a fact to keep. Such a turn makes no note, neither of its own nor read with the question
(:mod:`omoide.engine.consolidate.answers`). A reply that accepts and then says something
("sure — I already drink two glasses a day") is not only an acceptance and is read as usual.
"""

from __future__ import annotations

import re

from omoide.engine.consolidate.interjections import strip_interjections
from omoide.engine.consolidate.statements import carries_content, is_question
from omoide.engine.consolidate.text import split_sentences
from omoide.engine.consolidate.types import EventText
from omoide.engine.lang import is_japanese

__all__ = ["only_accepts", "proposes"]

# A question that proposes something rather than asks about the user: "maybe …?", "how
# about …?", "why not …?", "you could …?", or one about the chat itself ("… with me?",
# "want me to …?", "shall we …?").
_PROPOSAL = re.compile(
    r"^(?:(?:so|and|or|well|then|hm+|ooh|oh|ok(?:ay)?)[,\s]+)*"
    r"(?:maybe|perhaps|how about|why not|what if you|you (?:could|should|might)|"
    r"could you try|want me to|shall we|should we|let['’]s)\b"
    r"|\b(?:with me|want me to|remind you|let me know)\b",
    re.IGNORECASE,
)
_JA_PROPOSAL = re.compile(
    r"(?:たら|てみたら|みては|のはどう|はどう|しない|しません|ませんか|ましょうか|しよう|"
    r"てみる)(?:かな|です|でしょう)?か?[?？]+$"
)
# What accepting says, and the good night that may follow it.
_ACCEPT = re.compile(
    r"(?:\b(?:(?:i['’]ll|i will|i might|maybe i['’]ll|i['’]m gonna|gonna|might|will)\s+)?"
    r"(?:try|do|give)\s+(?:that|it|this|one)(?:\s+a\s+(?:try|go|shot))?"
    r"|\b(?:i['’]ll|i will)\s+(?:do\s+)?(?:that|it)\b"
    r"|\bsounds\s+(?:good|great|fun|fair|doable|like a plan)"
    r"|\b(?:(?:that['’]s|that is|what|such)\s+)?(?:a\s+)?(?:good|great|nice|smart|fair|solid)"
    r"\s+(?:idea|point|call|plan)"
    r"|\bthat['’]?s\s+(?:smart|fair|true|clever|a deal)"
    r"|\b(?:you['’]re|you are)\s+right|\bfair enough|\bcould work|\bworth a (?:try|shot)"
    r"|\bwill do|\blet['’]s do (?:it|that)|\bi promise|\bi guess|\bfor sure|\bdeal|\bagreed"
    r"|\b(?:sure|ok(?:ay)?|yes|yeah|yep|yup|definitely|maybe|true|done|promise)"
    r"|\b(?:i['’]m\s+|i am\s+)?(?:going|off|heading)\s+to\s+(?:bed|sleep)"
    r"|\b(?:gotta|got to|have to|need to)\s+(?:go|sleep|run)|\bgood ?night|\bnight"
    r"|\b(?:talk|ttyl|see you|bye|thanks|thank you)\b(?:\s+(?:later|soon|tomorrow))?"
    r"|\b(?:tonight|tomorrow|later|soon|today|then|actually|really|honestly|too|lol|haha))\b",
    re.IGNORECASE,
)
_JA_ACCEPT = re.compile(
    r"そう(?:して)?(?:みる|みます|する|します|しよう|だね|ですね|かも)|(?:やって|試して)(?:みる|みます)|"
    r"いい(?:ね|かも|ですね|アイデア)|それいい|なるほど|了解|わかっ(?:た|りました)|"
    r"確かに|たしかに|ありがと(?:う)?(?:ございます)?|おやすみ(?:なさい)?|(?:もう)?寝る|"
    r"じゃあね|またね|今日|今夜|明日|うん|はい|ええ|笑"
)
_LEFT_OVER = re.compile(r"[\s,.!?~…、。！？〜ー-]+")
_JA_WORD = re.compile(r"[\u3400-\u9fff\u30a1-\u30fa]")  # a kanji or katakana left over


def proposes(question: EventText) -> bool:
    """Whether the persona's turn ends by proposing something (see the module docstring)."""
    if question.role != "assistant":
        return False
    asked = split_sentences(question.text)
    if not asked or not is_question(asked[-1]):
        return False
    last = asked[-1].strip()
    return bool(_PROPOSAL.search(last) or _JA_PROPOSAL.search(last))


def only_accepts(question: EventText, answer: EventText, participants: frozenset[str]) -> bool:
    """The user's turn only accepts the proposal the persona's turn before it made."""
    if answer.role != "user" or not proposes(question):
        return False
    for sentence in split_sentences(answer.text):
        rest = strip_interjections(sentence, participants)
        rest = _JA_ACCEPT.sub(" ", _ACCEPT.sub(" ", rest))
        rest = _LEFT_OVER.sub(" ", rest).strip()
        if (is_japanese(rest) and _JA_WORD.search(rest)) or carries_content(rest, participants):
            return False  # something of its own: 「調べてみる」 plans more than it accepts
    return True
