"""Consolidating a user's chat with the persona (issue 8, "no conversation is lost"): the note
budget counts the user's turns, a short answer is read with the persona's question when a
piece of it would be lost, a dropped "I" is given back and an opening "she"/"he" is bound to
the one person it can mean. Every example is invented."""

from __future__ import annotations

from datetime import datetime

import pytest

from omoide.engine.consolidate import (
    EventText,
    NoteKind,
    consolidate_offline,
    count_persona_turns,
    note_budget,
)
from omoide.engine.consolidate.rules import carries_content, names_itself, strip_interjections
from omoide.engine.consolidate.subjects import (
    Referents,
    bind_pronouns,
    introduced,
    referents_by_turn,
    restore_dropped_subject,
)

SAID = datetime(2026, 3, 2, 10, 0)


def chat(*turns: tuple[str, str], user: str = "Rin", persona: str = "Mika") -> list[EventText]:
    """``("u", text)`` is the user's turn, ``("a", text)`` the persona's; ids 5, 15, 25 …"""
    return [
        EventText(
            event_id=10 * i + 5,
            speaker=user if who == "u" else persona,
            role="user" if who == "u" else "assistant",
            text=text,
            timestamp=SAID,
        )
        for i, (who, text) in enumerate(turns)
    ]


# -- the budget ----------------------------------------------------------------------------------


def test_with_the_persona_in_the_chat_every_user_turn_may_make_a_note() -> None:
    assert note_budget(10, notes_per_turn=0.5, persona_turns=3) == 7
    assert note_budget(10, notes_per_turn=0.5, persona_turns=5) == 5
    assert note_budget(2, notes_per_turn=0.5, persona_turns=1) == 1
    assert note_budget(10, notes_per_turn=0.5, persona_turns=3, max_notes=4) == 4


def test_between_people_only_the_budget_is_half_the_turns_as_before() -> None:
    assert note_budget(10, notes_per_turn=0.5) == 5
    assert note_budget(21, notes_per_turn=0.5, persona_turns=0) == 11
    assert note_budget(3, notes_per_turn=0.5) == 2


RUN_OF_USER_TURNS = chat(
    ("u", "I finally switched from black tea to rooibos, my dentist said the tannins stain."),
    ("u", "My brother Teo is moving to Valencia in March."),
    ("a", "Valencia! What's taking him there?"),
    ("u", "He got a job at a robotics lab there."),
    ("u", "I'm helping him pack up his flat next weekend."),
    ("a", "That's kind of you. How are you otherwise?"),
    ("u", "I started volunteering at the animal shelter on Saturdays."),
    ("u", "Mostly I walk the older dogs, the ones nobody adopts."),
    ("a", "That sounds rewarding."),
    ("u", "My neighbour Ines gave me her old bike, so I cycle there now."),
)


def test_a_run_of_informative_user_turns_keeps_every_one_of_them() -> None:
    """Half of the ten turns (five notes) cut two of the seven facts; the persona's three
    turns are not the user's to summarise."""
    assert count_persona_turns(RUN_OF_USER_TURNS) == 3
    notes = consolidate_offline(RUN_OF_USER_TURNS).notes
    cited = {i for n in notes for i in n.source_event_ids}
    users = {e.event_id for e in RUN_OF_USER_TURNS if e.role == "user"}
    assert users <= cited
    assert len(notes) == 7


# -- a short answer read with the question -------------------------------------------------------


def test_an_answer_whose_first_piece_would_be_lost_is_read_with_the_question() -> None:
    notes = consolidate_offline(
        chat(
            ("u", "I ran a half marathon on Sunday!"),
            ("a", "Amazing! When did you start running?"),
            ("u", "march. after the move I needed a routine of my own"),
        )
    ).notes
    last = notes[-1]
    assert last.source_event_ids == (15, 25)
    assert "When did you start running?" in last.content and "march." in last.content


def test_a_subjectless_answer_is_read_with_the_question() -> None:
    notes = consolidate_offline(
        chat(
            ("u", "I joined a pottery class."),
            ("a", "Fun! How often does it meet?"),
            ("u", "every tuesday evening, two hours. it's at the community centre downtown"),
        )
    ).notes
    assert notes[-1].source_event_ids == (15, 25)
    assert notes[-1].content.startswith("Asked “Fun! How often does it meet?”") or (
        "How often does it meet?" in notes[-1].content
    )


