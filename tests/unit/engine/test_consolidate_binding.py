"""A first-person word that refers back to its clause's own "I" reads as a pronoun in a note
("Ken ran their first marathon", 「ケンは自分の車を売った」), never as a second name; where
another referent could take the pronoun, the name stays."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.consolidate.binding import bind_first_person
from omoide.engine.consolidate.offline import consolidate_offline
from omoide.engine.consolidate.rewrite import to_third_person
from omoide.engine.consolidate.types import EventText

WHEN = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


def _en(sentence: str, speaker: str = "Ken") -> str:
    return to_third_person(sentence, speaker, japanese=False)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param("I ran my first marathon.", "Ken ran their first marathon.", id="my"),
        pytest.param(
            "I've finally finished my novel!",
            "Ken has finally finished their novel!",
            id="contraction",
        ),
        pytest.param("I'm so proud of my son.", "Ken is so proud of their son.", id="im"),
        pytest.param(
            "I quit my job and sold my car.",
            "Ken quit their job and sold their car.",
            id="same-subject-after-and",
        ),
        pytest.param("I lost mine.", "Ken lost theirs.", id="mine"),
        pytest.param("I taught myself Go.", "Ken taught themself Go.", id="myself"),
        pytest.param("I bought me a bike.", "Ken bought themself a bike.", id="me-after-verb"),
        pytest.param("I brought it with me.", "Ken brought it with them.", id="me-after-prep"),
        pytest.param(
            "I told Sarah about myself.",
            "Ken told Sarah about themself.",
            id="reflexive-past-a-name",
        ),
        pytest.param(
            "It made me believe in myself.",
            "It made Ken believe in themself.",
            id="reflexive-after-me",
        ),
    ],
)
def test_a_back_reference_to_the_clause_subject_is_a_pronoun(sentence: str, expected: str) -> None:
    assert _en(sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param(
            "She watched my sister's first marathon.",
            "She watched Ken's sister's first marathon.",
            id="another-subject",
        ),
        pytest.param(
            "My sister ran my first marathon route.",
            "Ken's sister ran Ken's first marathon route.",
            id="possessive-subject",
        ),
        pytest.param(
            "I told Sarah about my job.", "Ken told Sarah about Ken's job.", id="a-name-between"
        ),
        pytest.param("I gave them my number.", "Ken gave them Ken's number.", id="them-between"),
        pytest.param(
            "I took my kids to my mom's house.",
            "Ken took their kids to Ken's mom's house.",
            id="people-between",
        ),
        pytest.param(
            "I sold the bikes for my rent.",
            "Ken sold the bikes for Ken's rent.",
            id="plural-between",
        ),
        pytest.param(
            "I quit my job and my wife sold my car.",
            "Ken quit their job and Ken's wife sold Ken's car.",
            id="new-subject",
        ),
        pytest.param(
            "I cried when my dog died.", "Ken cried when Ken's dog died.", id="subordinate-clause"
        ),
        pytest.param('I said "my car is gone".', 'Ken said "Ken\'s car is gone".', id="quote"),
        pytest.param(
            "Sarah and I ran my route.", "Sarah and Ken ran Ken's route.", id="compound-subject"
        ),
        pytest.param(
            "My sister said I should run my first marathon.",
            "Ken's sister said Ken should run Ken's first marathon.",
            id="someone-before-the-i",
        ),
        pytest.param(
            "It reminds me of my childhood.",
            "It reminds Ken of Ken's childhood.",
            id="no-i-subject",
        ),
        pytest.param("Proud of myself!", "Proud of Ken!", id="reflexive-without-antecedent"),
        pytest.param(
            "When I got home, my dog was asleep.",
            "When Ken got home, Ken's dog was asleep.",
            id="subordinate-ends-at-comma",
        ),
        pytest.param(
            "I'm carving out some me-time.", "Ken is carving out some me-time.", id="me-time"
        ),
        pytest.param("I ran. My legs hurt.", "Ken ran. Ken's legs hurt.", id="next-sentence"),
    ],
)
def test_the_name_stays_where_a_pronoun_could_be_misread(sentence: str, expected: str) -> None:
    assert _en(sentence) == expected


def test_the_unnamed_user_takes_the_pronoun_too() -> None:
    assert _en("I ran my first marathon.", "the user") == "the user ran their first marathon."


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param("私は私の車を売った。", "ケンは自分の車を売った。", id="watashi-no"),
        pytest.param("僕は僕の車を売ったよ", "ケンは自分の車を売った", id="boku"),
        pytest.param("俺が俺の部屋を片付けた。", "ケンが自分の部屋を片付けた。", id="ore-ga"),
        pytest.param("私は私自身を褒めた。", "ケンは自分自身を褒めた。", id="jishin"),
        pytest.param(
            "私たちは私たちの家を買った。", "ケンたちは自分たちの家を買った。", id="plural"
        ),
        pytest.param(
            "私は昨日、私の母と料理した。", "ケンは昨日、自分の母と料理した。", id="comma-inside"
        ),
    ],
)
def test_japanese_back_reference_becomes_jibun(sentence: str, expected: str) -> None:
    assert to_third_person(sentence, "ケン", japanese=True) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param("私の車は赤い。", "ケンの車は赤い。", id="no-subject"),
        pytest.param(
            "私は姉が私の車を売ったと聞いた。",
            "ケンは姉がケンの車を売ったと聞いた。",
            id="another-subject",
        ),
        pytest.param(
            "私は「私の夢」という本を書いた。", "ケンは「ケンの夢」という本を書いた。", id="quote"
        ),
        pytest.param(
            "私たちは私の家に集まった。",
            "ケンたちはケンの家に集まった。",
            id="plural-subject-singular-owner",
        ),
        pytest.param(
            "私は走った。私の足が痛い。", "ケンは走った。ケンの足が痛い。", id="next-sentence"
        ),
        pytest.param("私は私立高校の先生です。", "ケンは私立高校の先生です。", id="shiritsu"),
    ],
)
def test_japanese_keeps_the_name_outside_the_subject_reach(sentence: str, expected: str) -> None:
    assert to_third_person(sentence, "ケン", japanese=True) == expected


_NO_FIRST_PERSON = st.lists(
    st.sampled_from(
        [
            "Sarah",
            "ran",
            "her",
            "first",
            "marathon",
            "the",
            "dog",
            "and",
            ",",
            ".",
            "they",
            "sold",
            "it",
            "with",
            "him",
            "Ken's",
            "mine-shaft",
            "me-time",
        ]
    ),
    max_size=12,
).map(" ".join)


@given(_NO_FIRST_PERSON)
def test_a_sentence_without_i_is_left_as_it_was(sentence: str) -> None:
    assert bind_first_person(sentence, japanese=False) == sentence


def test_a_note_names_the_speaker_once() -> None:
    events = [
        EventText(0, "Ken", "user", "I ran my first marathon last weekend in four hours!", WHEN),
        EventText(1, "Rin", "assistant", "Wow, congratulations!", WHEN),
    ]
    [note] = consolidate_offline(events, notes_per_turn=1).notes
    assert note.content.startswith("Ken ran their first marathon")
    assert note.content.count("Ken") == 1


_WORDS = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "I",
                "I'm",
                "my",
                "My",
                "me",
                "mine",
                "myself",
                "and",
                "when",
                ",",
                ".",
                "Sarah",
                "sister",
                "bikes",
                "with",
                "ran",
                "got",
                "her",
                "-",
                '"',
                "me-time",
                "私は",
                "私の",
                "僕が",
                "僕を",
                "姉が",
                "車",
                "。",
                "「",
                "」",
                "私たちの",
            ]
        ),
        st.text(max_size=6),
    ),
    max_size=16,
).map(" ".join)


@given(_WORDS, st.booleans())
def test_binding_only_ever_swaps_a_first_person_word(sentence: str, japanese: bool) -> None:
    bound = bind_first_person(sentence, japanese=japanese)
    if japanese:  # 私/僕/俺 → 自分 and nothing else
        first = re.compile(r"私(?![立服物用鉄的生])|僕|俺|わたし|あたし|自分")
        assert first.sub("X", bound) == first.sub("X", sentence)
        return
    before, after = sentence.split(" "), bound.split(" ")
    assert len(before) == len(after)
    for old, new in zip(before, after, strict=True):
        assert old == new or old.lower().strip('.,"-') in {"my", "mine", "me", "myself"}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param(
            "You ran your first marathon!", "Rin ran their first marathon!", id="your-after-you"
        ),
        pytest.param("I loved your cake.", "Ken loved Rin's cake.", id="no-you-subject"),
        pytest.param("Thank you for your help.", "Thank Rin for Rin's help.", id="you-object"),
        pytest.param(
            "You told me about your job.", "Rin told Ken about Rin's job.", id="speaker-between"
        ),
        pytest.param(
            "You and Sarah sold your car.", "Rin and Sarah sold Rin's car.", id="compound"
        ),
        pytest.param("Did you enjoy your trip?", "Did Rin enjoy Rin's trip?", id="question"),
    ],
)
def test_the_addressee_is_named_once_too(sentence: str, expected: str) -> None:
    assert to_third_person(sentence, "Ken", addressee="Rin", japanese=False) == expected


def test_your_stays_when_no_one_says_who_you_are() -> None:
    assert (
        to_third_person("You ran your first marathon!", "Ken", japanese=False)
        == "You ran your first marathon!"
    )


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # a capitalised word where a place stands is no one a "their" could mean
        ("I live in Kyoto with my cat.", "Ken lives in Kyoto with their cat."),
        (
            "I moved to Kyoto last spring and I love my cat.",
            "Ken moved to Kyoto last spring and Ken loves their cat.",
        ),
        ("I live in Tokyo and I love my cat.", "Ken lives in Tokyo and Ken loves their cat."),
        (
            "I flew back from Osaka to my parents' house.",
            "Ken flew back from Osaka to their parents' house.",
        ),
        ("I drove through Ohio in my old truck.", "Ken drove through Ohio in their old truck."),
        ("I moved to New York with my sister.", "Ken moved to New York with their sister."),
        ("In Denver I ride my bike.", "In Denver Ken rides their bike."),
        ("I work at Google and I love my team.", "Ken works at Google and Ken loves their team."),
        (
            "I spent Christmas at home with my family.",
            "Ken spent Christmas at home with their family.",
        ),
        # a person stays a person: with, told, gave to, a possessive, a joint subject
        (
            "I went to Paris with Sarah and lost my passport.",
            "Ken went to Paris with Sarah and lost Ken's passport.",
        ),
        ("I showed Mike my new guitar.", "Ken showed Mike Ken's new guitar."),
        ("I talked to Sarah about my job.", "Ken talked to Sarah about Ken's job."),
        ("I stayed in Sarah's flat with my dog.", "Ken stayed in Sarah's flat with Ken's dog."),
        ("Sarah and I love our dog.", "Sarah and Ken love Ken's dog."),
    ],
)
def test_a_place_name_is_not_taken_for_a_person(sentence: str, expected: str) -> None:
    assert _en(sentence) == expected
