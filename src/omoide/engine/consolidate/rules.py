"""Which sentences of a turn are worth a note: each sentence's informativeness score, and a
turn's (pure, offline).

Each sentence is scored from surface cues (``cues``): a first-person statement, names and other
capitalised words, numbers and dates, life events, preferences, profile facts and hobbies.
Questions, greetings, thanks and praise for the other speaker ("Wow, that's great!") carry no
new fact and score 0. A sentence that ends laughing ("lol", 笑) scores less: it is mostly a
passing remark. The weights are hand-set, not learned; bench/consolidate.py measures them.
No I/O, no clock; the caller passes thresholds. A sentence's shape (a question, a piece with
content, a statement of its own) is ``statements``; its names are re-exported here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from omoide.engine.consolidate.cues import (
    EN_FIRST_PERSON,
    EN_HOBBY,
    EN_LIFE_EVENT,
    EN_NUMBER,
    EN_PREFERENCE,
    EN_PROFILE,
    EN_TIME,
    EVALUATIVE,
    JA_CONTENT,
    JA_FILLER,
    JA_FIRST_PERSON,
    JA_HOBBY,
    JA_KATAKANA_WORD,
    JA_LIFE_EVENT,
    JA_NAMED,
    JA_OTHER_SUBJECT,
    JA_PREFERENCE,
    JA_PROFILE,
    JA_TIME,
    QUESTION_END,
    Cue,
    kind_patterns,
)
from omoide.engine.consolidate.interjections import is_vocative, strip_interjections
from omoide.engine.consolidate.statements import (
    carries_content,
    is_question,
    mentions_speaker,
    names_itself,
)
from omoide.engine.lang import is_japanese, note_content_words, word_tokens

__all__ = [
    "Cue",
    "SentenceScore",
    "carries_content",
    "is_question",
    "is_vocative",
    "kind_patterns",
    "mentions_speaker",
    "names_itself",
    "score_sentence",
    "score_turn",
    "strip_interjections",
]


@dataclass(frozen=True)
class SentenceScore:
    text: str  # the sentence with leading interjections and vocatives removed
    score: float  # 0 means "no new fact here"
    cues: frozenset[str]


# "Let's keep going!", "Can't wait for Friday!": encouragement and plans for the chat itself.
_SUGGESTION = re.compile(r"(?:let's|let us|can't wait|keep (?:it|up)|stay )\b", re.IGNORECASE)
_FIRST_PERSON_MENTION = re.compile(r"\bI\b|\bI['’]|\b(?:my|me|mine|myself)\b", re.IGNORECASE)
_SECOND_PERSON = re.compile(r"\b(?:you|your|you're|you've|yours|yourself)\b", re.IGNORECASE)


def score_sentence(sentence: str, participants: frozenset[str]) -> SentenceScore:
    """Informativeness of one sentence; ``participants`` are names used as vocatives."""
    text = strip_interjections(sentence, participants)
    if not text or QUESTION_END.search(text):
        return SentenceScore(text, 0.0, frozenset())
    scored = _score_japanese(text) if is_japanese(text) else _score_english(text, participants)
    if _LAUGHING_END.search(text):
        return replace(scored, score=max(scored.score - _LAUGH_PENALTY, 0.0))
    return scored


# A sentence that ends laughing ("my knees are wrecked lol", 「左手が動かない笑」) is mostly a
# passing remark: it needs more to be kept (it still can be: "I got the job lol"). 0.8 on
# chats_a: three of 164 notes said nothing to keep, none lost; 0.4 dropped two.
_LAUGH_PENALTY = 0.8
_LAUGHING_END = re.compile(
    r"(?:\b(?:lol|lmao|haha+|hehe+)|笑|(?<=[\u3040-\u30ff\u3400-\u9fff])[wｗ]+|😂|🤣)"
    r"[\s.!。！…〜～]*$",
    re.IGNORECASE,
)


def _score_english(text: str, participants: frozenset[str]) -> SentenceScore:
    content = note_content_words(text)
    substantive = [w for w in content if w not in EVALUATIVE]
    entities = _count_entities(text, participants)
    enough = len(substantive) + entities >= _words_needed(text)
    if not enough or _SUGGESTION.match(text):
        return SentenceScore(text, 0.0, frozenset())
    cues = _english_cues(text, participants)
    score = 0.3 * min(len(substantive), 8)
    score += sum(_CUE_WEIGHTS[c] for c in cues)
    score += 0.6 * min(entities, 3)
    if Cue.FIRST_PERSON not in cues and _SECOND_PERSON.search(text):
        score -= 0.8  # mostly about the listener: praise, advice, questions in disguise
    if len(content) - len(substantive) > len(substantive):
        score -= 0.5  # more reaction than content
    return SentenceScore(text, max(score, 0.0), cues)


_CUE_WEIGHTS = {
    Cue.FIRST_PERSON: 1.0,
    Cue.ENTITY: 0.0,  # counted per entity instead
    Cue.TIME: 1.0,
    Cue.NUMBER: 0.5,
    Cue.LIFE_EVENT: 1.0,
    Cue.PREFERENCE: 0.8,
    Cue.PROFILE: 0.8,
    Cue.HOBBY: 1.0,
    Cue.PHOTO: 0.0,
}


def _words_needed(text: str) -> int:
    """How many content words and names a sentence needs to be a fact: a hobby or skill is one
    even in three words ("I play saxophone"), and so is the speaker's own home, work, study or
    family said in two ("I work at a bakery.", "I quit my job."), and what they love or hate
    ("I really hate olives."); anything else needs three."""
    if EN_HOBBY.search(text):
        return 1
    if (EN_PROFILE.search(text) or EN_PREFERENCE.search(text)) and EN_FIRST_PERSON.search(text):
        return 2
    return 3


def _english_cues(text: str, participants: frozenset[str]) -> frozenset[str]:
    found = {
        Cue.FIRST_PERSON: EN_FIRST_PERSON.search(text),
        Cue.TIME: EN_TIME.search(text),
        Cue.NUMBER: EN_NUMBER.search(text),
        Cue.LIFE_EVENT: EN_LIFE_EVENT.search(text),
        Cue.PREFERENCE: EN_PREFERENCE.search(text),
        Cue.PROFILE: EN_PROFILE.search(text) and EN_FIRST_PERSON.search(text),
        Cue.HOBBY: EN_HOBBY.search(text),
        Cue.ENTITY: _count_entities(text, participants) > 0,
    }
    return frozenset(cue for cue, hit in found.items() if hit)


def _count_entities(text: str, participants: frozenset[str]) -> int:
    """Capitalised words that are not the sentence's first word, "I", or a participant."""
    tokens = word_tokens(text)
    shouting = sum(1 for t in tokens if len(t) > 1 and t.isupper()) > 2
    seen = {
        token
        for token in tokens[1:]
        if token[:1].isupper()
        and not token.startswith("I'")
        and token not in {"I", "OK", "OMG", "LOL"}
        and not (shouting and token.isupper())
        and not is_vocative(token.removesuffix("'s"), participants)
    }
    return len(seen)


