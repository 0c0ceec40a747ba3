"""Episode segmentation judged by an LLM: one call per adjacent turn pair (spec §Episode).

Implements the engine's :class:`~omoide.engine.segment.Segmenter` port; the composition root
hands it to the session service for personas whose ``segmenter`` setting asks for it.

For each pair the model sees a few turns before it and the new turn, and answers
``{"topic_shift": bool, "surprise": 0..1}``. The engine's :func:`segment_judged` then applies
the same rules as the offline path (time gap, or topic shift, or surprise > threshold; short
segments merged). Any failure — the endpoint down, an answer of the wrong shape — logs one
WARNING and hands the whole call to :func:`segment_offline`, so segmentation never stops
working. Conversation text is never logged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from omoide.engine.segment import (
    PairJudgement,
    Segment,
    SegmentParams,
    Turn,
    segment_judged,
    segment_offline,
)
from omoide.errors import UpstreamUnavailable
from omoide.llm.base import LLM, LLMOutputError, Message, complete_json

__all__ = ["LLMSegmentJudge"]

logger = logging.getLogger(__name__)

SYSTEM = """\
You split a conversation log into episodes. You are shown the turns just before a point in \
the conversation (CONTEXT) and the turn right after it (NEW). Decide:

topic_shift: true when NEW moves the conversation to a different subject than CONTEXT (a new \
activity, event, person or question), false when it continues, answers or reacts to it.
surprise: from 0.0 to 1.0, how unexpected NEW is after CONTEXT. 0.0: a natural continuation. \
0.5: a new subject introduced smoothly. 1.0: a clear new start, such as a greeting after a \
goodbye, or news announced out of the blue.

Reply with one JSON object and nothing else:
{"topic_shift": false, "surprise": 0.1}"""

TURN_CHARS = 400  # each turn is cut to this many characters in the prompt


class LLMSegmentJudge:
    """Segments turns with one LLM judgement per adjacent pair; falls back to the offline engine."""

    def __init__(self, llm: LLM, *, context_turns: int = 3) -> None:
        if context_turns < 1:
            raise ValueError("context_turns must be at least 1")
        self._llm = llm
        self._context = context_turns

    def judge(self, turns: Sequence[Turn]) -> list[PairJudgement]:
        """One judgement per adjacent pair, in order. Raises UpstreamUnavailable or
        LLMOutputError when a call fails."""
        return [self._judge_pair(turns, i) for i in range(1, len(turns))]

    def segment(
        self,
        turns: Sequence[Turn],
        vectors: np.ndarray,
        *,
        params: SegmentParams,
        final: bool,
    ) -> list[Segment]:
        """Like :func:`segment_offline` (same arguments and result), judged by the LLM."""
        try:
            judgements = self.judge(turns)
        except (UpstreamUnavailable, LLMOutputError) as exc:
            logger.warning(
                "LLM segmentation failed (%s); using the offline segmenter for %d turns",
                type(exc).__name__,
                len(turns),
            )
            return segment_offline(turns, vectors, params=params, final=final)
        return segment_judged(turns, judgements, params=params, final=final)

    def _judge_pair(self, turns: Sequence[Turn], position: int) -> PairJudgement:
        context = turns[max(0, position - self._context) : position]
        prompt = "CONTEXT:\n" + "\n".join(_line(t) for t in context)
        prompt += "\n\nNEW:\n" + _line(turns[position])
        answer = complete_json(self._llm, [Message("user", prompt)], system=SYSTEM, max_tokens=64)
        return _parse(answer, position)


def _line(turn: Turn) -> str:
    text = " ".join(turn.text.split())[:TURN_CHARS]
    return f"{turn.speaker}: {text}" if turn.speaker else text


def _parse(answer: Any, position: int) -> PairJudgement:
    if not isinstance(answer, dict):
        raise LLMOutputError("segment judgement is not a JSON object")
    shift, surprise = answer.get("topic_shift"), answer.get("surprise")
    if isinstance(shift, str) and shift.strip().lower() in ("true", "false"):
        shift = shift.strip().lower() == "true"
    if not isinstance(shift, bool):
        raise LLMOutputError("segment judgement has no boolean topic_shift")
    if isinstance(surprise, bool) or not isinstance(surprise, int | float):
        raise LLMOutputError("segment judgement has no numeric surprise")
    if surprise != surprise:  # NaN
        raise LLMOutputError("segment judgement has a NaN surprise")
    return PairJudgement(position, shift, min(1.0, max(0.0, float(surprise))))
