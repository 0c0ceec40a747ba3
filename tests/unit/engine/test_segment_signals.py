import numpy as np
import pytest

from omoide.engine.segment.signals import (
    block_dissimilarity,
    closing_cue,
    depth_scores,
    opening_cue,
    robust_z,
    topic_keywords,
    topic_terms,
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Hey Mel! Long time no see, how have you been?", id="en-reunion"),
        pytest.param("Hi! Since we last talked I got a new job.", id="en-since-last"),
        pytest.param("久しぶり！元気だった？", id="ja-hisashiburi"),
    ],
)
def test_opening_cue_is_strong_when_text_reopens_a_conversation(text: str) -> None:
    assert opening_cue(text) >= 0.6


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("I see what you mean about that.", id="en-plain"),
        pytest.param("昨日はカレーを作った。", id="ja-plain"),
    ],
)
def test_opening_cue_is_zero_when_text_has_no_greeting(text: str) -> None:
    assert opening_cue(text) == 0.0


def test_opening_cue_is_weak_when_text_only_starts_with_salutation() -> None:
    assert opening_cue("Hey, that's a cool idea.") == 0.3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Bye! Take care!", 1.0, id="en-two-cues"),
        pytest.param("Talk to you soon.", 0.5, id="en-one-cue"),
        pytest.param("またね！", 0.5, id="ja-matane"),
        pytest.param("See you at the match, it starts at six", 0.0, id="en-see-you-at"),
        pytest.param("That sounds great.", 0.0, id="en-plain"),
    ],
)
def test_closing_cue_scores_leave_taking(text: str, expected: float) -> None:
    assert closing_cue(text) == expected


def test_block_dissimilarity_peaks_where_blocks_change() -> None:
    a, b = np.eye(4)[0], np.eye(4)[1]
    vectors = np.stack([a, a, a, b, b, b])

    curve = block_dissimilarity(vectors, 2)

    # Half-mixed blocks either side of the change score 1 - cos(45°).
    assert curve.round(6).tolist() == [0.0, 0.0, 0.292893, 1.0, 0.292893, 0.0]


def test_depth_scores_measure_rise_above_both_neighbouring_lows() -> None:
    curve = np.array([0.0, 0.1, 0.5, 0.2, 0.3, 0.1])

    # Position 0 is the placeholder before the first turn: walks stop at position 1.
    assert depth_scores(curve).round(6).tolist() == [0.0, 0.0, 0.7, 0.0, 0.3, 0.0]


def test_robust_z_is_zero_when_values_are_too_few_or_flat() -> None:
    assert robust_z(np.array([1.0, 5.0, 2.0]), min_count=8).tolist() == [0.0, 0.0, 0.0]
    assert robust_z(np.full(10, 0.3), min_count=8).tolist() == [0.0] * 10


def test_topic_keywords_prefer_words_rare_in_other_segments() -> None:
    segments = [
        topic_terms(["The sourdough bread and the oven."], exclude=frozenset()),
        topic_terms(["The oven at the football stadium."], exclude=frozenset()),
    ]

    assert topic_keywords(segments, 0, limit=2) == ["sourdough", "bread"]
