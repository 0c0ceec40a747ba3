"""The LoCoMo contextual-turn probe (``bench/locomo_turn_context.py``): which text or vector
stands for each turn; the context never crosses a session boundary."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_turn_context as probe  # noqa: E402
from omoide.model import Event  # noqa: E402


def _event(i: int, speaker: str, text: str) -> Event:
    return Event(
        id=i,
        session_id="s",
        seq=i,
        speaker=speaker,
        role="user",
        content=text,
        timestamp=datetime(2023, 5, 8, tzinfo=UTC),
        external_id=None,
        episode_id=None,
    )


def test_previous_turn_comes_first_and_never_from_another_session() -> None:
    events = [
        _event(1, "Ana", "Did you go?"),
        _event(2, "Ben", "Yes, last Tuesday!"),
        _event(3, "Ana", "New day."),
    ]
    same = [False, True, False]  # turn 3 opens a new session
    assert probe.passages(events, same, with_next=False) == [
        "Ana: Did you go?",
        "Ana: Did you go?\nBen: Yes, last Tuesday!",
        "Ana: New day.",
    ]
    assert (
        probe.passages(events, same, with_next=True)[0]
        == "Ana: Did you go?\nBen: Yes, last Tuesday!"
    )


def test_blend_adds_the_previous_vector_within_a_session_and_stays_unit() -> None:
    own = np.eye(3, dtype=np.float32)
    out = probe.blended(own, [False, True, False], 1.0)
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0)
    assert np.allclose(out[1], np.array([1, 1, 0]) / np.sqrt(2))
    assert np.allclose(out[2], own[2])  # a new session: nothing blended in


def test_only_photo_turns_get_a_caption_passage_of_their_own() -> None:
    photo = Event(
        id=4,
        session_id="s",
        seq=4,
        speaker="Ana",
        role="user",
        content="Look!",
        timestamp=datetime(2023, 5, 8, tzinfo=UTC),
        external_id=None,
        episode_id=None,
        metadata={"image_caption": "a red kite"},
    )
    pairs = probe.caption_passages([_event(1, "Ana", "Hi."), photo])
    assert pairs == [(photo, "Ana: [image: a red kite]")]
