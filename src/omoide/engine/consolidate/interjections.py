"""What opens or closes a sentence without saying anything: interjections, reactions and the
listener's name (pure, offline).

"Hey Sam!", "Wow, Lena,", "ううん、", "ハルさん、", a closing ", Sam!" and an inner ", Sam," are
dropped before a sentence is scored (:mod:`omoide.engine.consolidate.rules`); what is left is
kept as written. No I/O.
"""

from __future__ import annotations

import re

__all__ = ["is_vocative", "strip_interjections"]

_INTERJECTION = (
    r"hey|hi|hello|hiya|yo|wow|whoa|woah|oh|ooh|ah|aw+|yeah|yep|yup|nope|nah|so|um|uh|hm+|"
    r"haha+|lol|omg|gosh|ok|okay|thanks|thank you|by the way|btw|anyway|anyways|oh my|ugh|"
    r"phew|alright|ha|ha ha|ah ha|hehe|mm+|yum|"
    r"long time no (?:see|talk|chat)|(?:good|great|nice|so good) to (?:see|hear from|chat with|"
    r"talk to) you|how are you|how's it going|what's up"
)
# These open a sentence as a reaction ("Great, ...", "No, ...") only when punctuation follows.
_REACTION = (
    r"great|cool|awesome|nice|sweet|wonderful|amazing|congrats|congratulations|true|right|"
    r"yes|no|sure|well|also|plus|actually|honestly|totally|definitely|absolutely|"
    r"not really|not at all|not exactly|of course|"
    # farewells that close a chat ("Good night, talk tomorrow!"), never "see you at the clinic"
    r"good ?night|good ?bye|bye(?: bye| for now)?|night night|take care|cheers|"
    r"(?:see|talk to|catch) you(?: later| soon| tomorrow| then)?|"
    r"talk (?:again )?(?:later|soon|tomorrow)|until (?:later|tomorrow|next time)"
)
# Japanese replies open with yes/no and fillers the same way ("ううん、", "実は").
_JA_LEAD = re.compile(
    r"^(?:ううん|うーん|うん|いいえ|いや|はい|ええ|えっと|えーと|あの(?:ね|さ)?|まあ|そうそう|"
    r"実は|じつは|ところで|そういえば)[、,！!…〜ー\s]*"
)
_LEAD = re.compile(
    rf"^(?:(?:{_INTERJECTION})\b[\s,!.…~-]*|(?:{_REACTION})\b[\s]*[,!.…]+\s*)+", re.IGNORECASE
)
# "トモエ、聞いて。", "ユリさん！": Japanese calls the listener by name before the sentence.
# A drawn-out call counts too: 「ミナ〜暑い」.
_JA_VOCATIVE = re.compile(
    r"^(?P<name>[^\s、。！？!?,〜～]{1,12}?)(?:さん|ちゃん|くん|君)?(?:[、,！!]|[〜～]+[、,！!]?)\s*"
)
_TRAILING_VOCATIVE = re.compile(r",\s*(?P<name>[A-Z][\w'’-]*)\s*(?P<end>[!.~]*)$")
# ", Sam," inside a sentence: a vocative unless it is an item of a list ("Anna, Sam, and I",
# "Anna, Sam and Mia"): no name before it, no "and"/"or" after it.
_INNER_VOCATIVE = re.compile(
    r"(?<![A-Z][\w'’-])(?<![A-Z][\w'’-]{2})(?<![A-Z][\w'’-]{3})(?<![A-Z][\w'’-]{4}),\s*"
    r"(?P<name>[A-Z][\w'’-]*)\s*,(?!\s*(?:and|or|&)\b)(?=\s*\S)"
)


def strip_interjections(sentence: str, participants: frozenset[str]) -> str:
    """Drop leading "Hey Sam!", "Wow, Lena,", "ううん、", "ハルさん、", a closing ", Sam!" and an
    inner ", Sam," ("You never rest, Sam, but …"); keep the rest as written."""
    text = sentence.strip()
    while True:
        before = text
        text = _JA_LEAD.sub("", _LEAD.sub("", text)).lstrip()
        first, _, rest = text.partition(" ")
        if first[-1:] in {",", "!", "."} and is_vocative(first.rstrip(",!.~"), participants):
            text = rest.lstrip()
        called = _JA_VOCATIVE.match(text)
        if called and called.group("name") in participants:
            text = text[called.end() :]
        if text == before:
            break
    trailing = _TRAILING_VOCATIVE.search(text)
    if trailing and is_vocative(trailing.group("name"), participants):
        text = text[: trailing.start()] + trailing.group("end")
    return _INNER_VOCATIVE.sub(
        lambda m: "," if is_vocative(m.group("name"), participants) else m.group(0), text
    )


def is_vocative(word: str, participants: frozenset[str]) -> bool:
    """A participant's name or a short form of it ("Sam" for Samantha)."""
    return word in participants or (
        len(word) >= 3 and any(name.startswith(word) for name in participants)
    )