def test_an_answer_keeps_the_kind_its_own_sentences_have() -> None:
    notes = consolidate_offline(
        chat(
            ("u", "I tried every tea at the new shop."),
            ("a", "Do you even like green tea?"),
            ("u", "honestly not really. I love the roasted kind though, the dark one"),
        )
    ).notes
    assert notes[-1].source_event_ids == (15, 25)
    assert notes[-1].kind == NoteKind.PREFERENCE


def test_a_turn_that_names_its_subject_keeps_its_own_words() -> None:
    notes = consolidate_offline(
        chat(
            ("u", "Long week."),
            ("a", "What happened?"),
            ("u", "I handed in my notice at the agency on Friday."),
        )
    ).notes
    assert [n.source_event_ids for n in notes] == [(25,)]
    assert notes[0].content.startswith("Rin handed in")


@pytest.mark.parametrize(
    ("piece", "content"),
    [
        ("september.", True),
        ("four days.", True),
        ("only partly.", True),
        ("経理。", True),
        ("tired.", False),
        ("busy.", False),
        ("not really lol.", False),
        ("yes!!", False),
        ("ok-ish.", False),
        ("うん。", False),
        ("眠い。", False),
        ("What about you?", False),
    ],
)
def test_what_counts_as_a_piece_of_an_answer(piece: str, content: bool) -> None:
    assert carries_content(piece, frozenset()) is content


# -- the speaker's dropped "I" -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "earlier", "restored"),
    [
        ("went to the dentist this morning", [], "I went to the dentist this morning"),
        ("Booked it for May 3", [], "I booked it for May 3"),
        (
            "adopted her from the shelter on saturday.",
            ["guess what"],
            "I adopted her from the shelter on saturday.",
        ),
        ("finally got a cat", [], "I finally got a cat"),
        ("started volunteering on Saturdays", [], "I started volunteering on Saturdays"),
        (  # the dropped subject goes on with the one the sentence before opened with
            "said I can borrow her van",
            ["she was lovely about it."],
            "She said I can borrow her van",
        ),
        (  # someone else spoke before, but not as the opening subject: left as written
            "said I can borrow her van",
            ["I asked her about it.", "she was lovely about it, and my aunt agreed."],
            "She said I can borrow her van",
        ),
        (
            "said I can borrow her van",
            ["my aunt asked if she could help."],
            "said I can borrow her van",
        ),
        ("Got it, see you then", [], "Got it, see you then"),
        ("excited for the trip next week", [], "excited for the trip next week"),
        ("tired of client deadlines", [], "tired of client deadlines"),
        ("used to be ten minutes", [], "used to be ten minutes"),
        ("Ellie won the spelling bee", [], "Ellie won the spelling bee"),
    ],
)
def test_a_dropped_i_is_given_back(sentence: str, earlier: list[str], restored: str) -> None:
    assert restore_dropped_subject(sentence, earlier) == restored


def test_a_note_of_a_dropped_i_names_the_speaker() -> None:
    (note,) = consolidate_offline(
        chat(("u", "ok-ish. went to the clinic this morning for a checkup"), ("a", "Good for you!"))
    ).notes
    assert note.content.startswith("Rin went to the clinic")


# -- an opening "she" / "he" ---------------------------------------------------------------------


def test_who_a_turn_introduces() -> None:
    assert introduced("My sister Lucia is moving to Lisbon.") == [("Lucia", "she")]
    assert introduced("my uncle flew in") == [("my uncle", "he")]
    assert introduced("my partner Chris and I") == [("Chris", "either")]
    assert introduced("my sister's coming over") == [("my sister", "she")]
    assert introduced("Lucia is moving.") == []


def test_an_opening_pronoun_is_bound_to_the_person_introduced_before() -> None:
    """The persona echoing a place the user named ("Why Lisbon?") brings no one new."""
    events = chat(
        ("u", "My sister Lucia is moving to Lisbon in January."),
        ("a", "Oh wow, why Lisbon?"),
        ("u", "She got a job at a design studio there."),
    )
    (_, _, third) = referents_by_turn(events)
    assert third == Referents(she="Lucia", he=None)
    notes = consolidate_offline(events).notes
    assert notes[-1].content.startswith("Lucia got a job at a design studio there.")


