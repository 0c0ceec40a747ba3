"""Explicit self-identification in a turn: name, nickname, how to be addressed (pure, offline).

Only explicit statements count ("my name is Rau", "call me Rau", "I go by Rau",
"私の名前はらうらうです", "佐藤健二と申します", "らうらうって呼んで",
"私は「らうちゃん」と呼ばれたい").
"I'm X" is too often something else ("I'm fine", "I'm Japanese") to trust alone: it counts as a
name when X is a full name (two or three capitalised words: "I'm Kenji Sato") or when the
sentence introduces the speaker ("Hi, I'm Ken", "I'm Ken, nice to meet you"). A "call me"
value that shortens the full name given in the same turn is also the nickname ("I'm Kenji
Sato, call me Ken": name Kenji Sato, nickname and address Ken). English values must be
capitalised, which keeps idioms out ("call me crazy", "call me later"). Negated requests
("don't call me X", "Xって呼ばないで") never match. A Japanese sentence whose subject is someone
else ("妹は「みっちゃん」と呼ばれたい") is not the speaker's profile. A Japanese sentence
that is only a name holding the speaker's own ("中村翔太です。" from 翔太) is their name.
No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.lang import word_set

__all__ = [
    "ADDRESS",
    "NAME",
    "NICKNAME",
    "beyond_profile",
    "describe_profile",
    "find_profile_statements",
]

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
    (NICKNAME, re.compile(rf"\b(?i:I (?:usually |mostly |also )?go by) {_EN_VALUE}")),
    (
        ADDRESS,
        re.compile(
            r"(?<!n't )(?<!not )(?<!never )(?<!friends )(?<!people )(?<!everyone )"
            rf"(?<!everybody )(?<!they )\b(?i:(?:just |please |you can |you may |could you )?"
            rf"call me) {_EN_VALUE}"
        ),
    ),
)
# "I'm Kenji Sato" (a full name) anywhere; "I'm Ken" only as an introduction.
_EN_FULL_NAME = re.compile(
    r"\b(?:I'm|I’m|I am) (?P<plain>[A-Z][a-z][\w\-]*(?: [A-Z][a-z][\w\-]*){1,2})(?![\w'’])"
)
_EN_INTRO = re.compile(
    r"(?:^|[.!?]\s+)(?i:(?:hi|hello|hey|hiya)(?: there| everyone| all)?)[,!.]*\s+"
    r"(?:I'm|I’m|I am) (?P<plain>[A-Z][a-z][\w\-]*)\b"
    r"|\b(?:I'm|I’m|I am) (?P<plain2>[A-Z][a-z][\w\-]*)[,.!]?\s+(?i:nice|pleased|good) to meet you"
)
# Capitalised words that follow "I'm" without being a name.
_NOT_NAMES = word_set(
    """
    So Not Just Very Really Here Back Home Going Still Sorry Fine Good Okay Glad Happy Sure
    Afraid Excited Done Ready Busy Tired From In At On The This That Also Always Never Actually
    Currently Now Kind Pretty Quite Totally
    """
)
_JA_STOP = r"(?:です|だよ|だ|といいます|と言います|って言います|っていいます|[。、！？!?\s]|$)"
_JA_NAME = re.compile(
    rf"(?:私|僕|俺|わたし|あたし|自分)の名前は\s*「?(?P<value>[^\s、。！？!?」]{{1,20}}?)」?{_JA_STOP}"
)
_JA_INTRODUCTION = re.compile(
    r"(?:^|[。！？!?\s])(?:(?:私|僕|俺|わたし|あたし)は\s*)?(?P<value>[^\s、。！？!?「」]{2,12}?)"
    r"(?:と申します|といいます|と言います|っていいます|って言います)"
)
# "中村翔太です。" said by 翔太: a sentence that is only a name holding the speaker's own name
# (which the turn was posted under) introduces them; "学生です" names nothing.
_JA_OWN_NAME = re.compile(
    r"(?:^|[。！？!?\s])(?:(?:私|僕|俺|わたし|あたし)は\s*)?(?P<value>[^\s、。！？!?「」]{1,12}?)"
    r"(?:です|だよ|と申します|といいます)(?=[。！？!?\s]|$)"
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
# "花子は「はなちゃん」と呼ばれたい" (how the speaker wants to be called, with the speaker's own
# name or 私 as the subject, or none) and "みんなに「はなちゃん」って呼ばれてる" (a nickname).
_JA_PASSIVE = re.compile(
    r"(?:(?P<subject>[^\s、。！？!?「」]{1,12}?)(?:は|も)\s*)?(?:[^\s、。！？!?「」]{1,10}?(?:に|から)\s*)?"
    r"(?:「(?P<quoted>[^」]{1,20})」|(?P<plain>[^\s、。！？!?「」]{1,12}?))\s*(?:って|と)"
    r"呼ばれ(?P<form>たい|て(?:い)?(?:る|ます)|ています)"
)
_JA_SELF = frozenset({"私", "僕", "俺", "わたし", "あたし", "自分", "うち"})


def find_profile_statements(text: str, *, speaker: str | None = None) -> list[tuple[str, str]]:
    """``(key, value)`` pairs in order of appearance; keys are NAME, NICKNAME, ADDRESS.
    ``speaker`` is the name the turn was posted under (a Japanese speaker may use it as the
    subject instead of 私)."""
    found: list[tuple[int, int, str, str]] = []  # (start, end, key, value)
    for key, pattern in _EN_RULES:
        for match in pattern.finditer(text):
            value = (match.group("quoted") or match.group("plain") or "").strip()
            _add(found, match, key, _trim_english(value))
    for pattern in (_EN_FULL_NAME, _EN_INTRO):
        for match in pattern.finditer(text):
            value = _trim_english(match.group("plain") or match.groupdict().get("plain2") or "")
            if value and value.split()[0] not in _NOT_NAMES:
                _add(found, match, NAME, value)
    for key, pattern in ((NAME, _JA_NAME), (NICKNAME, _JA_NICKNAME), (NAME, _JA_INTRODUCTION)):
        for match in pattern.finditer(text):
            _add(found, match, key, match.group("value"))
    if speaker:
        for match in _JA_OWN_NAME.finditer(text):
            if speaker in match.group("value"):
                _add(found, match, NAME, match.group("value"))
    for match in _JA_ADDRESS.finditer(text):
        value = match.group("quoted") or _JA_ADDRESS_PREFIX.sub("", match.group("plain") or "")
        _add(found, match, ADDRESS, value)
    for match in _JA_PASSIVE.finditer(text):
        subject = match.group("subject")
        if subject is None or subject in _JA_SELF or subject == speaker:
            key = ADDRESS if match.group("form") == "たい" else NICKNAME
            _add(found, match, key, match.group("quoted") or match.group("plain") or "")
    statements = [(key, value) for _, _, key, value in sorted(found)]
    return _with_nicknames(statements)


def _add(
    found: list[tuple[int, int, str, str]], match: re.Match[str], key: str, value: str
) -> None:
    # "friends call me Sam" also matches the bare "call me Sam" rule inside it: first wins.
    start, end = match.span()
    if value and not any(start < e and s < end for s, e, _, _ in found):
        found.append((start, end, key, value))


def _with_nicknames(statements: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A "call me" value that shortens the full name said in the same turn ("Ken" for
    "Kenji Sato") is the nickname too."""
    names = [value for key, value in statements if key == NAME]
    have = {value for key, value in statements if key == NICKNAME}
    out: list[tuple[str, str]] = []
    for key, value in statements:
        out.append((key, value))
        if (
            key == ADDRESS
            and value not in have
            and any(
                value != name and any(part.startswith(value) for part in name.split())
                for name in names
            )
        ):
            out.append((NICKNAME, value))
            have.add(value)
    return out


