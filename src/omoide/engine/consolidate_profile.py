"""Explicit self-identification in a turn: name, nickname, how to be addressed (pure, offline).

Only explicit statements count ("my name is Rau", "call me Rau", "私の名前はらうらうです",
"らうらうって呼んで"); "I'm Rau" is too often something else ("I'm fine") to trust offline.
English values must be capitalised, which keeps idioms out ("call me crazy", "call me later").
Negated requests ("don't call me X", "Xって呼ばないで") never match. No I/O.
"""

from __future__ import annotations

import re

__all__ = ["ADDRESS", "NAME", "NICKNAME", "describe_profile", "find_profile_statements"]

NAME = "name"
NICKNAME = "nickname"
ADDRESS = "preferred_address"

# One to three capitalised words, or a quoted value.
_EN_VALUE = (
    r"(?:[\"'“‘](?P<quoted>[^\"'”’]{1,40})[\"'”’]"
    r"|(?P<plain>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,2}))"
)
# The cue is case-insensitive, the value is not: "(?i:...)" scopes the flag to the cue.
_EN_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (NAME, re.compile(rf"\b(?i:my (?:full |real )?name is) {_EN_VALUE}")),
    (NICKNAME, re.compile(rf"\b(?i:my nickname is) {_EN_VALUE}")),
    (
        NICKNAME,
        re.compile(
            rf"\b(?i:(?:friends|people|everyone|everybody|they) (?:all |usually |often )?"
            rf"calls? me) {_EN_VALUE}"
        ),
    ),
    (
        ADDRESS,
        re.compile(
            r"(?<!n't )(?<!not )(?<!never )(?<!friends )(?<!people )(?<!everyone )"
            rf"(?<!everybody )(?<!they )\b(?i:(?:just |please |you can |you may |could you )?"
            rf"call me) {_EN_VALUE}"
        ),
    ),
)
_JA_STOP = r"(?:です|だよ|だ|といいます|と言います|って言います|っていいます|[。、！？!?\s]|$)"
_JA_NAME = re.compile(
    rf"(?:私|僕|俺|わたし|あたし|自分)の名前は\s*「?(?P<value>[^\s、。！？!?」]{{1,20}}?)」?{_JA_STOP}"
)
_JA_NICKNAME = re.compile(
    rf"(?:あだ名|ニックネーム|愛称)は\s*「?(?P<value>[^\s、。！？!?」]{{1,20}}?)」?{_JA_STOP}"
)
_JA_ADDRESS = re.compile(
    r"(?:「(?P<quoted>[^」]{1,20})」|(?P<plain>[^\s、。！？!?「」]{1,20}?))\s*(?:って|と)"
    r"呼(?:んで(?!な)|んでね|んでください|んでほしい|んでもらえ|べ)"
)
# "私のことは" / "これからは" before the value is context, not part of the name.
_JA_ADDRESS_PREFIX = re.compile(r"^.+?(?:のことは|のことを|これからは|今日からは|からは|は|を)")
# Japanese sentences that merely report a name ("みんなにはXって呼ばれてる") use 呼ばれ, which
# _JA_ADDRESS does not match.


def find_profile_statements(text: str) -> list[tuple[str, str]]:
    """``(key, value)`` pairs in order of appearance; keys are NAME, NICKNAME, ADDRESS."""
    found: list[tuple[int, str, str]] = []
    for key, pattern in _EN_RULES:
        for match in pattern.finditer(text):
            value = (match.group("quoted") or match.group("plain") or "").strip()
            if value and not _overlaps(found, match.start()):
                found.append((match.start(), key, _trim_english(value)))
    for key, pattern in ((NAME, _JA_NAME), (NICKNAME, _JA_NICKNAME)):
        found.extend((m.start(), key, m.group("value")) for m in pattern.finditer(text))
    for match in _JA_ADDRESS.finditer(text):
        value = match.group("quoted") or _JA_ADDRESS_PREFIX.sub("", match.group("plain") or "")
        if value:
            found.append((match.start(), ADDRESS, value))
    return [(key, value) for _, key, value in sorted(found)]


def _overlaps(found: list[tuple[int, str, str]], start: int) -> bool:
    # "friends call me Mel" also matches the bare "call me Mel" rule a few characters later.
    return any(abs(start - other) < 20 for other, _, _ in found)


_EN_TRAILERS = frozenset({"And", "But", "Please", "Now", "From", "Though", "Too", "Instead"})


def _trim_english(value: str) -> str:
    kept: list[str] = []
    for word in value.split():
        if word in _EN_TRAILERS:
            break
        kept.append(word)
    return " ".join(kept)


_DESCRIPTIONS = {
    NAME: ("{speaker}'s name is {value}.", "{speaker}の名前は{value}。"),
    NICKNAME: ("{speaker}'s nickname is {value}.", "{speaker}のあだ名は{value}。"),
    ADDRESS: ("{speaker} wants to be called {value}.", "{speaker}は「{value}」と呼ばれたい。"),
}


def describe_profile(key: str, value: str, speaker: str, *, japanese: bool) -> str:
    """One plain sentence for a profile statement, for the note that records it."""
    english, japanese_form = _DESCRIPTIONS[key]
    return (japanese_form if japanese else english).format(speaker=speaker, value=value)
