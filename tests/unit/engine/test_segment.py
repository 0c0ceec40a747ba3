from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.embed.hashing import HashEmbedder
from omoide.engine.segment import BoundaryReason, Segment, SegmentParams, Turn, segment_offline
from omoide.errors import InvalidInput

T0 = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)
PARAMS = SegmentParams()
NEUTRAL = "I see what you mean about that."


def _turns(texts: list[str], times: list[datetime | None] | None = None) -> list[Turn]:
    times = times or [None] * len(texts)
    speakers = ["Aki", "Ben"]
    return [
        Turn(i, speakers[i % 2], t, when)
        for i, (t, when) in enumerate(zip(texts, times, strict=True))
    ]


def _topic_vectors(topics: list[int], dim: int = 16, seed: int = 7) -> np.ndarray:
    """One direction per topic plus a little per-turn jitter, unit rows."""
    rng = np.random.default_rng(seed)
    base = np.eye(dim, dtype=np.float32)[topics]
    out = base + 0.15 * rng.standard_normal((len(topics), dim)).astype(np.float32)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def _same_vectors(n: int, dim: int = 8) -> np.ndarray:
    return np.tile(np.eye(dim, dtype=np.float32)[0], (n, 1))


def _starts(segments: list[Segment]) -> list[int]:
    return [s.start for s in segments]


def test_segment_offline_returns_nothing_when_no_turns() -> None:
    assert segment_offline([], np.zeros((0, 8), np.float32), params=PARAMS, final=True) == []


def test_segment_offline_gives_same_segments_when_run_twice() -> None:
    texts = [f"We talked about the garden and tomatoes, part {i}." for i in range(10)]
    texts += [f"Then the football match and the referee, part {i}." for i in range(10)]
    turns = _turns(texts)
    vectors = HashEmbedder().embed_passages(texts)

    first = segment_offline(turns, vectors, params=PARAMS, final=True)
    second = segment_offline(turns, vectors.copy(), params=PARAMS, final=True)

    assert first == second


def test_first_segment_opens_with_start_reason_and_zero_surprise() -> None:
    segments = segment_offline(_turns([NEUTRAL] * 5), _same_vectors(5), params=PARAMS, final=True)

    assert segments == [Segment(0, 4, segments[0].topic, 0.0, BoundaryReason.START)]


def test_time_gap_opens_segment_when_pause_reaches_gap() -> None:
    times = [T0 + timedelta(minutes=i) for i in range(6)]
    times += [T0 + timedelta(hours=3, minutes=i) for i in range(6)]

    segments = segment_offline(
        _turns([NEUTRAL] * 12, times), _same_vectors(12), params=PARAMS, final=True
    )

    assert _starts(segments) == [0, 6]
    assert segments[1].boundary_reason == BoundaryReason.TIME_GAP
    assert segments[1].surprise > 0.7


def test_time_gap_is_ignored_when_pause_is_short_or_timestamps_missing() -> None:
    short = [T0 + timedelta(minutes=i) for i in range(6)]
    short += [T0 + timedelta(minutes=20 + i) for i in range(6)]
    vectors = _same_vectors(12)

    with_short_pause = segment_offline(
        _turns([NEUTRAL] * 12, short), vectors, params=PARAMS, final=True
    )
    without_times = segment_offline(_turns([NEUTRAL] * 12), vectors, params=PARAMS, final=True)

    assert _starts(with_short_pause) == [0]
    assert _starts(without_times) == [0]


def test_short_segment_merges_into_previous_when_boundaries_tie() -> None:
    # Gaps before turn 5 and turn 7 would leave a 2-turn segment; equal evidence at both, so
    # the short one joins the segment before it (the spec's rule).
    times = [T0 + timedelta(minutes=i) for i in range(5)]
    times += [T0 + timedelta(hours=2, minutes=i) for i in range(2)]
    times += [T0 + timedelta(hours=4, minutes=i) for i in range(5)]

    segments = segment_offline(
        _turns([NEUTRAL] * 12, times), _same_vectors(12), params=PARAMS, final=True
    )

    assert [(s.start, s.end) for s in segments] == [(0, 6), (7, 11)]


def test_min_turns_one_keeps_every_gap_boundary() -> None:
    times = [T0, T0 + timedelta(hours=2), T0 + timedelta(hours=4), T0 + timedelta(hours=6)]

    segments = segment_offline(
        _turns([NEUTRAL] * 4, times),
        _same_vectors(4),
        params=SegmentParams(min_turns=1),
        final=True,
    )

    assert _starts(segments) == [0, 1, 2, 3]


def _farewell_then_greeting() -> list[str]:
    return (
        [NEUTRAL] * 10
        + ["Okay, I have to go now. Bye, talk to you soon!"]
        + ["Hey Ben! Long time no see, how have you been?"]
        + [NEUTRAL] * 10
    )


