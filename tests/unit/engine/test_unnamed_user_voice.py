"""A turn labelled only with the user's role ("User", "user", "ユーザー"): its notes say "the
user" / 「ユーザー」, capitalised where a sentence opens with it; a real name is kept as is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from omoide.engine.consolidate.offline import consolidate_offline
from omoide.engine.consolidate.rewrite import to_third_person
from omoide.engine.consolidate.types import EventText
from omoide.engine.consolidate.voice import is_role_label, spoken_name

WHEN = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


def _notes(*turns: tuple[str, str, str]) -> list[str]:
    events = [
        EventText(i, speaker, role, text, WHEN) for i, (speaker, role, text) in enumerate(turns)
    ]
    return [n.content for n in consolidate_offline(events, notes_per_turn=1).notes]


@pytest.mark.parametrize("label", ["User", "user", " USER ", "ユーザー"])
def test_a_role_label_is_not_a_name(label: str) -> None:
    assert is_role_label(label)
    assert spoken_name(label, japanese=False) == "the user"
    assert spoken_name(label, japanese=True) == "ユーザー"


@pytest.mark.parametrize("name", ["Teu", "Userin", "ゆうこ"])
def test_a_name_is_kept(name: str) -> None:
    assert not is_role_label(name)
    assert spoken_name(name, japanese=False) == name


def test_english_notes_open_with_the_user() -> None:
    notes = _notes(
        ("User", "user", "My brother is moving to Lisbon in March for a new job."),
        ("kiri", "assistant", "Oh, nice."),
        ("User", "user", "I started learning Portuguese so I can visit him."),
    )
    assert notes[0].startswith("The user's brother is moving to Lisbon"), notes
    assert notes[1].startswith("The user started learning Portuguese"), notes
    assert not [n for n in notes if "User" in n], notes


def test_japanese_notes_speak_of_the_user() -> None:
    notes = _notes(
        ("user", "user", "私の妹は来月から札幌の病院で看護師として働きます。"),
        ("kiri", "assistant", "素敵ですね。"),
        ("user", "user", "来年の目標は、フルマラソンを完走することです。"),
    )
    assert notes[0].startswith("ユーザーの妹は来月"), notes
    assert notes[1].startswith("ユーザーは、来年"), notes


def test_a_note_that_does_not_name_them_says_the_user_said_it() -> None:
    notes = _notes(
        ("User", "user", "The bakery on Elm Street closes at six on Sundays now."),
        ("kiri", "assistant", "Good to know."),
    )
    assert notes == [
        "The bakery on Elm Street closes at six on Sundays now. (the user, 3 December 2026)"
    ]


def test_a_self_introduction_and_an_answer() -> None:
    notes = _notes(
        ("User", "user", "Hi, I'm Mateus Ferreira, I blow glass in Sendai."),
        ("kiri", "assistant", "Where is your studio?"),
        ("User", "user", "Izumi."),
    )
    assert notes[0].startswith("The user's full name is Mateus Ferreira. The user blows glass")
    assert notes[1].startswith("Asked “Where is your studio?”, the user answered “Izumi.”")


def test_the_unnamed_user_addressed_in_japanese_takes_no_honorific() -> None:
    """「あなた」 said to the unnamed user becomes 「ユーザー」, never 「ユーザーさん」; a name
    takes さん."""
    assert (
        to_third_person("あなたは猫が好きですね。", "ハル", addressee="ユーザー", japanese=True)
        == "ユーザーは猫が好きです。"
    )  # ね spoke to them
    assert (
        to_third_person("あなたの猫は元気？", "ハル", addressee="美咲", japanese=True)
        == "美咲さんの猫は元気？"
    )
    for label in ("User", "user", "ユーザー"):  # someone else in the chat, a pasted exchange
        told = _notes(
            (label, "user", "来月は東京で個展を開く予定です。"),
            ("佐藤", "other", "あなたの作品が来月の県展に入選しました。"),
            (label, "user", "本当に嬉しいです。"),
        )
        pasted = _notes(
            (
                label,
                "user",
                "先生とのやりとりです。\n"
                "佐藤: あなたの作品が県展に入選しました。\n"
                f"{label}: ありがとうございます！",
            )
        )
        assert any("佐藤は、ユーザーの作品が" in n for n in told), told
        assert pasted[0].startswith("ユーザーの作品が県展に入選しました。"), pasted
        assert not [n for n in told + pasted if "さん" in n], (told, pasted)
    named = _notes(
        (
            "美咲",
            "user",
            "先生とのやりとりです。\n"
            "佐藤: あなたの作品が県展に入選しました。\n美咲: ありがとうございます！",
        )
    )
    assert named[0].startswith("美咲さんの作品が県展に入選しました。"), named