_EN_TRAILERS = frozenset({"And", "But", "Please", "Now", "From", "Though", "Too", "Instead"})


def _trim_english(value: str) -> str:
    kept: list[str] = []
    for word in value.split():
        if word in _EN_TRAILERS:
            break
        kept.append(word)
    return " ".join(kept)


_FULL_NAME = ("{speaker}'s full name is {value}.", "{speaker}のフルネームは{value}。")
_DESCRIPTIONS = {
    NAME: ("{speaker}'s name is {value}.", "{speaker}の名前は{value}。"),
    NICKNAME: ("{speaker}'s nickname is {value}.", "{speaker}のあだ名は{value}。"),
    ADDRESS: ("{speaker} wants to be called {value}.", "{speaker}は「{value}」と呼ばれたい。"),
}


def describe_profile(key: str, value: str, speaker: str, *, japanese: bool) -> str:
    """One plain sentence for a profile statement, for the note that records it. A name
    longer than the one the speaker goes by is their full name ("Ken's full name is Kenji
    Sato.")."""
    english, japanese_form = _DESCRIPTIONS[key]
    if key == NAME and value != speaker and (speaker in value or " " in value):
        english, japanese_form = _FULL_NAME
    return (japanese_form if japanese else english).format(speaker=speaker, value=value)


# Where an English sentence's clauses meet: a comma, or "and" / "but" / "so" before a new
# subject ("My name is Ada and I teach maths" → "My name is Ada" | "I teach maths").
_EN_CLAUSE_BREAK = re.compile(
    r",\s+|;\s+|\s+(?=(?:and|but|so)\s+(?:I|I'm|I’m|my|we|we're)\b)", re.IGNORECASE
)
_EN_LEADING_LINK = re.compile(r"^(?:and|but|so|also)\s+", re.IGNORECASE)
_EN_END = re.compile(r"[.!?…]+[\"'”’)]*$")


def beyond_profile(sentence: str, *, speaker: str | None = None) -> str | None:
    """What an English sentence says besides who the speaker is: the clauses that state no
    name, nickname or address ("I'm Ada Byrne, I teach maths in Cork." → "I teach maths in
    Cork."), ending as the sentence ended; None when nothing is left. A Japanese sentence is
    left whole (its clauses lean on each other: "…って呼ばれてるので、…")."""
    if not sentence.isascii() and not any(ch.isalpha() and ch.isascii() for ch in sentence):
        return None
    clauses = [c.strip() for c in _EN_CLAUSE_BREAK.split(sentence) if c and c.strip()]
    if len(clauses) < 2:
        return None
    kept = [
        _EN_LEADING_LINK.sub("", c)
        for c in clauses
        if not find_profile_statements(c, speaker=speaker)
    ]
    kept = [c for c in kept if c and not _EN_END.fullmatch(c)]
    if not kept or len(kept) == len(clauses):
        return None
    text = ", ".join(kept)
    ending = _EN_END.search(sentence)
    if not _EN_END.search(text):
        text += ending.group(0) if ending else "."
    return text
