"""English agreement when a name replaces "I" or "you" in a note (engine/consolidate/agreement),
the possessives of one person kept alike in a sentence (binding), and an inner vocative
dropped (rules.strip_interjections): probes of each verb shape, not of one benchmark text."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.consolidate import EventText, consolidate_offline
from omoide.engine.consolidate.agreement import name_the_speaker
from omoide.engine.consolidate.rewrite import to_third_person
from omoide.engine.consolidate.rules import strip_interjections


def third(sentence: str) -> str:
    return to_third_person(sentence, "Rin", addressee="Ken", japanese=False)


@pytest.mark.parametrize(
    ("said", "note"),
    [
        # "you" opening a clause takes any present verb, as "I" does
        ("When you finish work, you go running.", "When Ken finishes work, Ken goes running."),
        ("If you bake, you win.", "If Ken bakes, Ken wins."),
        ("You never finish your food.", "Ken never finishes their food."),
        ("So you travel a lot.", "So Ken travels a lot."),
        ("When I finish work, I go running.", "When Rin finishes work, Rin goes running."),
        # have/has, be and do forms, also before the subject in a question
        ("I've sunk tons of time into it.", "Rin has sunk tons of time into it."),
        ("You've been great.", "Ken has been great."),
        ("Have you seen it?", "Has Ken seen it?"),
        ("Do you watch TV?", "Does Ken watch TV?"),
        ("What do you think?", "What does Ken think?"),
        ("Don't you like it?", "Doesn't Ken like it?"),
        ("Where were you?", "Where was Ken?"),
        ("Are you ok?", "Is Ken ok?"),
        ("Am I wrong?", "Is Rin wrong?"),
        ("Do I look ok?", "Does Rin look ok?"),
        ("You are right and I am wrong.", "Ken is right and Rin is wrong."),
        # "I'd" + a participle or past form is "had", else "would"
        ("I'd sunk money into it.", "Rin had sunk money into it."),
        ("I'd bought a van.", "Rin had bought a van."),
        ("I'd tried twice.", "Rin had tried twice."),
        ("I'd love to.", "Rin would love to."),
        # a double contraction is read whole ("I'd've" stayed in the first person)
        ("I'd've loved to come.", "Rin would have loved to come."),
        ("I’d’ve gone.", "Rin would have gone."),
        ("I'll've finished by then.", "Rin will have finished by then."),
        ("You'd've liked it.", "Ken would have liked it."),
        # casual forms are spelled out, not given an -s
        ("I wanna learn Spanish.", "Rin wants to learn Spanish."),
        ("I gotta go.", "Rin has to go."),
        # a modal or an auxiliary keeps its bare verb; "you" as an object is left alone
        ("What can I say.", "What can Rin say."),
        ("Did you finish?", "Did Ken finish?"),
        ("I wish you luck.", "Rin wishes Ken luck."),
        ("Thank you for the help.", "Thank Ken for the help."),
        # a joint subject takes the plural verb
        ("Sarah and I love hiking.", "Sarah and Rin love hiking."),
        ("My sister and I bake bread.", "Rin's sister and Rin bake bread."),
    ],
)
def test_the_verb_agrees_with_the_name(said: str, note: str) -> None:
    assert third(said) == note


@pytest.mark.parametrize(
    ("said", "note"),
    [
        ("I sold my car and my bike.", "Rin sold their car and their bike."),
        ("I bake bread and I love my oven.", "Rin bakes bread and Rin loves their oven."),
        ("Sarah and I sold my car.", "Sarah and Rin sold Rin's car."),
        (
            "You never finish your projects, but you really enjoy your hobbies and your classes.",
            "Ken never finishes their projects, but Ken really enjoys their hobbies and their "
            "classes.",
        ),
        # someone else between keeps the name (a "their" could mean them)
        ("I told Sarah about my job.", "Rin told Sarah about Rin's job."),
        ("I love my kids and my job.", "Rin loves their kids and Rin's job."),
        (
            "I sold my car and my wife sold my bike.",
            "Rin sold their car and Rin's wife sold Rin's bike.",
        ),
    ],
)
def test_one_persons_possessives_stay_alike_in_a_sentence(said: str, note: str) -> None:
    assert third(said) == note


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("You never rest, Ken, but you try.", "You never rest, but you try."),
        ("I think, Ken, that it works.", "I think, that it works."),
        ("I met Anna, Ken, and Mia.", "I met Anna, Ken, and Mia."),  # a list, not a vocative
        ("Anna, Ken and Mia came.", "Anna, Ken and Mia came."),
        ("Paris, France, is nice.", "Paris, France, is nice."),  # not a participant
    ],
)
def test_an_inner_vocative_is_dropped(said: str, kept: str) -> None:
    assert strip_interjections(said, frozenset({"Rin", "Ken"})) == kept


@pytest.mark.parametrize(
    ("said", "note"),
    [
        # a second verb joined to the speaker's clause by "and" shares the name and agrees
        (
            "I go to Boston every summer and play tennis there.",
            "Rin goes to Boston every summer and plays tennis there.",
        ),
        (
            "I usually go to the gym and lift weights.",
            "Rin usually goes to the gym and lifts weights.",
        ),
        (
            "I work downtown and ride my bike to the office.",
            "Rin works downtown and rides their bike to the office.",
        ),
        (
            "I moved here last year and love the beaches.",
            "Rin moved here last year and loves the beaches.",
        ),
        ("I collect radios and restore them.", "Rin collects radios and restores them."),
        ("I cook and clean every day.", "Rin cooks and cleans every day."),
        ("I go to school and study hard.", "Rin goes to school and studies hard."),
        ("I stay positive and find a way.", "Rin stays positive and finds a way."),
        ("I'm 30 and work as a nurse.", "Rin is 30 and works as a nurse."),
        ("I smoke but never drink.", "Rin smokes but never drinks."),
        (
            "I run every morning and swim on weekends.",
            "Rin runs every morning and swims on weekends.",
        ),
        # left bare: an infinitive, a modal or a negation governs it, or it is the clause of another
        ("I love to cook and bake bread.", "Rin loves to cook and bake bread."),
        ("I want to travel and explore the world.", "Rin wants to travel and explore the world."),
        ("I can sing and dance all night.", "Rin can sing and dance all night."),
        ("I didn't go and buy it.", "Rin didn't go and buy it."),
        ("I'll go and see the doctor.", "Rin will go and see the doctor."),
        ("I used to swim and run.", "Rin used to swim and run."),
        ("I help kids read and write.", "Rin helps kids read and write."),
        ("I go there and my wife stays home.", "Rin goes there and Rin's wife stays home."),
        (
            "I went there and it was great and love filled the room.",
            "Rin went there and it was great and love filled the room.",
        ),
        (
            "I know why I chase it and keep me going.",
            "Rin knows why Rin chases it and keep Rin going.",
        ),
        (
            "I struggled, and support I got was helpful.",
            "Rin struggled, and support Rin got was helpful.",
        ),
        (
            "I am happy around those who accept and love me.",
            "Rin is happy around those who accept and love Rin.",
        ),
        # left alone: a noun after "and" (two things liked), a past form, a word already agreeing
        ("I love music and dance.", "Rin loves music and dance."),
        ("I enjoy hiking and travel a lot.", "Rin enjoys hiking and travel a lot."),
        ("I like tea and cake a lot.", "Rin likes tea and cake a lot."),
        (
            "I love the freedom and connection it brings.",
            "Rin loves the freedom and connection it brings.",
        ),
        ("I moved here and loved it.", "Rin moved here and loved it."),
        (
            "I find it helps me relax and increase my focus.",
            "Rin finds it helps Rin relax and increase Rin's focus.",
        ),
        ("Sarah and I play tennis and swim.", "Sarah and Rin play tennis and swim."),
        # a sentence that stops at "and" (this raised IndexError, failing the consolidation job)
        ("I go and", "Rin goes and"),
        ("I love it and and", "Rin loves it and and"),
        ("I go to and", "Rin goes to and"),
        ("I and", "Rin and"),
    ],
)
def test_a_verb_joined_by_and_agrees_with_the_name(said: str, note: str) -> None:
    assert third(said) == note


def test_a_note_says_the_joined_verb_in_agreement() -> None:
    """End to end through the consolidator: the known shape "X goes to … and play …"."""
    when = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    events = [
        EventText(
            0,
            "Ken",
            "user",
            "I go to Boston every summer and play tennis with my cousin there.",
            when,
        ),
        EventText(1, "Rin", "assistant", "Sounds fun!", when),
    ]
    [note] = consolidate_offline(events, notes_per_turn=1).notes
    assert note.content.startswith(
        "Ken goes to Boston every summer and plays tennis with their cousin there."
    ), note.content


_WORDS = st.lists(
    st.sampled_from(
        [
            "I",
            "I'm",
            "I'll",
            "and",
            "or",
            "but",
            "to",
            "the",
            "my",
            "it",
            "go",
            "play",
            "love",
            "cook",
            "lift",
            "music",
            "dance",
            "tennis",
            "Boston",
            "can",
            "didn't",
            ",",
            ".",
            "who",
            "swim",
            "helps",
            "restore",
            "them",
            "hiking",
            "every",
            "morning",
            "she",
            "was",
        ]
    ),
    max_size=14,
).map(" ".join)


@given(_WORDS)
def test_agreement_only_ever_adds_an_ending_or_names_the_speaker(sentence: str) -> None:
    """Whatever the words, naming the speaker changes "I" (and its contraction or auxiliary)
    and verbs' endings: every other word stays, in order."""
    out = name_the_speaker(sentence, "Rin").split()
    kept = [w for w in sentence.split() if w not in {"I", "I'm", "I'll"}]
    words = [w for w in out if w not in {"Rin", "is", "will"}]
    assert len(words) == len(kept)
    for said, written in zip(kept, words, strict=True):
        assert (
            written == said
            or (written.startswith(said.rstrip("y")) and written[-1] == "s")
            or (said, written) in {("go", "goes"), ("didn't", "didn't")}
        )


@given(
    st.lists(st.sampled_from([*"I and to go it, .'m\n", "play", "I'm", " and"]), max_size=40).map(
        "".join
    )
)
def test_naming_the_speaker_never_fails(sentence: str) -> None:
    assert isinstance(name_the_speaker(sentence, "Rin"), str)


@pytest.mark.parametrize(
    ("said", "note"),
    [
        # a "you" that opens a clause is its subject: the verb joined to it agrees too
        ("You go to Boston and play tennis.", "Ken goes to Boston and plays tennis."),
        (
            "When you finish work and go home, you rest.",
            "When Ken finishes work and goes home, Ken rests.",
        ),
        ("You cook and bake so well.", "Ken cooks and bakes so well."),
        # "you" as an object, after an inverted auxiliary, or under an infinitive: left bare
        ("I told you and left.", "Rin told Ken and left."),
        ("Do you still paint and sell your art?", "Does Ken still paint and sell Ken's art?"),
        ("You love to cook and bake.", "Ken loves to cook and bake."),
        ("You and I go and play.", "Ken and Rin go and play."),
    ],
)
def test_a_verb_joined_to_the_addressee_agrees(said: str, note: str) -> None:
    assert third(said) == note