def test_a_relation_without_a_name_binds_as_the_speakers_relation() -> None:
    notes = consolidate_offline(
        chat(
            ("u", "my grandma is in the hospital, it's her hip"),
            ("a", "Oh no. What happened?"),
            ("u", "she fell in her kitchen on tuesday and broke her hip"),
        )
    ).notes
    assert notes[-1].content.startswith("Rin's grandma fell in her kitchen")


def test_a_possessive_opening_is_bound_too() -> None:
    assert bind_pronouns(["His mom runs the kitchen."], Referents(she=None, he="Chris")) == [
        "Chris's mom runs the kitchen."
    ]


@pytest.mark.parametrize(
    "between",
    [
        ("a", "Does Omar mind?"),  # the persona names someone else
        ("u", "I asked Omar to help too."),  # so does the user
    ],
)
def test_a_name_said_in_between_leaves_the_pronoun_unbound(between: tuple[str, str]) -> None:
    events = chat(
        ("u", "My friend Sol moved to Quito."), between, ("u", "He says the altitude is rough.")
    )
    assert referents_by_turn(events)[-1] == Referents()


def test_two_people_a_pronoun_may_mean_bind_neither() -> None:
    events = chat(
        ("u", "My sister and my mom are visiting."),
        ("a", "Nice!"),
        ("u", "She booked a hotel near the harbour last week."),
    )
    assert referents_by_turn(events)[-1].she is None
    assert consolidate_offline(events).notes[-1].content.startswith("She booked")


def test_another_persons_turn_in_between_leaves_the_pronoun_unbound() -> None:
    """Between people (as LoCoMo is posted) the other speaker's turn may change whom "she"
    means: only the persona's turns may stand between."""
    events = [
        EventText(1, "Ana", "user", "My sister Ines got engaged.", SAID),
        EventText(2, "Bo", "user", "Congrats to her!", SAID),
        EventText(3, "Ana", "user", "She is over the moon.", SAID),
    ]
    assert referents_by_turn(events)[-1] == Referents()


def test_a_pronoun_after_someone_new_in_the_same_turn_is_left_to_its_note() -> None:
    assert bind_pronouns(["My aunt Vera called.", "She sounded well."], Referents(she="Lucia")) == [
        "My aunt Vera called.",
        "She sounded well.",
    ]


def test_a_japanese_turn_is_left_as_written() -> None:
    events = chat(
        ("u", "妹の美咲が来月結婚するの。"),
        ("a", "おめでとう！"),
        ("u", "彼女は大学の同級生と付き合ってた。"),
        user="さき",
        persona="ハル",
    )
    assert referents_by_turn(events)[-1] == Referents()


def test_a_short_japanese_answer_is_read_with_its_question() -> None:
    """Japanese leaves out the topic the question set: 「仙台。宮城の」 says where home is only
    next to 「地元ってどこだっけ？」."""
    assert not names_itself("週に三回くらい。")
    notes = consolidate_offline(
        chat(
            ("u", "来月、地元に戻ることにした。"),
            ("a", "おめでとう！地元ってどこだっけ？"),
            ("u", "仙台。宮城の海のほう"),
            user="ゆう",
            persona="ユリ",
        )
    ).notes
    assert notes[-1].source_event_ids == (15, 25)
    assert "地元ってどこだっけ？" in notes[-1].content and "仙台" in notes[-1].content


# -- a Japanese vocative -------------------------------------------------------------------------


def test_a_japanese_vocative_is_not_part_of_the_note() -> None:
    assert strip_interjections("ユリ、聞いて。", frozenset({"ユリ"})) == "聞いて。"
    assert strip_interjections("ハルさん！会社辞めた", frozenset({"ハル"})) == "会社辞めた"
    assert strip_interjections("妹、結婚した", frozenset({"ユリ"})) == "妹、結婚した"
    notes = consolidate_offline(
        chat(
            ("u", "ユリ、聞いて。会社辞めることにした"),
            ("a", "えっ、ほんとに？"),
            user="ゆう",
            persona="ユリ",
        )
    ).notes
    assert notes and "ユリ" not in notes[0].content


