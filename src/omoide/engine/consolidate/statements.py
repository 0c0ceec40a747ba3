"""A sentence's shape (pure, offline): whether it asks something, says anything besides
greetings, reactions and moods, stands as a statement of its own, or speaks of the speaker.
What it says is scored in ``rules``; the words are ``cues``.
"""

from __future__ import annotations

import re

from omoide.engine.consolidate.cues import (
    EN_FIRST_PERSON,
    EVALUATIVE,
    JA_CONTENT,
    JA_FILLER,
    JA_FIRST_PERSON,
    QUESTION_END,
)
from omoide.engine.consolidate.interjections import strip_interjections
from omoide.engine.lang import is_japanese, note_content_words, word_set

__all__ = ["carries_content", "is_question", "mentions_speaker", "names_itself"]


def is_question(sentence: str) -> bool:
    """The sentence asks something ("…?", "…？", "…ですか")."""
    return bool(QUESTION_END.search(sentence.strip()))


# How the speaker feels right now ("tired.", 眠い) and hedges around it ("fine though lol"):
# a passing state, not something to keep.
_MOOD = word_set(
    """
    tired busy exhausted sleepy bored nervous stressed anxious worried sad upset sick ill
    hungry full excited relieved terrified scared okay ok-ish ish alright fine meh though
    lol lmao haha god
    """
)
_JA_MOOD = re.compile(r"眠|疲れ|暇|忙し|緊張|不安|元気|大丈夫|まあまあ|微妙")


def carries_content(sentence: str, participants: frozenset[str]) -> bool:
    """Whether a sentence says something besides greetings, reactions and how the speaker
    feels: "September.", "Four days.", 「経理。」 do; "haha", "tired.", 「うん。」, 「眠い」 do
    not. A short piece like these scores 0 alone, yet answers the question it follows."""
    text = strip_interjections(sentence, participants)
    if not text or QUESTION_END.search(text):
        return False
    if is_japanese(text):
        residue = _JA_MOOD.sub("", JA_FILLER.sub("", text))
        return len(JA_CONTENT.findall(residue)) >= 2
    return any(w not in EVALUATIVE and w not in _MOOD for w in note_content_words(text))


# A sentence that opens with its own subject: a pronoun, a demonstrative or a possessive.
_OPENING_SUBJECT = re.compile(
    r"^(?:I|I['’]\w+|me|my|we|we['’]\w+|our|you|your|he|she|they|it|it['’]s|its|his|her|their|"
    r"this|that|that['’]s|these|those|there|there['’]s|here)\b",
    re.IGNORECASE,
)


# A Japanese sentence that ends in a predicate (a verb, an adjective, です/ます, a past
# tense), with the sentence-final particles and marks casual speech adds after it.
_JA_PREDICATE_END = re.compile(
    r"(?:[たるいうくすつぬぶむぐてだ]|ない|ます|です)"
    r"(?:んだ|のだ|の|よね|よ|ね|な|なあ|わ|さ|けど|けどね|から|し)?[。．！!？?…〜～ー笑wｗ\s]*$"
)


# … but not the particles of amount and extent that end a noun phrase (「週に三回くらい」).
_JA_PIECE_END = re.compile(
    r"(?:くらい|ぐらい|ほう|だけ|まで|ばかり|ばっか|など|とか)"
    r"[。．！!？?…〜～ー笑wｗ\s]*$"
)


def names_itself(sentence: str) -> bool:
    """Whether a sentence stands as a statement of its own: in English, it opens with a
    subject ("She moved …", "That's why …"; "every Monday, 45 minutes" and "mostly walking
    dogs" do not). Japanese leaves the subject out as a rule, so there it is a predicate at
    the end (「柴犬を飼っています。」, 「ピアノ教室やめちゃった」); a noun or a particle there is a
    piece whose topic the question set (「仙台。」, 「大手の」, 「来週から」)."""
    if is_japanese(sentence):
        text = sentence.strip()
        return bool(_JA_PREDICATE_END.search(text)) and not _JA_PIECE_END.search(text)
    return bool(_OPENING_SUBJECT.match(sentence.strip()))


def mentions_speaker(sentences: list[str]) -> bool:
    """Whether the sentences speak of the speaker ("I", "my", "we"): a note of them names
    the speaker once "I" becomes their name."""
    return any(EN_FIRST_PERSON.search(s) or JA_FIRST_PERSON.search(s) for s in sentences)
