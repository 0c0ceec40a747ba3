"""A user's short answer to the persona's question (pure, offline).

The persona's turns never make a note by themselves, but they can inform one: "Where do you
live now?" — "Osaka." says where the user lives only when the two are read together. When a
user's turn is too short to be a note on its own and answers a question the persona just
asked, the note quotes both ("Asked “Where do you live now?”, Ken answered “Osaka.”") and cites
both turns: the question informs, the answer asserts. Nothing is rewritten inside the quotes, so
a wrong guess in the question ("You live in Chicago, right?" — "No.") stays a question.
"""

from __future__ import annotations

import re

from omoide.engine.consolidate.interjections import strip_interjections
from omoide.engine.consolidate.relative_dates import resolve_relative_dates, said_on
from omoide.engine.consolidate.statements import is_question
from omoide.engine.consolidate.text import split_sentences
from omoide.engine.consolidate.types import EventText, NoteDraft, NoteKind
from omoide.engine.consolidate.voice import spoken_name
from omoide.engine.lang import is_japanese, note_content_words

__all__ = ["answer_note", "leans_on_the_question"]

# How long an answer may be and still be read with the question: forty Japanese characters,
# and as much in English (a Japanese character carries about as much as 2.5 English ones, so
# about a hundred characters: twenty words). Twelve words cut off answers that open with a
# piece of the question's topic and go on ("two, both rescues. the older one hates the car, so
# we drive the long way round to the vet"): on chats_a English recall rose 0.924 → 0.962
# from 12 to 16 words and stayed there up to 30.
_MAX_ANSWER_WORDS = 20
_MAX_ANSWER_CHARS_JA = 40
_YES_NO = frozenset(
    {"yes", "no", "yeah", "yep", "nope", "nah", "はい", "いいえ", "うん", "ううん", "ええ", "いや"}
)
_IMPORTANCE = 0.4


def answer_note(
    question: EventText, answer: EventText, participants: frozenset[str]
) -> NoteDraft | None:
    """The note for ``answer`` read with the ``question`` the persona asked just before it, or
    None when the pair is not a short answer to a question."""
    if question.role != "assistant" or answer.role != "user":
        return None
    asked = split_sentences(question.text)
    if not asked or not is_question(asked[-1]):
        return None
    said = answer.text.strip()
    japanese = is_japanese(said) or is_japanese(asked[-1])
    too_long = (
        len(said) > _MAX_ANSWER_CHARS_JA if japanese else len(said.split()) > _MAX_ANSWER_WORDS
    )
    if too_long or not _carries_an_answer(said, participants):
        return None
    if answer.timestamp is not None:  # the answer's relative dates, resolved beside them
        said = resolve_relative_dates(said, answer.timestamp, japanese=japanese)
    name = spoken_name(answer.speaker, japanese=japanese)
    if japanese:
        content = f"{name}は「{asked[-1]}」という質問に「{said}」と答えた。"
    else:
        content = f"Asked “{asked[-1]}”, {name} answered “{said}”"
    return NoteDraft(
        content=content + said_on(answer.timestamp, japanese=japanese, content=content),
        kind=NoteKind.FACT,
        source_event_ids=tuple(sorted({question.event_id, answer.event_id})),
        importance=_IMPORTANCE,
        tags=("answer",),
    )


# What a Japanese question is about: its kanji (通, 勤, 名, 前) and katakana words (ペット), but
# not the kanji that ask (何, 誰).
_JA_TERM = re.compile(r"[\u3400-\u9fff]|[\u30a1-\u30fa\u30fc]{2,}")
_JA_ASKING = frozenset("何誰幾")
_JA_WORD = re.compile(r"[\u3400-\u9fff]{2,}|[\u30a1-\u30fa\u30fc]{2,}")
_JA_OWN_NOUN = re.compile(r"[\u3400-\u9fff\u30a1-\u30fa\u30fc][をが]")
_JA_NO = re.compile(r"(?:いいえ|いや|ううん|違)")


def leans_on_the_question(question: EventText, answer: EventText) -> bool:
    """A Japanese answer that repeats none of the kanji and katakana words of the question it
    follows (「引っ越し先は決まった？」 — 「三つまで絞ったけど、まだ迷ってる」): Japanese
    leaves out the topic the question set, so the answer says what it is about only next to
    it. When the question has a word of two or more characters (「病院は行った？」), that word
    is the topic: repeating the verb's kanji (「来週行こうかな」) does not say it. A question
    with no such word (「どうしたの？」) sets no topic; an answer that repeats one, or names
    what its verb is about (「ペットは飼っていますか？」 — 「柴犬を飼っています」), says it itself,
    and so does one that opens with a no (「いいえ、司書です」 after a wrong guess, which stays
    out)."""
    asked = split_sentences(question.text)
    if not asked or not is_japanese(answer.text):
        return False
    if _JA_NO.match(answer.text.strip()):
        return False  # a correction says its own topic; the guess stays out of the note
    words = [w for w in _JA_WORD.findall(asked[-1]) if not set(w) & _JA_ASKING]
    if words and not _JA_OWN_NOUN.search(answer.text):
        # the topic is a word (病院, フットサル), not a verb's kanji (行った), unless the
        # answer names what its verb is about itself (柴犬を飼っています)
        return not any(word in answer.text for word in words)
    terms = {t for t in _JA_TERM.findall(asked[-1]) if t not in _JA_ASKING}
    return bool(terms) and not any(term in answer.text for term in terms)


def _carries_an_answer(text: str, participants: frozenset[str]) -> bool:
    """A yes or no, or some content once greetings and thanks are gone ("Thanks!" is not)."""
    rest = strip_interjections(text, participants)
    lowered = {w.strip(".,!?。、！？").lower() for w in text.replace("、", " ").split()}
    return (
        bool(lowered & _YES_NO)
        or bool(note_content_words(rest))
        or (is_japanese(rest) and len(rest.strip("。、！？!? ")) >= 2)
    )
