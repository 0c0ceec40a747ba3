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


@pytest.mark.parametrize(("framed", "bare"), [
    ("Owen said he has never given a conference talk.", "Owen has never given a conference talk."),
    ("Grace mentioned that she has not taken any leave.", "Grace has not taken any leave."),
    ("Owen said he's moving to Leeds.", "Owen is moving to Leeds."),
    ("After the physio, Owen said his back no longer hurts.",
     "After the physio, Owen's back no longer hurts."),
    ("My doctor said I should cut sugar.", "I should cut sugar."),
    ("According to her manager, Dana is the top seller.", "Dana is the top seller."),
    ("Dana is the top seller, according to her manager.", "Dana is the top seller."),
    ("Leah is raising a seed round and said she wants it closed by June.",
     "Leah is raising a seed round and she wants it closed by June."),
    ("Owen's salary as of 2026-01: £62,000 a year.", "Owen's salary: £62,000 a year."),
    ("Rota (as of 2026-01): three night shifts a week.", "Rota: three night shifts a week."),
])
def test_english_frames_are_read_through(framed: str, bare: str) -> None:
    assert unframe(framed, "en") == bare


@pytest.mark.parametrize(("framed", "bare"), [
    ("山下さんは毎朝7時15分に学校に着くと話していた。", "山下さんは毎朝7時15分に学校に着く。"),
    ("2号店の話は白紙に戻したとのこと。", "2号店の話は白紙に戻した。"),
    ("藤井さんは株式上場もまだ考えていないという。", "藤井さんは株式上場もまだ考えていない。"),
    ("石田さんも異動を希望したそうだ。", "石田さんも異動を希望した。"),
    ("医師によると、田中さんの腰痛はヘルニアが原因。", "田中さんの腰痛はヘルニアが原因。"),
    ("2026年3月時点で、中村さんの単価は1ワード14円。", "中村さんの単価は1ワード14円。"),
    ("社員数（2026年1月時点）：14人", "社員数:14人"),
])
def test_japanese_frames_are_read_through(framed: str, bare: str) -> None:
    assert unframe(framed, "ja") == bare


@pytest.mark.parametrize("text", [
    "The user moved from Tokyo to Osaka last month.", "I love green tea.",
    "Tom drives a Tesla.", "雨が降りそうだ。", "ユーザーは東京に住んでいる。",
    "ユーザーは男らしい服が好き", "half a pack a day is costing me $150 a month",
    "The user's parrot says a few words of French.", "Dana now reports to Erin Salazar.",
    "The user shares a flat with two friends.", "Since the doctor told him to walk, he walks.",
    "Uses a 13-inch MacBook Air M1 (2020)", "私は現在、市役所で働いている",
])
def test_a_memory_without_a_frame_is_unchanged(text: str) -> None:
    assert unframe(text) == text


@given(st.text(max_size=60))
def test_unframe_never_empties_a_memory(text: str) -> None:
    bare = unframe(text)
    assert isinstance(bare, str)
    assert bare.strip() or not text.strip()


def test_a_reported_present_fact_is_no_past_occasion() -> None:
    """「…と話していた」 and "said" are past forms of the frame, not of the fact."""
    old = "山下さんは毎朝7時15分に学校に着くと話していた。"
    new = "山下さんは今は毎朝8時に学校に着く。"
    framed = read_pair(old, new, lang="ja").features[TEXT_FEATURES.index("old_past")]
    bare = read_pair(unframe(old), new, lang="ja").features[TEXT_FEATURES.index("old_past")]
    assert framed == bare == 0.0


def test_the_frame_changes_nothing_the_rules_see() -> None:
    old, new = "Owen said he works at Fernleaf.", "Owen works at Fernleaf."
    assert classify_pair(old, new, lang="en") == classify_pair(unframe(old), new, lang="en")


@pytest.mark.parametrize("text", [
    "Jon is not gonna give up on his dreams.", "Jon won't quit.", "Never give up.",
    "Instead of giving up, Jon kept going.", "Jon is not giving up.",
    "Mia has no intention of cancelling the trip.",
    "彼は夢を諦めない。", "彼は仕事を辞めずに続けている。", "彼はジムをやめるつもりはない。",
    "旅行は中止しない。",
])
def test_a_negated_stop_verb_is_no_end(text: str) -> None:
    assert not cue(lex.STOPPED, parse(text))


@pytest.mark.parametrize("text", [
    "Jon quit his job.", "Jon doesn't play tennis anymore.", "Jon no longer smokes.",
    "Jon used to swim.", "The trip was cancelled.",
    "彼はジムをやめた。", "もうタバコは吸わない。", "旅行は中止になった。",
    "アルバイトを辞めました",
])
def test_an_end_cue_still_ends(text: str) -> None:
    assert cue(lex.STOPPED, parse(text))


def test_continuing_is_not_read_as_stopping() -> None:
    relation, _, reason = classify_pair("Jon wants to open a dance studio.",
                                        "Jon is not giving up on the dance studio.", lang="en")
    assert "ended" not in reason
    assert relation.value != "CONTRADICTORY"