def test_a_japanese_answer_that_repeats_none_of_the_questions_words_leans_on_it() -> None:
    from omoide.engine.consolidate.answers import leans_on_the_question

    [question, answer] = chat(
        ("a", "引っ越し先は決まった？"),
        ("u", "三つまで絞ったけど、まだ迷ってる"),
        user="だい",
        persona="ユリ",
    )
    assert leans_on_the_question(question, answer)
    [pets, dog] = chat(("a", "ペットは飼っていますか？"), ("u", "柴犬を飼っています。"))
    assert not leans_on_the_question(pets, dog)  # it repeats 飼: it says its own topic
    [how, news] = chat(("a", "どうしたの？"), ("u", "ピアノ教室やめちゃった"))
    assert not leans_on_the_question(how, news)  # no word to lean on
    [clinic, plan] = chat(("a", "歯医者は行った？"), ("u", "まだ。来週行こうかなって"))
    assert leans_on_the_question(clinic, plan)  # 行 is the verb; 歯医者 is the topic


def test_a_wrong_guess_corrected_in_japanese_stays_out_of_the_note() -> None:
    notes = consolidate_offline(
        chat(
            ("a", "お仕事は看護師さんでしたよね？"),
            ("u", "いいえ、図書館の司書として働いています。"),
            user="花子",
            persona="ハル",
        )
    ).notes
    assert notes and "看護師" not in notes[-1].content and "司書" in notes[-1].content


def test_an_answer_note_resolves_its_relative_dates() -> None:
    notes = consolidate_offline(
        chat(
            ("u", "I'm visiting my aunt."),
            ("a", "Nice! When are you going?"),
            ("u", "next week. the train is booked"),
        )
    ).notes
    assert "next week (the week after 2 March 2026)" in notes[-1].content


def test_a_preference_said_in_two_words_is_a_note() -> None:
    notes = consolidate_offline(
        chat(("a", "Anything you won't eat?"), ("u", "I really hate olives."), ("a", "Nice!"))
    ).notes
    assert [(n.content, n.kind) for n in notes] == [
        ("Rin really hates olives. (2 March 2026)", NoteKind.PREFERENCE)
    ]
    assert consolidate_offline(chat(("u", "I love it!"), ("a", "Great."))).notes == ()


def test_the_personas_question_about_the_users_person_binds_the_answers_pronoun() -> None:
    """ "How did your coach take it?" — "he was fine with it. said I can …": the persona's
    "your coach" is the user's "my coach", whom the answer's "he" and its dropped subject
    mean."""
    events = chat(
        ("u", "I told everyone at the club I'm taking a break from rowing."),
        ("a", "That's a big step. How did your coach take it?"),
        ("u", "he was fine with it. said I can come back whenever I want"),
    )
    assert referents_by_turn(events)[-1] == Referents(she="my coach", he="my coach")
    assert (
        consolidate_offline(events)
        .notes[-1]
        .content.startswith("Rin's coach said Rin can come back whenever Rin wants")
    )


def test_the_personas_question_keeps_the_name_the_user_gave() -> None:
    events = chat(
        ("u", "My sister Lucia is moving to Lisbon in January."),
        ("a", "Exciting! Is your sister nervous about it?"),
        ("u", "She found a flat near the river last week."),
    )
    assert referents_by_turn(events)[-1] == Referents(she="Lucia", he=None)


def test_the_persona_naming_two_of_the_users_people_binds_neither() -> None:
    events = chat(
        ("u", "Big family dinner at my place on Sunday."),
        ("a", "Are your mom and your aunt coming?"),
        ("u", "She said she'd bring dessert."),
    )
    assert referents_by_turn(events)[-1].she is None


def test_an_answer_of_up_to_twenty_words_is_read_with_the_question() -> None:
    """A piece of the question's topic ("two, both rescues") opens an answer that goes on:
    the answer is read with the question as a short one is (issue 8, chats)."""
    events = chat(
        ("u", "Finally moved into the house with the big garden last weekend."),
        ("a", "Lovely! How many dogs do you have now?"),
        ("u", "two, both rescues. the older one hates the car so we walk the long way to the vet"),
    )
    note = consolidate_offline(events).notes[-1]
    assert note.content.startswith(
        "Asked “How many dogs do you have now?”, Rin answered “two, both rescues. the older one"
    )
    assert note.source_event_ids == (15, 25)