def _score_japanese(text: str) -> SentenceScore:
    residue = JA_FILLER.sub("", text)
    names = [next(g for g in m.groups() if g) for m in JA_NAMED.finditer(text)]
    content = len(JA_CONTENT.findall(residue)) + sum(
        len(n) for n in names if not JA_KATAKANA_WORD.fullmatch(n)
    )
    if content < 3:
        return SentenceScore(text, 0.0, frozenset())
    found = {
        Cue.FIRST_PERSON: JA_FIRST_PERSON.search(text) or not JA_OTHER_SUBJECT.search(text),
        Cue.TIME: JA_TIME.search(text),
        Cue.NUMBER: re.search(r"\d|[一二三四五六七八九十百千万]", text),
        Cue.LIFE_EVENT: JA_LIFE_EVENT.search(text),
        Cue.PREFERENCE: JA_PREFERENCE.search(text),
        Cue.PROFILE: JA_PROFILE.search(text),
        Cue.HOBBY: JA_HOBBY.search(text),
        Cue.ENTITY: JA_KATAKANA_WORD.search(text) or names,
    }
    cues = frozenset(cue for cue, hit in found.items() if hit)
    entities = set(JA_KATAKANA_WORD.findall(text)) | set(names)
    score = 0.3 * min(content / 2, 8) + sum(_CUE_WEIGHTS[c] for c in cues)
    score += 0.6 * min(len(entities), 3)
    return SentenceScore(text, score, cues)


def score_turn(chosen: list[SentenceScore], text: str) -> float:
    """A turn's worth as a note: its best sentence, a little for each further chosen sentence,
    how often the speaker talks about themselves, and its length (long turns tend to carry
    more facts). 0 when nothing was chosen."""
    if not chosen:
        return 0.0
    ranked = sorted((s.score for s in chosen), reverse=True)
    self_mentions = len(_FIRST_PERSON_MENTION.findall(text)) + len(JA_FIRST_PERSON.findall(text))
    # A Japanese character carries about as much as 2.5 English ones.
    length = len(text) * (2.5 if is_japanese(text) else 1.0)
    extra = 0.3 * sum(ranked[1:]) + 0.2 * min(self_mentions, 5)
    return ranked[0] + extra + 0.5 * min(length, 400) / 100
