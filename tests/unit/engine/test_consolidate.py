"""Offline episode consolidation: which turns become notes, how they read, what they cite."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.engine.consolidate import (
    Consolidation,
    EventText,
    NoteKind,
    ProfileUpdate,
    consolidate_offline,
    note_budget,
)
from omoide.engine.consolidate.relative_dates import resolve_relative_dates
from omoide.engine.consolidate.rewrite import plain_japanese_ending, to_third_person
from omoide.engine.consolidate.text import split_sentences

SAID = datetime(2023, 5, 8, 13, 56)


def episode(
    *turns: tuple[str, str], assistant: str | None = None, when: datetime | None = SAID
) -> list[EventText]:
    """Events with ids 7, 17, 27 … so that provenance cannot pass by using positions."""
    return [
        EventText(
            event_id=10 * i + 7,
            speaker=speaker,
            role="assistant" if speaker == assistant else "user",
            text=text,
            timestamp=when,
        )
        for i, (speaker, text) in enumerate(turns)
    ]


# A hand-written chat in LoCoMo's style: news, reactions, questions, small talk.
REALISTIC = episode(
    ("Caroline", "Hey Mel! Good to see you! How have you been?"),
    ("Melanie", "Hey Caroline! I'm swamped with the kids and work. What's up with you?"),
    ("Caroline", "I went to an LGBTQ support group yesterday and it was so powerful."),
    ("Melanie", "Wow, that's cool, Caroline! What happened that was so awesome?"),
    ("Caroline", "The transgender stories were so inspiring! I was so thankful for the support."),
    ("Melanie", "That's really cool. What's it done for you?"),
    ("Caroline", "It made me feel accepted. I'm planning to study counseling next year."),
    ("Melanie", "You'd be a great counselor! Your empathy will help a lot of people."),
    ("Caroline", "Thanks, Mel! What have you been painting lately?"),
    ("Melanie", "I painted a lake sunrise last year. Painting is my favourite way to relax."),
    ("Caroline", "Wow, it's gorgeous!"),
    ("Melanie", "Thanks! I'm off to go swimming with the kids now. Talk soon!"),
)


def test_consolidate_returns_nothing_when_episode_is_only_greetings_and_reactions() -> None:
    events = episode(
        ("Caroline", "Hey Mel! Good to see you! How have you been?"),
        ("Melanie", "Hi Caroline! Good to see you too. How are you?"),
        ("Caroline", "Wow, that's great!"),
        ("Melanie", "Thanks, you too!"),
    )
    assert consolidate_offline(events) == Consolidation(notes=(), profile=())


def test_consolidate_returns_nothing_when_there_are_no_events() -> None:
    assert consolidate_offline([]) == Consolidation(notes=(), profile=())


def test_note_is_in_third_person_with_resolved_date_and_a_date_suffix() -> None:
    events = episode(
        ("Caroline", "I went to a support group yesterday."),
        ("Melanie", "Wow, that's cool!"),
    )
    [note] = consolidate_offline(events).notes
    assert note.content == "Caroline went to a support group yesterday (7 May 2023). (8 May 2023)"
    assert note.source_event_ids == (7,)


def test_note_has_no_date_suffix_when_timestamp_is_unknown() -> None:
    events = episode(
        ("Caroline", "I went to a support group yesterday."),
        ("Melanie", "Wow, that's cool!"),
        when=None,
    )
    assert [n.content for n in consolidate_offline(events).notes] == [
        "Caroline went to a support group yesterday."
    ]


def test_note_drops_greeting_and_question_sentences_of_a_kept_turn() -> None:
    events = episode(
        (
            "John",
            "Hey Maria, great to chat again! I joined a volunteer group in Denver last week. "
            "How are you?",
        ),
        ("Maria", "Nice!"),
    )
    [note] = consolidate_offline(events).notes
    # the resolved "last week" names the day it was said: the note carries that date once
    assert note.content == (
        "John joined a volunteer group in Denver last week (the week before 8 May 2023)."
    )


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param("I love painting.", "Melanie loves painting.", id="present-verb"),
        pytest.param("I'm really into pottery.", "Melanie is really into pottery.", id="im"),
        pytest.param("I've adopted a dog.", "Melanie has adopted a dog.", id="ive"),
        pytest.param("I don't like rain.", "Melanie doesn't like rain.", id="dont"),
        pytest.param("I went with my kids.", "Melanie went with their kids.", id="past-my"),
        pytest.param("It reminds me of home.", "It reminds Melanie of home.", id="me"),
        pytest.param("Some me-time helps me.", "Some me-time helps Melanie.", id="me-hyphened"),
        pytest.param("I'd love to go.", "Melanie would love to go.", id="id-would"),
        pytest.param("What can I say?", "What can Melanie say?", id="inverted"),
        pytest.param("We're going camping.", "Melanie and others are going camping.", id="we"),
        pytest.param("We'd've won.", "Melanie and others would have won.", id="we-d-ve"),
        pytest.param(
            "We put our hearts into it.", "Melanie and others put their hearts into it.", id="our"
        ),
        pytest.param("Our dog loves us.", "Melanie's dog loves Melanie.", id="our-alone"),
        pytest.param("I'm proud of you.", "Melanie is proud of Caroline.", id="you-object"),
        pytest.param("Your art is lovely.", "Caroline's art is lovely.", id="your"),
    ],
)
def test_to_third_person_names_the_speaker_and_addressee(sentence: str, expected: str) -> None:
    assert to_third_person(sentence, "Melanie", addressee="Caroline", japanese=False) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param(
            "I drink rooibos every morning.",
            "Seun drinks rooibos every morning.",
            id="unlisted-verb",
        ),
        pytest.param("I rent a flat.", "Seun rents a flat.", id="unlisted-verb-2"),
        pytest.param("I fix bikes.", "Seun fixes bikes.", id="unlisted-x"),
        pytest.param("I carry a notebook.", "Seun carries a notebook.", id="unlisted-y"),
        pytest.param("I hardly sleep.", "Seun hardly sleeps.", id="ly-adverb"),
        pytest.param("I simply adore jazz.", "Seun simply adores jazz.", id="ly-adverb-2"),
        pytest.param("I rely on it.", "Seun relies on it.", id="ly-verb"),
        pytest.param("I ate sushi.", "Seun ate sushi.", id="irregular-past"),
        pytest.param("I read a lot.", "Seun read a lot.", id="past-or-present"),
        pytest.param("I watched it.", "Seun watched it.", id="ed-past"),
        pytest.param("I then left.", "Seun then left.", id="linking-word"),
        pytest.param("I for one agree.", "Seun for one agree.", id="preposition"),
    ],
)
def test_to_third_person_conjugates_any_present_verb_after_i(sentence: str, expected: str) -> None:
    assert to_third_person(sentence, "Seun", japanese=False) == expected


def test_to_third_person_keeps_the_closed_list_after_you() -> None:
    """ "you" is also an object ("thank you for …"): only listed verbs are conjugated."""
    assert (
        to_third_person("Thank you for the help.", "Seun", addressee="Mira", japanese=False)
        == "Thank Mira for the help."
    )


def test_note_starts_with_a_capital_after_its_interjection_is_dropped() -> None:
    events = episode(
        ("Mira", "You must love Bach then."),
        ("Seun", "Ha, honestly I prefer Elgar."),
        ("Mira", "Tea or coffee?"),
        ("Seun", "No, I drink rooibos every morning."),
        assistant="Mira",
    )
    assert [n.content for n in consolidate_offline(events).notes] == [
        "Honestly Seun prefers Elgar. (8 May 2023)",
        "Seun drinks rooibos every morning. (8 May 2023)",
    ]


def test_to_third_person_replaces_japanese_first_person_but_not_shiritsu() -> None:
    rewritten = to_third_person("私は私立高校の先生です。", "らうらう", japanese=True)
    assert rewritten == "らうらうは私立高校の先生です。"


@pytest.mark.parametrize(
    ("sentence", "japanese", "expected"),
    [
        pytest.param("We met last month.", False, "We met last month (April 2023).", id="month"),
        pytest.param("I ran last Saturday.", False, "I ran last Saturday (6 May 2023).", id="wday"),
        pytest.param("It was 2 days ago.", False, "It was 2 days ago (6 May 2023).", id="ago"),
        pytest.param("I moved last year.", False, "I moved last year (2022).", id="year"),
        pytest.param("Feels like yesterday!", False, "Feels like yesterday!", id="idiom"),
        pytest.param(
            "He joins us for the last week.",
            False,
            "He joins us for the last week.",
            id="the-last-week-is-a-span",
        ),
        pytest.param(
            "In the last year I ran a lot.",
            False,
            "In the last year I ran a lot.",
            id="the-last-year-is-a-span",
        ),
        pytest.param("昨日ジムに行った。", True, "昨日（2023年5月7日）ジムに行った。", id="ja-day"),
        pytest.param("先月引っ越した。", True, "先月（2023年4月）引っ越した。", id="ja-month"),
    ],
)
def test_resolve_relative_dates_appends_the_absolute_date(
    sentence: str, japanese: bool, expected: str
) -> None:
    assert resolve_relative_dates(sentence, SAID, japanese=japanese) == expected


def test_split_sentences_handles_english_japanese_and_abbreviations() -> None:
    assert split_sentences("昨日ジムに行った。楽しかった！また行く？") == [
        "昨日ジムに行った。",
        "楽しかった！",
        "また行く？",
    ]
    assert split_sentences("I met Dr. Smith. It cost 3.5 dollars!") == [
        "I met Dr. Smith.",
        "It cost 3.5 dollars!",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("My name is Laura Smith.", [("name", "Laura Smith")], id="en-name"),
        pytest.param(
            "Please call me Rau from now on.", [("preferred_address", "Rau")], id="en-call"
        ),
        pytest.param("My friends call me Lolo.", [("nickname", "Lolo")], id="en-nickname"),
        pytest.param("Call me crazy, but I love it.", [], id="en-idiom"),
        pytest.param("Don't call me Laurie.", [], id="en-negated"),
        pytest.param("私の名前はらうらうです。", [("name", "らうらう")], id="ja-name"),
        pytest.param("これからはらうって呼んでね。", [("preferred_address", "らう")], id="ja-tte"),
        pytest.param("らうと呼んでください。", [("preferred_address", "らう")], id="ja-to"),
        pytest.param("らうって呼ばないで。", [], id="ja-negated"),
    ],
)
def test_profile_updates_come_from_explicit_self_identification(
    text: str, expected: list[tuple[str, str]]
) -> None:
    events = episode(("Rau", text), ("Haru", "OK!"), assistant="Haru")
    profile = consolidate_offline(events).profile
    assert [(p.key, p.value) for p in profile] == expected
    assert all(p.source_event_id == 7 for p in profile)


def test_profile_statement_always_becomes_a_profile_note() -> None:
    events = episode(
        ("Rau", "By the way, my name is Laura, but please call me Rau."),
        ("Haru", "Got it, Rau!"),
        assistant="Haru",
    )
    result = consolidate_offline(events)
    assert [(n.content, n.kind) for n in result.notes] == [
        ("Rau's name is Laura. Rau wants to be called Rau. (8 May 2023)", NoteKind.PROFILE)
    ]
    assert result.profile == (
        ProfileUpdate(key="name", value="Laura", source_event_id=7),
        ProfileUpdate(key="preferred_address", value="Rau", source_event_id=7),
    )


def test_profile_updates_ignore_the_assistant_naming_itself() -> None:
    events = episode(
        ("Rau", "Hi there!"),
        ("Haru", "Hello! You can call me Haru."),
        assistant="Haru",
    )
    assert consolidate_offline(events).profile == ()


def test_note_provenance_is_exactly_the_turn_it_came_from() -> None:
    result = consolidate_offline(REALISTIC)
    by_id = {e.event_id: e for e in REALISTIC}
    assert [n.source_event_ids for n in result.notes] == [(17,), (27,), (67,), (97,), (117,)]
    for note in result.notes:
        speaker = by_id[note.source_event_ids[0]].speaker
        assert note.content.startswith(speaker)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        pytest.param(
            "I hate cilantro, and I prefer tea over coffee.", NoteKind.PREFERENCE, id="pref"
        ),
        pytest.param("My favourite band is Radiohead.", NoteKind.PREFERENCE, id="favourite"),
        pytest.param("私は辛いものが大好き。", NoteKind.PREFERENCE, id="ja-suki"),
        pytest.param("I work as a nurse at Kita Hospital.", NoteKind.PROFILE, id="job"),
        pytest.param("I moved to Osaka last month for a new job.", NoteKind.FACT, id="event"),
        pytest.param("I adopted a cat named Miso and I love her.", NoteKind.FACT, id="event-love"),
    ],
)
def test_note_kind_follows_the_main_sentence(text: str, kind: NoteKind) -> None:
    [note] = consolidate_offline(episode(("Rau", text), ("Haru", "Noted!"))).notes
    assert note.kind == kind


def test_consolidate_keeps_fewer_notes_than_turns_on_a_realistic_chat() -> None:
    notes = consolidate_offline(REALISTIC).notes
    assert [n.content for n in notes] == [
        "Melanie is swamped with the kids and work. (8 May 2023)",
        "Caroline went to an LGBTQ support group yesterday (7 May 2023) and it was so powerful."
        " (8 May 2023)",
        "Caroline is planning to study counseling next year (2024). (8 May 2023)",
        "Melanie painted a lake sunrise last year (2022). Painting is Melanie's favourite way to"
        " relax. (8 May 2023)",
        "Melanie is off to go swimming with the kids now. (8 May 2023)",
    ]
    assert len(notes) <= len(REALISTIC) // 2


def test_consolidate_respects_max_notes_keeping_the_most_informative() -> None:
    notes = consolidate_offline(REALISTIC, max_notes=1).notes
    assert [n.source_event_ids for n in notes] == [(97,)]


def test_consolidate_is_deterministic() -> None:
    assert consolidate_offline(REALISTIC) == consolidate_offline(list(REALISTIC))


_turn_text = st.lists(
    st.sampled_from(
        [
            "Hey!",
            "How are you?",
            "Wow, that's great!",
            "I moved to Kyoto last month.",
            "My sister Ana loves sushi.",
            "We went hiking on Mount Takao yesterday.",
            "私は猫が好き。",
            "昨日、新しい仕事を始めた。",
            "Thanks!",
            "call me Rau",
        ]
    ),
    min_size=1,
    max_size=3,
).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(_turn_text, min_size=2, max_size=12), ratio=st.floats(0.05, 1.0))
def test_consolidate_never_copies_the_episode_and_cites_only_its_events(
    texts: list[str], ratio: float
) -> None:
    speakers = ("Rau", "Haru")
    events = episode(*((speakers[i % 2], text) for i, text in enumerate(texts)))
    notes = consolidate_offline(events, notes_per_turn=ratio).notes
    ids = [e.event_id for e in events]
    assert len(notes) < len(events)
    assert all(0.0 <= n.importance <= 1.0 for n in notes)
    cited = [i for n in notes for i in n.source_event_ids]
    assert set(cited) <= set(ids)
    assert cited == sorted(cited)


# -- issue 8: names, labels, the persona's turns, hobbies, captions ------------------------


def test_full_name_is_kept_next_to_the_nickname() -> None:
    result = consolidate_offline(
        episode(
            ("Ken", "Hi! I'm Kenji Sato, but please call me Ken."),
            ("Haru", "Nice to meet you, Ken!"),
            assistant="Haru",
        )
    )
    assert [(p.key, p.value) for p in result.profile] == [
        ("name", "Kenji Sato"),
        ("preferred_address", "Ken"),
        ("nickname", "Ken"),
    ]
    (note,) = result.notes
    assert note.kind == NoteKind.PROFILE
    assert "Kenji Sato" in note.content and "called Ken" in note.content


@pytest.mark.parametrize(
    "text",
    ["I'm Japanese.", "I'm fine, thanks.", "I'm So Happy today", "I'm Mary Jane's neighbour."],
)
def test_im_followed_by_a_word_is_not_a_name(text: str) -> None:
    assert consolidate_offline(episode(("Ken", text), ("Ami", "Oh nice."))).profile == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("花子は「はなちゃん」と呼ばれたい。", [("preferred_address", "はなちゃん")]),
        ("私は「はなちゃん」と呼ばれたい。", [("preferred_address", "はなちゃん")]),
        ("みんなに「はなちゃん」って呼ばれてる。", [("nickname", "はなちゃん")]),
        ("妹は「みっちゃん」と呼ばれたい。", []),
        ("山田花子と申します。", [("name", "山田花子")]),
    ],
)
def test_japanese_profile_statements(text: str, expected: list[tuple[str, str]]) -> None:
    result = consolidate_offline(episode(("花子", text), ("ハル", "はい。"), assistant="ハル"))
    assert [(p.key, p.value) for p in result.profile] == expected


def test_speaker_labels_never_end_up_in_a_note() -> None:
    notes = consolidate_offline(
        episode(
            ("Ken", "Ken: I moved to Sapporo in March for a new job at the clinic."),
            ("Ami", "Ami: Oh nice."),
            ("花子", "花子：来月から京都の図書館で司書として働きます。"),
            ("Ami", "Ami: Wow."),
        )
    ).notes
    assert [n.content.split(" (")[0].split("（")[0] for n in notes] == [
        "Ken moved to Sapporo in March for a new job at the clinic.",
        "花子は、来月",
    ]


def test_a_short_answer_is_read_with_the_personas_question() -> None:
    notes = consolidate_offline(
        episode(
            ("Ken", "I work as a pharmacist near the station in Sapporo."),
            ("Haru", "Nice. Where do you live now?"),
            ("Ken", "Osaka."),
            ("Haru", "You live in Chicago, right?"),
            ("Ken", "No."),
            ("Haru", "How are you?"),
            ("Ken", "Thanks!"),
            assistant="Haru",
        )
    ).notes
    assert [(n.source_event_ids, n.content) for n in notes] == [
        ((7,), "Ken works as a pharmacist near the station in Sapporo. (8 May 2023)"),
        ((17, 27), "Asked “Where do you live now?”, Ken answered “Osaka.” (8 May 2023)"),
        ((37, 47), "Asked “You live in Chicago, right?”, Ken answered “No.” (8 May 2023)"),
    ]


def test_the_personas_turns_never_become_notes() -> None:
    notes = consolidate_offline(
        episode(
            ("Ken", "I work as a pharmacist near the station."),
            ("Haru", "You must be a software engineer at a bank in Chicago, right?"),
            ("Haru", "I remember you love jazz and live in Chicago with your two dogs."),
            ("Ken", "No, I'm a pharmacist, as I said."),
            assistant="Haru",
        )
    ).notes
    assert notes and all(n.source_event_ids[0] in {7, 37} for n in notes)
    assert not any("Chicago" in n.content for n in notes)


@pytest.mark.parametrize(
    "text",
    [
        "I play the saxophone.",
        "I speak Portuguese.",
        "My hobby is knitting.",
        "趣味はピアノです。",
        "サックスを吹いています。",
    ],
)
def test_hobbies_skills_and_instruments_are_notes(text: str) -> None:
    notes = consolidate_offline(episode(("Ken", text), ("Ami", "Nice!"))).notes
    assert len(notes) == 1 and notes[0].source_event_ids == (7,)
    assert "hobby" in notes[0].tags


@pytest.mark.parametrize(
    "text",
    [
        "I work at a bakery.",
        "I live in a caravan.",
        "I quit my job.",
        "My husband snores.",
        "パン屋で働いている。",
    ],
)
def test_the_speakers_own_work_home_or_family_in_few_words_is_a_note(text: str) -> None:
    notes = consolidate_offline(episode(("Ken", text), ("Ami", "Oh really?"))).notes
    assert len(notes) == 1 and notes[0].source_event_ids == (7,)


@pytest.mark.parametrize("text", ["My dog is cute.", "I went there.", "I work a lot."])
def test_two_words_without_a_lasting_fact_are_no_note(text: str) -> None:
    assert consolidate_offline(episode(("Ken", text), ("Ami", "Oh really?"))).notes == ()


def test_an_image_caption_rides_along_and_is_never_parsed_from_the_words() -> None:
    events = [
        EventText(
            7,
            "Ken",
            "user",
            "Here is my new horn, I bought it last month for 900 dollars.",
            SAID,
            image_caption="a gold tenor saxophone on a stand",
        ),
        EventText(17, "Ami", "user", "Wow!", SAID),
    ]
    (note,) = consolidate_offline(events).notes
    assert "(Ken shared an image showing a gold tenor saxophone on a stand)" in note.content
    assert "[" not in note.content


def test_a_note_that_does_not_name_its_speaker_says_who_said_it() -> None:
    (note,) = consolidate_offline(
        episode(
            ("Ken", "The clinic near Odori Park closes at seven on Fridays since October."),
            ("Ami", "Good to know."),
        )
    ).notes
    assert note.content.endswith("(Ken, 8 May 2023)")


def test_a_japanese_name_in_hiragana_stays_with_what_it_names() -> None:
    """ "名前はこむぎです" names the dog of the sentence before: a proper noun, even in hiragana,
    so the note keeps it (outside re-measure, bench/results/outside8.md)."""
    events = episode(
        ("ハル", "ペットは飼っていますか？"),
        ("美咲", "柴犬を飼っています。名前はこむぎです。"),
        assistant="ハル",
    )
    [note] = consolidate_offline(events).notes
    assert note.content.startswith("美咲は、柴犬を飼っています。名前はこむぎです。")


def test_the_note_budget_rounds_up_so_a_short_exchange_keeps_each_of_the_users_facts() -> None:
    assert note_budget(3, notes_per_turn=0.5) == 2
    assert note_budget(2, notes_per_turn=0.5) == 1
    assert note_budget(1, notes_per_turn=0.5) == 1
    assert note_budget(0, notes_per_turn=0.5) == 0
    assert note_budget(21, notes_per_turn=0.5) == 11
    assert note_budget(4, notes_per_turn=1.0) == 3
    assert note_budget(21, notes_per_turn=0.5, max_notes=4) == 4


def test_a_three_turn_exchange_keeps_both_facts_the_user_gave() -> None:
    events = episode(
        ("Rau", "I adore damson jam on my toast every morning."),
        ("Haru", "That sounds lovely."),
        ("Rau", "I also collect old jazz records from the sixties."),
        assistant="Haru",
    )
    notes = consolidate_offline(events).notes
    assert len(notes) == 2
    assert "jam" in notes[0].content and "records" in notes[1].content


def test_voiced_sentences_give_a_pasted_exchanges_lines_to_their_labels() -> None:
    from omoide.engine.consolidate.text import voiced_sentences

    assert voiced_sentences("She wrote:\nAna: I passed!\nLeo: Well done, you earned it.") == [
        ("She wrote:", None),
        ("I passed!", "Ana"),
        ("Well done, you earned it.", "Leo"),
    ]
    # one labelled line is a heading, not an exchange: the turn's speaker still says it
    assert voiced_sentences("Update: I got the job.") == [("I got the job.", None)]


def test_a_pasted_exchange_line_is_rewritten_with_its_own_speaker() -> None:
    notes = consolidate_offline(
        episode(
            (
                "Pia",
                "Look what my cousin sent:\nOskar: I bought a sailboat in Kiel!\n"
                "Pia: You are crazy, I love it.",
            ),
            ("Kai", "Ha, nice."),
        ),
        notes_per_turn=1.0,
    ).notes
    assert "Oskar bought a sailboat in Kiel!" in notes[0].content
    assert "Pia bought" not in notes[0].content


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("姉はパン屋を経営しています。", True),
        ("とにかく、同僚のタクミはベジタリアンです。", True),
        ("週末は海で釣りをしています。", False),  # a time as topic sets the scene
        ("最近は早起きしています。", False),
        ("京都には何度も行きました。", False),
    ],
)
def test_a_japanese_sentence_with_its_own_topic_is_not_given_the_speaker_as_topic(
    text: str, own: bool
) -> None:
    notes = consolidate_offline(
        episode(("蓮", text), ("ハル", "なるほど。"), assistant="ハル"),
        notes_per_turn=1.0,
        min_sentence_score=0.0,
    ).notes
    assert notes[0].content.startswith("蓮は、") is not own, notes[0].content
    assert ("（蓮、" in notes[0].content) is own, notes[0].content


@pytest.mark.parametrize(
    ("sentence", "rest"),
    [
        ("My name is Oona Virtanen and I carve spoons from birch.", "I carve spoons from birch."),
        ("I'm Dev Patel, I run a bakery in Leicester.", "I run a bakery in Leicester."),
        ("Call me Bea.", None),
        ("Hi, I'm Bea, nice to meet you!", None),  # nothing besides the introduction
        ("みんなに「ゆう」って呼ばれてるので、ゆうって呼んでね。", None),  # Japanese stays whole
    ],
)
def test_beyond_profile_keeps_the_clauses_that_are_not_the_introduction(
    sentence: str, rest: str | None
) -> None:
    from omoide.engine.consolidate.profile import beyond_profile

    assert beyond_profile(sentence) == rest


def test_a_self_introduction_note_keeps_the_fact_said_with_it() -> None:
    notes = consolidate_offline(
        episode(
            ("Oona", "My name is Oona Virtanen and I carve spoons from birch."),
            ("Kai", "Lovely craft."),
            assistant="Kai",
        )
    ).notes
    assert notes[0].content.startswith(
        "Oona's full name is Oona Virtanen. Oona carves spoons from birch."
    )


@pytest.mark.parametrize(
    ("text", "speaker", "found"),
    [
        ("はじめまして。森田湊です。", "湊", [("name", "森田湊")]),
        ("僕は森田湊です。よろしく！", "湊", [("name", "森田湊")]),
        ("学生です。", "湊", []),  # not the speaker's name
        ("これは湊ですか？", "湊", []),  # not a sentence of its own
        ("森田湊です。", None, []),  # the speaker's name is unknown
    ],
)
def test_a_japanese_sentence_that_is_the_speakers_own_name_introduces_them(
    text: str, speaker: str | None, found: list[tuple[str, str]]
) -> None:
    from omoide.engine.consolidate.profile import find_profile_statements

    assert find_profile_statements(text, speaker=speaker) == found


def test_a_note_does_not_start_with_the_and_left_after_its_interjection() -> None:
    notes = consolidate_offline(
        episode(
            ("Pia", "Oh, and I restore old Vespas in my garage."), ("Kai", "Cool."), assistant="Kai"
        )
    ).notes
    assert notes[0].content.startswith("Pia restores old Vespas in Pia's garage.")


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("自転車の名前は「あかね号」にしたよ", "自転車の名前は「あかね号」にした"),
        ("新しい仕事を始めたんだ", "新しい仕事を始めた"),
        ("ギターを始めたんだよね。", "ギターを始めた。"),
        ("毎朝走るよ", "毎朝走る"),
        ("猫が好きなんだよ", "猫が好き"),
        ("このラーメン美味しいね", "このラーメン美味しい"),
        ("来週は実家に帰るぞ！", "来週は実家に帰る！"),
        # kept: a past tense in んだ, polite endings, a question, a noun before the kana
        ("本を読んだ", "本を読んだ"),
        ("大阪に住んだ", "大阪に住んだ"),
        ("柴犬を飼っています。", "柴犬を飼っています。"),
        ("明日は雨かな", "明日は雨かな"),
        ("趣味はテニスね", "趣味はテニスね"),
        ("それでいいのよ", "それでいいのよ"),
    ],
)
def test_a_casual_japanese_statement_keeps_its_plain_form(said: str, stated: str) -> None:
    assert plain_japanese_ending(said) == stated


def test_a_casual_japanese_turn_becomes_a_note_in_the_stores_voice() -> None:
    """First-person casual Japanese (subject dropped, a particle to the listener): the note
    states it, it does not copy the turn."""
    day = datetime(2026, 5, 8)
    contents = [
        consolidate_offline([EventText(1, "花子", "user", said, day)]).notes[0].content
        for said in (
            "自転車の名前は「あかね号」にしたよ",
            "俺、毎朝5キロ走ってるんだよね",
            "昨日京都に引っ越したよ",
        )
    ]
    assert contents[0] == "花子は、自転車の名前は「あかね号」にした（2026年5月8日）"
    assert contents[2] == "花子は、昨日（2026年5月7日）京都に引っ越した（2026年5月8日）"
    assert not [c for c in contents if "よ" in c or "んだ" in c], contents
