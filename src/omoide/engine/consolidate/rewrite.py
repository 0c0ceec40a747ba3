"""Make a sentence stand alone: third person (pure, offline).

A note is read far from the conversation it came from, so "I went there" said by Nora becomes
"Nora went there" (its dates: :mod:`.relative_dates`). First-person pronouns become the
speaker's name, the verb agreeing with it (:mod:`.agreement`); "we" becomes "<name> and
others", and "our"/"us" next to it "their"/"them"; a "my"/"me"/"myself" that refers back to
its clause's own "I" becomes a pronoun (:mod:`.binding`: "Nora ran their first marathon",
「ノラは自分の車を売った」). "you" and "your" become the addressee's name when the caller
knows who that is (あなた → "<name>さん"; the unnamed user, 「ユーザー」, takes no honorific).
Generic "you" ("it makes you think") is rewritten too: a known imprecision, cheaper than
leaving every "you" unresolved. No I/O, no clock.
"""

from __future__ import annotations

import re

from omoide.engine.consolidate.agreement import name_the_addressee, name_the_speaker
from omoide.engine.consolidate.binding import bind_first_person
from omoide.engine.consolidate.voice import is_role_label

__all__ = ["plain_japanese_ending", "to_third_person"]


_WE_CLAUSE = re.compile(
    r"\b(?P<we>[Ww]e)(?P<contraction>['’](?:re|ve|(?:d|ll)(?:['’]ve)?))?(?![A-Za-z'’])"
)
# a pronoun, not part of a hyphened word ("me-time", "US-based" stay as written)
_ME = re.compile(r"(?<![\w-])me(?![\w-])")
_US = re.compile(r"(?<![\w-])us(?![\w-])")
_OUR = re.compile(r"\b(?:[Oo]ur|[Oo]urs)\b")
_YOUR = re.compile(r"\b(?:[Yy]our|[Yy]ours)\b")
_REFLEXIVE = {"ourselves": "themselves", "yourself": "themself"}
_REFLEXIVE_WORD = re.compile(r"\b(?:[Oo]urselves|[Yy]ourself)\b")
# after binding: the speaker by name
_MY = re.compile(r"(?<![\w-])(?:[Mm]y|[Mm]ine|[Mm]yself)(?![\w-])")

_WE_CONTRACTIONS = {
    "'re": "are",
    "'ve": "have",
    "'d": "would",
    "'ll": "will",
    "'d've": "would have",
    "'ll've": "will have",
}


def to_third_person(
    sentence: str, speaker: str, *, addressee: str | None = None, japanese: bool
) -> str:
    """First person → the speaker's name ("I love" → "Nora loves"); second person → the
    addressee's name when the episode tells who that is."""
    # "I ran my …" → "I ran their …", "you ran your …" → "you ran their …"
    sentence = bind_first_person(sentence, japanese=japanese, addressee=bool(addressee))
    if japanese:
        return _japanese_third_person(sentence, speaker, addressee)
    # After "we" became "Nora and others", "our"/"us" refer back to that group
    # ("… put their hearts into it"); alone, "our kids" are the speaker's kids.
    plural = _WE_CLAUSE.search(sentence) is not None
    text = name_the_speaker(sentence, speaker)
    text = _WE_CLAUSE.sub(lambda m: _rewrite_we(m, speaker), text)
    text = _REFLEXIVE_WORD.sub(lambda m: _REFLEXIVE[m.group(0).lower()], text)
    text = _MY.sub(lambda m: speaker if m.group(0).lower() == "myself" else f"{speaker}'s", text)
    text = _OUR.sub("their" if plural else f"{speaker}'s", text)
    text = _ME.sub(speaker, text)
    text = _US.sub("them" if plural else speaker, text)
    if addressee:
        text = _YOUR.sub(f"{addressee}'s", text)
        text = name_the_addressee(text, addressee)
    return text


def _rewrite_we(match: re.Match[str], speaker: str) -> str:
    contraction = (match.group("contraction") or "").replace("’", "'").lower()
    subject = f"{speaker} and others"
    return f"{subject} {_WE_CONTRACTIONS[contraction]}" if contraction else subject


# 私立 (private), 私服 (plain clothes) … are not the pronoun.
_JA_WE = re.compile(r"(?:私|僕|俺|わたし|あたし)(?:たち|達|ら)")
_JA_I = re.compile(r"私(?![立服物用鉄的生])|僕|俺|わたし|あたし")
_JA_YOU = re.compile(r"あなた|あんた")


# Casual speech ends a statement with a particle that speaks to the listener (〜したよ, 〜だね,
# 〜いいよね, 〜するぞ) or with an explanatory んだ/なんだ (始めたんだ, 好きなんだ). A note is the
# store's statement, read far from that listener: the plain form stays (〜した, 〜だ, 〜好き).
# Only after a predicate's last kana (a past た/だ, a dictionary-form or adjective ending, です
# and ます's す), so a noun ending in the same kana keeps it; んだ only after a dictionary or past
# form, since a kanji before it is a past tense (読んだ, 住んだ), not an explanation.
_JA_PREDICATE_END = "たるいうくすつぬぶむぐだ"
_JA_LISTENER_PARTICLE = re.compile(
    rf"(?<=[{_JA_PREDICATE_END}])(?:よね|よな|よ|ね|なあ|なー|な|わ|ぞ|ぜ)"
    r"(?P<end>[。！!…〜～ー]*)$"
)
_JA_EXPLANATORY = re.compile(r"(?:(?<=[たるいうくすつぬぶむぐ])ん|なん)だ(?P<end>[。！!…〜～ー]*)$")


def plain_japanese_ending(sentence: str) -> str:
    """A casual Japanese statement's listener particles and explanatory んだ dropped:
    「猫の名前はミケにしたよ」 → 「猫の名前はミケにした」, 「ギターを始めたんだよね」 →
    「ギターを始めた」."""
    text = sentence.rstrip()
    for pattern in (_JA_LISTENER_PARTICLE, _JA_EXPLANATORY, _JA_LISTENER_PARTICLE):
        text = pattern.sub(lambda m: m.group("end"), text)
    return text


def _japanese_third_person(sentence: str, speaker: str, addressee: str | None) -> str:
    text = plain_japanese_ending(_JA_I.sub(speaker, _JA_WE.sub(f"{speaker}たち", sentence)))
    if not addressee:
        return text
    # さん follows a name; 「ユーザー」 names a role, and 「ユーザーさん」 reads as a nickname.
    return _JA_YOU.sub(addressee if is_role_label(addressee) else f"{addressee}さん", text)
