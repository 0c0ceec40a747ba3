"""A user's turn that only accepts what the persona proposed makes no note
(engine.consolidate.assent); one that accepts and says something of its own is read as usual.
Every example is invented."""

from __future__ import annotations

from datetime import datetime

import pytest

from omoide.engine.consolidate import EventText, consolidate_offline
from omoide.engine.consolidate.assent import only_accepts, proposes

SAID = datetime(2026, 5, 4, 9, 0)


def turn(text: str, *, user: bool, event_id: int = 1) -> EventText:
    return EventText(
        event_id=event_id,
        speaker="Rin" if user else "Mika",
        role="user" if user else "assistant",
        text=text,
        timestamp=SAID,
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Maybe a glass of water before the coffee?", True),
        ("Hmm, how about a short walk after lunch?", True),
        ("Ping me again on Friday? Let me know?", True),
        ("Want me to remind you tomorrow?", True),
        ("散歩してみたら？", True),
        ("週末に図書館で勉強するのはどう？", True),
        ("Where did you grow up?", False),
        ("Would you go back there in the autumn?", False),
        ("Do you like the new flat?", False),
        ("That sounds hard. Maybe it gets easier.", False),  # a statement, not a question
        ("どこに住んでるの？", False),
    ],
)
def test_a_proposal_is_told_from_a_question_about_the_user(question: str, expected: bool) -> None:
    assert proposes(turn(question, user=False)) is expected


def test_the_users_own_proposal_is_not_the_personas() -> None:
    assert not proposes(turn("Maybe we should cook tonight?", user=True))


@pytest.mark.parametrize(
    "answer",
    [
        "sure, I'll try that",
        "hm, fair enough, that could work",
        "will do. gotta run, thanks!",
        "deal!",
        "sounds like a plan, talk tomorrow",
        "そうしてみる！",
        "いいね、やってみる。おやすみ",
    ],
)
def test_an_answer_that_only_accepts(answer: str) -> None:
    assert only_accepts(
        turn("Maybe a short walk after lunch?", user=False),
        turn(answer, user=True),
        frozenset({"Rin", "Mika"}),
    )


@pytest.mark.parametrize(
    "answer",
    [
        "sure. I already walk to the station every morning though",
        "yeah, my doctor said the same. one walk a day for now",
        "そうする。あ、そういえば来月から夜勤になるんだ",
        "それありだな。公園のクラブ調べてみる",  # a plan of its own, not just a yes
    ],
)
def test_an_answer_that_accepts_and_says_more(answer: str) -> None:
    assert not only_accepts(
        turn("Maybe a short walk after lunch?", user=False),
        turn(answer, user=True),
        frozenset({"Rin", "Mika"}),
    )


def test_a_yes_to_a_question_about_the_user_is_still_an_answer() -> None:
    """ "sure" after "Do you still swim on Sundays?" says something about the user."""
    assert not only_accepts(
        turn("Do you still swim on Sundays?", user=False),
        turn("sure", user=True),
        frozenset({"Rin", "Mika"}),
    )
    events = [
        turn("I got a new bike last week, a blue one.", user=True, event_id=1),
        turn("Nice! Do you still swim on Sundays?", user=False, event_id=2),
        turn("sure", user=True, event_id=3),
    ]
    notes = consolidate_offline(events).notes
    assert any(3 in n.source_event_ids for n in notes)


def test_accepting_a_proposal_makes_no_note() -> None:
    events = [
        turn("I started a night shift job at the bakery on Monday.", user=True, event_id=1),
        turn("How are you sleeping? Maybe blackout curtains?", user=False, event_id=2),
        turn("sure, worth a shot. night!", user=True, event_id=3),
    ]
    notes = consolidate_offline(events).notes
    assert [n.source_event_ids for n in notes] == [(1,)]