@pytest.mark.parametrize(
    ("sentence", "own"),
    [
        (
            "兄はずっと札幌勤務で、正月しか帰ってこない",
            True,
        ),  # a bare kin word: the speaker's brother
        ("母が先週から入院してて", True),
        ("田中さんはずっと札幌勤務で、正月しか帰ってこない", False),  # someone else, by name
        ("彼女はずっと札幌勤務で、正月しか帰ってこない", False),
    ],
)
def test_a_japanese_bare_kin_subject_is_the_speakers_own(sentence: str, own: bool) -> None:
    """Japanese says "my brother" by not honouring him (兄, not お兄さん): a sentence about
    the speaker's family is about the speaker's life, as "my brother …" is in English."""
    from omoide.engine.consolidate.rules import Cue, score_sentence

    assert (Cue.FIRST_PERSON in score_sentence(sentence, frozenset()).cues) is own


def test_news_of_the_speakers_family_in_japanese_makes_a_note() -> None:
    events = chat(
        ("u", "来週、引っ越しなんです。"),
        ("a", "大変ですね！"),
        ("u", "兄は札幌勤務なので引っ越しは無理だけど、荷物の車は貸してくれるって"),
    )
    notes = consolidate_offline(events).notes
    assert notes[-1].source_event_ids == (25,)
    assert notes[-1].content.startswith("兄は札幌勤務なので")


@pytest.mark.parametrize(
    ("laughing", "plain"),
    [
        (
            "my calves are completely wrecked from the hike lol",
            "my calves are completely wrecked from the hike",
        ),
        ("右手の指が全然動かない笑", "右手の指が全然動かない"),
        ("右手の指が全然動かないｗｗ", "右手の指が全然動かない"),
    ],
)
def test_a_sentence_that_ends_laughing_scores_less(laughing: str, plain: str) -> None:
    """A passing remark ends laughing; a word that merely ends in "w" ("I know", "now") is no
    laugh."""
    from omoide.engine.consolidate.rules import score_sentence

    assert score_sentence(laughing, frozenset()).score < score_sentence(plain, frozenset()).score
    assert (
        score_sentence("I moved to a new flat near the river just now", frozenset()).score
        == score_sentence("I moved to a new flat near the river just now.", frozenset()).score
    )


def test_a_laughing_remark_alone_makes_no_note_but_news_still_does() -> None:
    events = chat(
        ("u", "finally did the ten mile hike"),
        ("a", "Wow, how do you feel?"),
        ("u", "my calves are wrecked from the hike lol"),
        ("a", "Ha! Rest up."),
        ("u", "I got the job at the Lisbon design studio lol"),
    )
    sources = [n.source_event_ids for n in consolidate_offline(events).notes]
    assert (25,) not in sources and (45,) in sources


def test_a_drawn_out_japanese_call_is_a_vocative() -> None:
    """「ミナ〜」 calls the persona as 「ミナ、」 does."""
    assert strip_interjections("ミナ〜暑すぎる", frozenset({"ミナ"})) == "暑すぎる"
    assert strip_interjections("ユーリ〜、聞いて！", frozenset({"ユーリ"})) == "聞いて！"
    assert strip_interjections("ハルさん〜今日ね", frozenset({"ハル"})) == "今日ね"


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("My sister is coming over with her kids tomorrow.", "fact"),  # news of someone
        ("My dad keeps sending me jars of his honey.", "fact"),
        ("My sister is 12 and my brother is 9.", "profile"),  # who the speaker's people are
        ("My sister is a nurse in Leeds.", "profile"),
        ("My partner Chris is coming along.", "profile"),  # naming them says who they are
        ("I work as a welder at the shipyard.", "profile"),  # the speaker's own profile
        ("妻は今、実家に帰っています。", "fact"),
        ("猫が二匹います。", "profile"),
    ],
)
def test_news_of_the_speakers_people_is_a_fact(sentence: str, kind: str) -> None:
    """A mention of "my sister" or 妻 is a profile cue only when the sentence says who they
    are; what they did or are doing is news, a fact."""
    from omoide.engine.consolidate.render import note_kind
    from omoide.engine.consolidate.rules import score_sentence

    assert note_kind(score_sentence(sentence, frozenset())) == kind
