"""Benchmark: offline episode segmentation (``engine/segment/``) on LoCoMo.

Each LoCoMo conversation is cut into streams of consecutive sessions (``--window`` sessions per
stream, and the whole conversation as one stream); the session markers are removed, the turns'
text (with the shared photo's caption rendered as the service renders an event's
``image_caption`` metadata) is left as written, greetings included. The gold
boundaries are the session starts inside a stream. Two variants:

- ``timestamps``: every turn carries its session's date (``session_N_date_time``), so the
  time-gap rule sees the days between sessions;
- ``text_only``: no timestamps, as in a stream whose turns carry no usable times.

Scores: boundary precision / recall / F1 (a predicted boundary matches one gold boundary within
±2 turns, one-to-one), Pk (window = half the mean gold segment length; lower is better), the
number of predicted segments against gold and their mean length. Ablations on ``text_only`` show
what each signal carries. LoCoMo has no gold for topic shifts inside a session, so predicted
boundaries inside sessions count as false positives here although some are real topic shifts.

Embeddings are cached under ``--cache-dir`` (outside the repo) per embedder model id.

Usage::

    .venv/bin/python bench/segment.py [--data DIR] [--json] [--embedder use,e5,hash] [--window 4]

Writes bench/results/segment.md and bench/results/segment.json.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from _segment_report import INCREMENT, print_summary, render_markdown
from lib.cli import parser as bench_parser
from lib.datasets import LocomoConversation, LocomoSession, load_conversations
from lib.embed_cache import cached_embeddings
from lib.reports import write_results
from lib.segmentation import boundary_matches, pk
from omoide.embed import EMBEDDERS, make_embedder
from omoide.engine.attachments import IMAGE_CAPTION, turn_text
from omoide.engine.segment import Segment, SegmentParams, Turn, segment_offline

DEFAULT_CACHE = Path("/tmp/omoide-bench-cache/segment")
TOLERANCE = 2  # turns either side within which a predicted boundary matches a gold one

# Named parameter sets: the engine's defaults, then ablations that switch signals off.
NO_CUES = {"opening_weight": 0.0, "closing_weight": 0.0}
NO_EMBEDDINGS = {"novelty_weight": 0.0, "topic_depth": float("inf")}
CONFIGS: dict[str, dict[str, float]] = {
    "default": {},
    "cues only (no embeddings)": NO_EMBEDDINGS,
    "embeddings only (no cues)": NO_CUES,
    "no topic shifts": {"topic_depth": float("inf")},
    # The granularity knob: lower means more topic-shift episodes inside sessions.
    "topic_depth 3.0": {"topic_depth": 3.0},
    "topic_depth 5.0": {"topic_depth": 5.0},
}


@dataclass(frozen=True)
class Stream:
    conversation: str
    sessions: tuple[int, ...]  # session numbers joined into this stream
    texts: tuple[str, ...]
    speakers: tuple[str, ...]
    times: tuple[Any, ...]  # the session date of each turn (datetime | None)
    gold: tuple[int, ...]  # offsets of the session starts after the first


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    predicted_segments: int = 0
    gold_segments: int = 0
    turns: int = 0
    pk_sum: float = 0.0
    streams: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, stream: Stream, segments: Sequence[Segment]) -> None:
        predicted = [s.start for s in segments[1:]]
        tp = boundary_matches(predicted, stream.gold, TOLERANCE)
        self.tp += tp
        self.fp += len(predicted) - tp
        self.fn += len(stream.gold) - tp
        self.predicted_segments += len(segments)
        self.gold_segments += len(stream.gold) + 1
        self.turns += len(stream.texts)
        self.pk_sum += pk(predicted, list(stream.gold), len(stream.texts))
        self.streams += 1
        self.reasons.update(str(s.boundary_reason) for s in segments[1:])

    def summary(self) -> dict[str, Any]:
        precision = self.tp / max(1, self.tp + self.fp)
        recall = self.tp / max(1, self.tp + self.fn)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {
            "precision": round(precision, 3),
            "recall": round(recall, 3),
            "f1": round(f1, 3),
            "pk": round(self.pk_sum / max(1, self.streams), 3),
            "segments": self.predicted_segments,
            "gold_segments": self.gold_segments,
            "mean_segment_turns": round(self.turns / max(1, self.predicted_segments), 1),
            "gold_mean_segment_turns": round(self.turns / max(1, self.gold_segments), 1),
            "reasons": dict(sorted(self.reasons.items())),
            "streams": self.streams,
        }


def build_streams(conversations: Sequence[LocomoConversation], window: int) -> list[Stream]:
    """Non-overlapping runs of ``window`` consecutive sessions (0 = the whole conversation);
    a final run of one session joins the run before it."""
    streams = []
    for conv in conversations:
        size = window or len(conv.sessions)
        groups = [list(conv.sessions[k : k + size]) for k in range(0, len(conv.sessions), size)]
        if len(groups) > 1 and len(groups[-1]) < 2:
            groups[-2].extend(groups.pop())
        streams.extend(_stream(conv.sample_id, g) for g in groups if len(g) >= 2)
    return streams


def _stream(conversation: str, sessions: list[LocomoSession]) -> Stream:
    texts, speakers, times, gold = [], [], [], []
    for session in sessions:
        if texts:
            gold.append(len(texts))
        for turn in session.turns:
            texts.append(turn_text(turn.text, {IMAGE_CAPTION: turn.image_caption}))
            speakers.append(turn.speaker)
            times.append(session.date_time)
    return Stream(
        conversation,
        tuple(s.number for s in sessions),
        tuple(texts),
        tuple(speakers),
        tuple(times),
        tuple(gold),
    )


def run_streams(
    streams: Sequence[Stream],
    vectors: dict[tuple[str, tuple[int, ...]], np.ndarray],
    params: SegmentParams,
    *,
    with_times: bool,
    step: int = 0,
) -> tuple[Tally, dict[str, Tally], float]:
    """Segment every stream in one call (``step`` 0) or ``step`` turns at a time."""
    overall, per_conv = Tally(), {}
    started = time.perf_counter()
    for stream in streams:
        turns = [
            Turn(i, speaker, text, when if with_times else None)
            for i, (speaker, text, when) in enumerate(
                zip(stream.speakers, stream.texts, stream.times, strict=True)
            )
        ]
        rows = vectors[(stream.conversation, stream.sessions)]
        if step:
            segments = _incremental(turns, rows, params, step)
        else:
            segments = segment_offline(turns, rows, params=params, final=True)
        overall.add(stream, segments)
        per_conv.setdefault(stream.conversation, Tally()).add(stream, segments)
    return overall, per_conv, time.perf_counter() - started


def _incremental(
    turns: list[Turn], vectors: np.ndarray, params: SegmentParams, step: int
) -> list[Segment]:
    """What the session service does: feed ``step`` turns at a time, keep the closed segments,
    re-run over the open segment plus the new turns, and close everything at the end."""
    closed: list[Segment] = []
    open_at = 0  # offset of the open segment's first turn
    for end in range(step, len(turns) + step, step):
        end = min(end, len(turns))
        final = end == len(turns)
        segments = segment_offline(
            turns[open_at:end], vectors[open_at:end], params=params, final=final
        )
        if final:
            return closed + segments
        closed += segments[:-1]
        open_at = next(k for k, t in enumerate(turns) if t.index == segments[-1].start)
    return closed


def evaluate(
    embedder_name: str, conversations: Sequence[LocomoConversation], window: int, cache: Path
) -> dict[str, Any]:
    embedder = make_embedder(embedder_name)
    settings: dict[str, list[Stream]] = {
        f"{window} sessions per stream": build_streams(conversations, window),
        "whole conversation": build_streams(conversations, 0),
    }
    all_streams = [s for group in settings.values() for s in group]
    flat = cached_embeddings(embedder, [t for s in all_streams for t in s.texts], cache)
    vectors, offset = {}, 0
    for stream in all_streams:
        vectors[(stream.conversation, stream.sessions)] = flat[offset : offset + len(stream.texts)]
        offset += len(stream.texts)
    out: dict[str, Any] = {"model_id": embedder.model_id, "settings": {}}
    for setting, streams in settings.items():
        block: dict[str, Any] = {}
        for variant, with_times in (("timestamps", True), ("text_only", False)):
            overall, per_conv, seconds = run_streams(
                streams, vectors, SegmentParams(), with_times=with_times
            )
            block[variant] = {
                "overall": overall.summary(),
                "per_conversation": {c: t.summary() for c, t in sorted(per_conv.items())},
                "ms_per_1000_turns": round(1000 * seconds / max(1, overall.turns) * 1000, 1),
            }
        for variant, with_times in (("timestamps", True), ("text_only", False)):
            block[f"{variant}_incremental"] = {
                "overall": run_streams(
                    streams, vectors, SegmentParams(), with_times=with_times, step=INCREMENT
                )[0].summary()
            }
        block["ablations_text_only"] = {
            name: run_streams(
                streams, vectors, dataclasses.replace(SegmentParams(), **change), with_times=False
            )[0].summary()
            for name, change in CONFIGS.items()
        }
        out["settings"][setting] = block
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = bench_parser(__doc__, out="segment", data="locomo")
    parser.add_argument(
        "--embedder", default="use", help=f"comma-separated, from {', '.join(EMBEDDERS)}"
    )
    parser.add_argument("--window", type=int, default=4, help="sessions per stream (>= 2)")
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.embedder.split(",") if n.strip()]
    if any(n not in EMBEDDERS for n in names) or args.window < 2:
        parser.error(f"--embedder must name some of {EMBEDDERS}; --window must be >= 2")
    conversations = load_conversations(args.data)
    results = {
        "data": str(args.data),
        "window": args.window,
        "params": {k: str(v) for k, v in dataclasses.asdict(SegmentParams()).items()},
        "embedders": {n: evaluate(n, conversations, args.window, args.cache_dir) for n in names},
    }
    command = "python bench/segment.py " + " ".join(sys.argv[1:] if argv is None else argv)
    write_results(args.out, render_markdown(results, command.strip()), results)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_summary(results, print)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
