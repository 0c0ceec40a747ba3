import json
import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from omoide.engine.segment import BoundaryReason, SegmentParams, Turn, segment_offline
from omoide.errors import UpstreamUnavailable
from omoide.llm.base import Message
from omoide.llm.segment import LLMSegmentJudge

PARAMS = SegmentParams()
T0 = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)


class ScriptedLLM:
    """Answers each call with the next scripted reply; an exception in the script is raised."""

    name = "fake:scripted"

    def __init__(self, replies: Sequence[str | Exception]) -> None:
        self.replies = list(replies)
        self.prompts: list[str] = []
        self.systems: list[str | None] = []

    def complete(
        self,
        messages: Sequence[Message],
        *,
        system: str | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        json_mode: bool = False,
    ) -> str:
        self.prompts.append(messages[-1].content)
        self.systems.append(system)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def _turns(n: int, times: list[datetime] | None = None) -> list[Turn]:
    return [
        Turn(i, "Aki" if i % 2 else "Ben", f"turn {i}", times[i] if times else None)
        for i in range(n)
    ]


def _vectors(n: int) -> np.ndarray:
    return np.tile(np.eye(8, dtype=np.float32)[0], (n, 1))


def _reply(shift: bool = False, surprise: float = 0.1) -> str:
    return json.dumps({"topic_shift": shift, "surprise": surprise})


def test_judge_asks_once_per_adjacent_pair_with_context_before_new_turn() -> None:
    llm = ScriptedLLM([_reply()] * 4)

    judgements = LLMSegmentJudge(llm, context_turns=2).judge(_turns(5))

    assert [j.position for j in judgements] == [1, 2, 3, 4]
    assert llm.prompts[3] == "CONTEXT:\nBen: turn 2\nAki: turn 3\n\nNEW:\nBen: turn 4"


def test_segment_opens_at_topic_shift_and_at_high_surprise() -> None:
    replies = [_reply()] * 10
    replies[3] = _reply(shift=True, surprise=0.2)  # pair (3, 4)
    replies[7] = _reply(shift=False, surprise=0.9)  # pair (7, 8)
    llm = ScriptedLLM(replies)

    segments = LLMSegmentJudge(llm).segment(_turns(11), _vectors(11), params=PARAMS, final=True)

    assert [(s.start, s.end, s.boundary_reason) for s in segments] == [
        (0, 3, BoundaryReason.START),
        (4, 7, BoundaryReason.TOPIC_SHIFT),
        (8, 10, BoundaryReason.SURPRISE),
    ]
    assert segments[2].surprise == 0.9


def test_segment_merges_short_segment_into_previous_one() -> None:
    replies = [_reply()] * 9
    replies[3] = _reply(shift=True)  # boundary before turn 4
    replies[4] = _reply(shift=True)  # boundary before turn 5: turn 4 alone would be too short
    llm = ScriptedLLM(replies)

    segments = LLMSegmentJudge(llm).segment(_turns(10), _vectors(10), params=PARAMS, final=True)

    assert [(s.start, s.end) for s in segments] == [(0, 4), (5, 9)]


def test_segment_opens_at_time_gap_whatever_the_model_says() -> None:
    times = [T0 + timedelta(minutes=i) for i in range(5)]
    times += [T0 + timedelta(hours=5, minutes=i) for i in range(5)]
    llm = ScriptedLLM([_reply()] * 9)

    segments = LLMSegmentJudge(llm).segment(
        _turns(10, times), _vectors(10), params=PARAMS, final=True
    )

    assert [(s.start, s.boundary_reason) for s in segments] == [
        (0, BoundaryReason.START),
        (5, BoundaryReason.TIME_GAP),
    ]


def test_segment_accepts_string_booleans_and_clamps_surprise() -> None:
    replies = [_reply()] * 7
    replies[2] = '{"topic_shift": "false", "surprise": 1.7}'
    llm = ScriptedLLM(replies)

    segments = LLMSegmentJudge(llm).segment(_turns(8), _vectors(8), params=PARAMS, final=True)

    assert [(s.start, s.surprise) for s in segments] == [(0, 0.0), (3, 1.0)]


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param("no json here", id="no-json"),
        pytest.param('{"topic_shift": "maybe", "surprise": 0.1}', id="bad-bool"),
        pytest.param('{"topic_shift": true}', id="no-surprise"),
        pytest.param("[1, 2]", id="not-object"),
    ],
)
def test_segment_falls_back_to_offline_when_answer_is_malformed(
    bad: str, caplog: pytest.LogCaptureFixture
) -> None:
    llm = ScriptedLLM([_reply(), bad])
    turns, vectors = _turns(8), _vectors(8)

    with caplog.at_level(logging.WARNING, logger="omoide.llm.segment"):
        segments = LLMSegmentJudge(llm).segment(turns, vectors, params=PARAMS, final=True)

    assert segments == segment_offline(turns, vectors, params=PARAMS, final=True)
    assert "LLMOutputError" in caplog.text
    assert "turn 1" not in caplog.text


def test_segment_falls_back_to_offline_when_endpoint_is_down() -> None:
    llm = ScriptedLLM([UpstreamUnavailable("down")])
    turns, vectors = _turns(6), _vectors(6)

    segments = LLMSegmentJudge(llm).segment(turns, vectors, params=PARAMS, final=False)

    assert segments == segment_offline(turns, vectors, params=PARAMS, final=False)


def test_segment_keeps_last_boundary_open_when_not_final() -> None:
    replies = [_reply()] * 9
    replies[7] = _reply(surprise=0.95)  # boundary before turn 8, two turns from the end
    llm = ScriptedLLM(replies * 2)

    closed = LLMSegmentJudge(llm).segment(_turns(10), _vectors(10), params=PARAMS, final=True)
    still_open = LLMSegmentJudge(llm).segment(_turns(10), _vectors(10), params=PARAMS, final=False)

    assert [s.start for s in closed] == [0]  # a 2-turn tail merges into the previous segment
    assert [s.start for s in still_open] == [0]
