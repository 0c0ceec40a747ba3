"""The seventeenth round: a change told without a change word (the old frame kept, a value
swapped in place, in the whole memory or in one part of a compound one), the veto on an amount
left alone, and the progressive's いて that is no compound seam. Probes written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import read_pair
from omoide.engine.classify.compound import split_compound
from omoide.engine.classify.learned import amount_left_alone, vetoed
from omoide.engine.classify.swap import SWAP_FEATURES, swap_features
from omoide.engine.classify.text import parse


def _row(old: str, new: str) -> dict[str, float]:
    return dict(zip(SWAP_FEATURES, swap_features(parse(old), parse(new)), strict=True))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Noor's phone is a Pixel 6.", "Noor's phone is an iPhone 13 now, a gift from her aunt."),
        ("Noor commutes by ferry to the office.", "Noor commutes by bus to the office."),
        ("The clinic's night nurse is Ben.", "From March the clinic's night nurse is Priya."),
        ("ノアは木のまな板を使っている。", "ノアはガラスのまな板を使っている。"),
        ("ノアの車は白い軽自動車だ。", "ノアの車は赤いミニバンだ。"),
    ],
)
def test_a_value_swapped_in_the_old_frame_is_read(old: str, new: str) -> None:
    assert _row(old, new)["swap_kept_frame"] >= 0.5


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Noor lives in Lyon.", "Noor lives in Nantes since her transfer."),
        ("Noor drives a Skoda.", "Noor drives a Volvo."),
        ("ノアは仙台に住んでいる。", "ノアは盛岡に住んでいる。"),
    ],
)
def test_a_swap_in_a_single_valued_state_is_marked(old: str, new: str) -> None:
    assert _row(old, new)["swap_state"] == 1.0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Noor's sister lives in Lyon.", "Noor's brother lives in Lyon."),  # another person
        ("Noor's best squat is 90 kg.", "Noor's best deadlift is 120 kg."),  # another thing
        ("Noor visited Lyon in May.", "Noor visited Nantes in June."),  # two occasions
        ("Noor owns a Skoda.", "Noor also owns a Volvo."),  # an addition
        ("Noor walks the dog twice a day.", "Noor walks the dog along the canal."),  # two slots
        ("ノアの姉は仙台に住んでいる。", "ノアの兄は仙台に住んでいる。"),
        ("ノアは先週京都に行った。", "ノアは先週奈良に行った。"),
        ("ノアは日曜の朝に卓球をしている。", "ノアは卓球をしていない。"),
    ],
)
def test_another_subject_occasion_or_slot_is_no_swap(old: str, new: str) -> None:
    assert _row(old, new) == dict.fromkeys(SWAP_FEATURES, 0.0)


@pytest.mark.parametrize(
    ("old", "new", "part"),
    [
        ("Noor lives in Lyon and teaches at a primary school.", "Noor lives in Nantes.", 1.0),
        ("ノアは仙台に住んでいて、書店で働いている。", "ノアは盛岡に住んでいる。", 1.0),
        # the new memory speaks of the other part too: not one conjunct replaced
        (
            "Noor lives in Lyon and teaches at a primary school.",
            "Noor lives in Nantes and teaches at a primary school there.",
            0.0,
        ),
        (
            "ノアは仙台に住んでいて、書店で働いている。",
            "ノアは盛岡に住んでいて、書店で働いている。",
            0.0,
        ),
    ],
)
def test_one_part_of_a_compound_swapped(old: str, new: str, part: float) -> None:
    assert _row(old, new)["swap_part"] == part


def test_the_progressive_te_form_is_no_seam() -> None:
    compound = split_compound("ノアは仙台に住んでいて、書店で働いている", "ja")
    assert compound is not None and compound.parts == ("仙台に住んでいて", "書店で働いている")
    assert split_compound("ノアは書店で働いています", "ja") is None


@pytest.mark.parametrize(
    ("old", "new", "left_alone"),
    [
        ("Noor swims 4 times a week.", "Noor swims in the lake.", True),
        ("ノアは週に4回泳いでいる。", "ノアは湖で泳いでいる。", True),
        ("Noor swims 4 times a week.", "Noor swims twice a week now.", False),
        ("Noor swims 4 times a week.", "Noor swims in the lake, since the pool shut.", False),
        ("ノアは週に4回泳いでいる。", "ノアはプールが閉まったので、湖で泳いでいる。", False),
    ],
)
def test_an_amount_left_alone_is_vetoed(old: str, new: str, left_alone: bool) -> None:
    text = read_pair(old, new)
    assert amount_left_alone(text) is left_alone
    assert vetoed(text) is left_alone


@given(
    st.text(
        st.sampled_from(list("noor lives in lyon and a 4 times ノアは仙台に住んでいて、。")),
        min_size=1,
        max_size=30,
    ),
    st.text(
        st.sampled_from(list("noor lives in nantes also 2 ノアは盛岡にも住んでいる。")),
        min_size=1,
        max_size=30,
    ),
)
def test_every_swap_value_is_a_share(old: str, new: str) -> None:
    for value in swap_features(parse(old), parse(new)):
        assert 0.0 <= value <= 1.0