def test_surprise_opens_segment_at_greeting_after_farewell() -> None:
    texts = _farewell_then_greeting()

    segments = segment_offline(_turns(texts), _same_vectors(len(texts)), params=PARAMS, final=True)

    assert _starts(segments) == [0, 11]
    assert segments[1].boundary_reason == BoundaryReason.SURPRISE
    assert segments[1].surprise > 0.7


def test_surprise_opens_no_segment_when_threshold_is_above_its_score() -> None:
    texts = _farewell_then_greeting()

    segments = segment_offline(
        _turns(texts),
        _same_vectors(len(texts)),
        params=SegmentParams(surprise_threshold=0.99),
        final=True,
    )

    assert _starts(segments) == [0]


def test_answering_greeting_does_not_open_a_second_segment() -> None:
    texts = _farewell_then_greeting()
    texts.insert(12, "Hi Aki! Good to see you too, how have you been?")

    segments = segment_offline(_turns(texts), _same_vectors(len(texts)), params=PARAMS, final=True)

    assert _starts(segments) == [0, 11]


def test_segment_opens_at_switch_of_fake_topics() -> None:
    topics = [0] * 12 + [1] * 12
    texts = [NEUTRAL] * 24

    segments = segment_offline(_turns(texts), _topic_vectors(topics), params=PARAMS, final=True)

    # An orthogonal switch is both a topic shift and a surprise; surprise is reported first.
    assert _starts(segments) == [0, 12]
    assert segments[1].boundary_reason == BoundaryReason.SURPRISE


