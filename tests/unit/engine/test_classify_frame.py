"""The fact inside a reporting frame, and end cues under negation (EN and JA)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import classify_pair, read_pair
from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.frame import unframe
from omoide.engine.classify.text import cue, parse


@pytest.mark.parametrize(
    ("framed", "bare"),
    [
        ("Aiko said she has never been to Kyoto.", "Aiko has never been to Kyoto."),
        ("Marco mentioned that he has not booked a holiday.", "Marco has not booked a holiday."),
        ("Priya said she's moving to Bristol.", "Priya is moving to Bristol."),
        (
            "After the surgery, Ken said his knee no longer hurts.",
            "After the surgery, Ken's knee no longer hurts.",
        ),
        ("My doctor said I should cut sugar.", "I should cut sugar."),
        ("According to her coach, Mina is the fastest swimmer.", "Mina is the fastest swimmer."),
        ("Mina is the fastest swimmer, according to her coach.", "Mina is the fastest swimmer."),
        (
            "Sam is renovating the kitchen and said he wants it done by May.",
            "Sam is renovating the kitchen and he wants it done by May.",
        ),
        ("Ken's rent as of 2025-04: £1,100 a month.", "Ken's rent: £1,100 a month."),
        (
            "Schedule (as of 2025-09): two gym sessions a week.",
            "Schedule: two gym sessions a week.",
        ),
    ],
)
def test_english_frames_are_read_through(framed: str, bare: str) -> None:
    assert unframe(framed, "en") == bare


@pytest.mark.parametrize(
    ("framed", "bare"),
    [
        ("陽太さんは毎朝6時に川沿いを走ると話していた。", "陽太さんは毎朝6時に川沿いを走る。"),
        ("引っ越しの話は白紙に戻したとのこと。", "引っ越しの話は白紙に戻した。"),
        ("美咲さんは車の購入もまだ考えていないという。", "美咲さんは車の購入もまだ考えていない。"),
        ("兄も転職を希望したそうだ。", "兄も転職を希望した。"),
        ("医師によると、田中さんの腰痛はヘルニアが原因。", "田中さんの腰痛はヘルニアが原因。"),
        ("2025年9月時点で、姉の家賃は月9万円。", "姉の家賃は月9万円。"),
        ("社員数（2026年1月時点）：14人", "社員数:14人"),
    ],
)
def test_japanese_frames_are_read_through(framed: str, bare: str) -> None:
    assert unframe(framed, "ja") == bare


@pytest.mark.parametrize(
    "text",
    [
        "The user moved from Tokyo to Osaka last month.",
        "I love green tea.",
        "Tom drives a Tesla.",
        "雨が降りそうだ。",
        "ユーザーは東京に住んでいる。",
        "ユーザーは男らしい服が好き",
        "half a pack a day is costing me $150 a month",
        "The user's parrot says a few words of French.",
        "Mina now reports to Carla Ruiz.",
        "The user shares a flat with two friends.",
        "Since the doctor told him to walk, he walks.",
        "Uses a 13-inch MacBook Air M1 (2020)",
        "私は現在、市役所で働いている",
    ],
)
def test_a_memory_without_a_frame_is_unchanged(text: str) -> None:
    assert unframe(text) == text


@given(st.text(max_size=60))
def test_unframe_never_empties_a_memory(text: str) -> None:
    bare = unframe(text)
    assert isinstance(bare, str)
    assert bare.strip() or not text.strip()


def test_a_reported_present_fact_is_no_past_occasion() -> None:
    """「…と話していた」 and "said" are past forms of the frame, not of the fact."""
    old = "陽太さんは毎朝6時に川沿いを走ると話していた。"
    new = "陽太さんは今は毎朝7時に川沿いを走る。"
    framed = read_pair(old, new, lang="ja").features[TEXT_FEATURES.index("old_past")]
    bare = read_pair(unframe(old), new, lang="ja").features[TEXT_FEATURES.index("old_past")]
    assert framed == bare == 0.0


def test_the_frame_changes_nothing_the_rules_see() -> None:
    old, new = "Ken said he works at a bakery in Leeds.", "Ken works at a bakery in Leeds."
    assert classify_pair(old, new, lang="en") == classify_pair(unframe(old), new, lang="en")


@pytest.mark.parametrize(
    "text",
    [
        "Jon is not gonna give up on his dreams.",
        "Jon won't quit.",
        "Never give up.",
        "Instead of giving up, Jon kept going.",
        "Jon is not giving up.",
        "Mia has no intention of cancelling the trip.",
        "彼は夢を諦めない。",
        "彼は仕事を辞めずに続けている。",
        "彼はジムをやめるつもりはない。",
        "旅行は中止しない。",
        "Sam won't ever stop painting.",
        "Mia isn't planning to stop running.",
        "Jon is not going to quit his job.",
        "Jon is not even thinking about quitting.",
        "Jon has no plans whatsoever to quit.",
        "Giving up is not an option for Jon.",
        "彼はピアノをやめる気はさらさらない。",
        "ジョギングをやめようとは思っていない。",
        "仕事を辞める予定はありません。",
        "水泳をやめるなんて考えていない。",
    ],
)
def test_a_negated_stop_verb_is_no_end(text: str) -> None:
    assert not cue(lex.STOPPED, parse(text))


@pytest.mark.parametrize(
    "text",
    [
        "Jon quit his job.",
        "Jon doesn't play tennis anymore.",
        "Jon no longer smokes.",
        "Jon used to swim.",
        "The trip was cancelled.",
        "彼はジムをやめた。",
        "もうタバコは吸わない。",
        "旅行は中止になった。",
        "アルバイトを辞めました",
        "Jon did not enjoy the job and quit.",
        "She never liked it, so she quit.",
        "やめるしかない。",
        "辞めると決めた人は少ない。",
    ],
)
def test_an_end_cue_still_ends(text: str) -> None:
    assert cue(lex.STOPPED, parse(text))


def test_continuing_is_not_read_as_stopping() -> None:
    relation, _, reason = classify_pair(
        "Jon wants to open a dance studio.", "Jon is not giving up on the dance studio.", lang="en"
    )
    assert "ended" not in reason
    assert relation.value != "CONTRADICTORY"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Jon plans to open a dance studio.", "Jon is not gonna give up on the studio."),
        ("Sam is thinking about quitting painting.", "Sam won't ever stop painting."),
        ("Mia plans to run the Berlin marathon.", "Mia is not going to skip the Berlin marathon."),
        ("来年ピアノの発表会に出る予定。", "ピアノをやめる気はない。"),
    ],
)
def test_a_refused_end_plans_nothing_and_undoes_no_plan(old: str, new: str) -> None:
    # The intention frame under the negation ("not going to", "won't ever", 気はない) is the
    # refusal itself: no plan cue, no plan called off, no ending.
    values = dict(zip(TEXT_FEATURES, read_pair(old, new).features, strict=True))
    assert values["new_plan"] == values["plan_undone"] == values["new_stopped"] == 0.0
    assert values["new_ended"] == values["new_negative"] == 0.0