def test_topic_shift_opens_segment_when_surprise_stays_low() -> None:
    # Novelty off keeps surprise low; a gradual switch still leaves a cohesion valley.
    mix = np.linspace(0.0, 1.0, 5)[1:-1]
    rng = np.random.default_rng(3)
    a, b = np.eye(16, dtype=np.float32)[0], np.eye(16, dtype=np.float32)[1]
    rows = [a] * 12 + [(1 - m) * a + m * b for m in mix] + [b] * 12
    vectors = np.stack(rows) + 0.15 * rng.standard_normal((len(rows), 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)

    segments = segment_offline(
        _turns([NEUTRAL] * len(rows)),
        vectors,
        params=SegmentParams(novelty_weight=0.0),
        final=True,
    )

    assert len(segments) == 2
    assert abs(segments[1].start - 13) <= 2
    assert segments[1].surprise < 0.7
    assert segments[1].boundary_reason == BoundaryReason.TOPIC_SHIFT


def test_topic_shift_lands_near_switch_with_hash_embedder() -> None:
    garden = [
        "The tomatoes in my garden are finally turning red.",
        "Do you water the tomato plants every morning?",
        "Yes, and I added compost to the garden beds last week.",
        "Compost really helps tomatoes grow in a small garden.",
        "My basil next to the tomatoes is growing fast too.",
        "Basil and tomatoes are the best pair in any garden.",
        "I might plant more tomatoes and basil next spring.",
        "A bigger garden bed would give the tomatoes more room.",
        "The garden smells of basil after watering it.",
        "Tomatoes from the garden taste better than shop ones.",
    ]
    football = [
        "Did you watch the football match on Saturday night?",
        "The referee gave a penalty in the last minute of the match.",
        "That penalty decided the football match for the home team.",
        "Their striker scored twice before the referee blew the whistle.",
        "The striker is the best football player in the league.",
        "The league table changed after that football match.",
        "Next week the match is against the league leaders.",
        "The referee for that match is known for strict penalties.",
        "I bought tickets for the football match next week.",
        "The stadium will be full for that league match.",
    ]
    texts = garden + football

    segments = segment_offline(
        _turns(texts), HashEmbedder().embed_passages(texts), params=PARAMS, final=True
    )

    assert len(segments) == 2
    assert abs(segments[1].start - len(garden)) <= 2


def test_topic_label_names_segment_content_and_skips_speaker_names() -> None:
    texts = [f"Ben, the sourdough bread needs a hot oven, step {i}." for i in range(6)]

    segments = segment_offline(_turns(texts), _same_vectors(6), params=PARAMS, final=True)

    assert "sourdough" in segments[0].topic
    assert "ben" not in segments[0].topic


def test_final_false_holds_back_boundary_near_end() -> None:
    times = [T0 + timedelta(minutes=i) for i in range(20)]
    times += [T0 + timedelta(hours=3, minutes=i) for i in range(4)]
    turns = _turns([NEUTRAL] * 24, times)
    vectors = _same_vectors(24)

    closed = segment_offline(turns, vectors, params=PARAMS, final=True)
    still_open = segment_offline(turns, vectors, params=PARAMS, final=False)

    assert _starts(closed) == [0, 20]
    assert [(s.start, s.end) for s in still_open] == [(0, 23)]


def test_final_false_keeps_boundaries_that_have_enough_turns_after_them() -> None:
    times = [T0 + timedelta(minutes=i) for i in range(10)]
    times += [T0 + timedelta(hours=3, minutes=i) for i in range(14)]
    turns = _turns([NEUTRAL] * 24, times)

    still_open = segment_offline(turns, _same_vectors(24), params=PARAMS, final=False)

    assert [(s.start, s.end) for s in still_open] == [(0, 9), (10, 23)]


def test_rerun_over_open_segment_keeps_its_start() -> None:
    times = [T0 + timedelta(minutes=i) for i in range(10)]
    times += [T0 + timedelta(hours=3, minutes=i) for i in range(14)]
    turns = _turns([NEUTRAL] * 24, times)
    vectors = _same_vectors(24)
    open_start = segment_offline(turns, vectors, params=PARAMS, final=False)[-1].start

    rerun = segment_offline(turns[open_start:], vectors[open_start:], params=PARAMS, final=True)

    assert [(s.start, s.end) for s in rerun] == [(10, 23)]


def test_segment_offline_rejects_vectors_when_rows_do_not_match_turns() -> None:
    with pytest.raises(InvalidInput, match="one vector row per turn"):
        segment_offline(_turns([NEUTRAL] * 3), _same_vectors(2), params=PARAMS, final=True)


def test_segment_offline_rejects_turns_when_indexes_do_not_increase() -> None:
    turns = [Turn(0, "Aki", NEUTRAL), Turn(0, "Ben", NEUTRAL)]

    with pytest.raises(InvalidInput, match="strictly increasing"):
        segment_offline(turns, _same_vectors(2), params=PARAMS, final=True)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        pytest.param({"surprise_threshold": 1.5}, "surprise_threshold", id="threshold"),
        pytest.param({"min_turns": 0}, "min_turns", id="min-turns"),
        pytest.param({"topic_window": 0}, "topic_window", id="topic-window"),
        pytest.param({"time_gap": timedelta(0)}, "time_gap", id="time-gap"),
    ],
)
def test_segment_params_reject_value_when_out_of_range(change: dict, field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        SegmentParams(**change)

    assert err.value.fields["field"] == field


_TEXTS = st.sampled_from(
    [
        NEUTRAL,
        "Hey! Long time no see, how have you been?",
        "Bye, take care!",
        "The tomatoes are red.",
        "The referee gave a penalty.",
        "久しぶり！元気だった？",
        "またね！",
    ]
)


@st.composite
def _streams(draw: st.DrawFn) -> tuple[list[Turn], np.ndarray]:
    n = draw(st.integers(min_value=0, max_value=40))
    texts = draw(st.lists(_TEXTS, min_size=n, max_size=n))
    minutes = draw(st.lists(st.integers(0, 200), min_size=n, max_size=n))
    steps = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    with_times = draw(st.booleans())
    seed = draw(st.integers(0, 2**16))
    topics = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    times = np.cumsum(minutes).tolist()
    indexes = np.cumsum(steps).tolist()
    turns = [
        Turn(int(idx), "Aki", text, T0 + timedelta(minutes=int(m)) if with_times else None)
        for idx, text, m in zip(indexes, texts, times, strict=True)
    ]
    return turns, _topic_vectors(topics, seed=seed) if n else np.zeros((0, 16), np.float32)


@settings(max_examples=150, deadline=None)
@given(
    stream=_streams(),
    min_turns=st.integers(1, 5),
    threshold=st.floats(0.0, 1.0),
    final=st.booleans(),
)
def test_segments_cover_turns_exactly_in_order(
    stream: tuple[list[Turn], np.ndarray], min_turns: int, threshold: float, final: bool
) -> None:
    turns, vectors = stream
    params = SegmentParams(surprise_threshold=threshold, min_turns=min_turns)

    segments = segment_offline(turns, vectors, params=params, final=final)

    indexes = [t.index for t in turns]
    covered = [i for s in segments for i in indexes if s.start <= i <= s.end]
    assert covered == indexes
    assert all(s.start <= s.end for s in segments)
    if segments:
        assert segments[0].boundary_reason == BoundaryReason.START
    assert all(0.0 <= s.surprise <= 1.0 for s in segments)
    if len(segments) > 1:
        lengths = [sum(1 for i in indexes if s.start <= i <= s.end) for s in segments]
        assert min(lengths) >= min_turns


@settings(max_examples=50, deadline=None)
@given(stream=_streams())
def test_final_false_closes_only_segments_that_final_true_also_closes(
    stream: tuple[list[Turn], np.ndarray],
) -> None:
    turns, vectors = stream

    closed = segment_offline(turns, vectors, params=PARAMS, final=True)
    still_open = segment_offline(turns, vectors, params=PARAMS, final=False)

    # Topic labels weigh words against the other segments, so only the bounds are compared.
    def bounds(segments: list[Segment]) -> list[tuple[int, int, float, str]]:
        return [(s.start, s.end, s.surprise, s.boundary_reason) for s in segments]

    assert bounds(still_open)[:-1] == bounds(closed)[: len(still_open) - 1]
