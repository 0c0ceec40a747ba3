"""Benchmark: offline episode consolidation (Episode → Notes) against LoCoMo's observations.

Each LoCoMo session is treated as one closed episode: one ``EventText`` per turn (its text,
and the shared photo's caption as ``image_caption``, as the service passes event metadata;
role "user"; timestamp = the session's date). ``consolidate_offline`` turns it into notes,
which are scored against the session's ``session_N_observation`` facts, each carrying the
turn(s) it came from:

- coverage: fraction of observations with an evidence turn among the sources of some note of
  that session (an observation with several evidence turns counts when any of them is a source);
- notes per episode and notes per turn (the reduction: 1.0 would be copying every turn);
- quality proxy: fraction of observations whose best-matching note of the session holds at least
  half of the observation's content words (ROUGE-1 recall; lower-cased, English stopwords and
  the closing date suffix removed, plural/-ed/-ing endings folded);
- as a ceiling for that proxy: the same measure with every turn kept verbatim as a note.

Usage::

    .venv/bin/python bench/consolidate.py [--data DIR] [--json] [--examples N]
                                          [--notes-per-turn R] [--conversations 26,30,41]

Split: the offline rules are tuned on conversations 26, 30 and 41 only; 42 and 43 are the
validation split, reported separately and never looked at while tuning (``--conversations``
runs a subset, e.g. the tuning split alone while iterating). The "Before and after" section of
the report is kept when it is rewritten.

- QA evidence in notes: LoCoMo questions (categories 1–4) with an evidence turn among the
  sources of some note of the conversation (what the notes tier alone can reach);
- a baseline for coverage: keep each session's longest turns, as many as the extractor kept
  notes (length alone is a strong signal of an informative turn).

Writes bench/results/consolidate.md and bench/results/consolidate.json.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lib.cli import parser
from lib.datasets import DEFAULT_LOCOMO_DIR, LocomoConversation, LocomoSession, load_conversations
from lib.reports import md_table, write_results
from omoide.engine.attachments import IMAGE_CAPTION, turn_text
from omoide.engine.consolidate import (
    DEFAULT_NOTES_PER_TURN,
    EventText,
    NoteDraft,
    OfflineConsolidator,
    consolidate_offline,
)
from omoide.engine.lang import NOTE_STOPWORDS

TUNING = ("26", "30", "41")
VALIDATION = ("42", "43")
DEFAULT_MAX_SENTENCES_PER_NOTE = OfflineConsolidator().max_sentences_per_note
_KEPT_SECTION = "## Before and after"
QUALITY_THRESHOLD = 0.5
_SAID_ON = re.compile(r"\s*\([^()]*\d{4}\)$")  # the note's closing "(Ken, 8 May 2023)"


@dataclass
class Tally:
    episodes: int = 0
    turns: int = 0
    notes: int = 0
    observations: int = 0
    covered: int = 0
    quality_hits: int = 0
    ceiling_hits: int = 0
    baseline_covered: int = 0
    recall_sum: float = 0.0
    note_chars: int = 0
    source_chars: int = 0
    questions: int = 0
    questions_covered: int = 0
    kinds: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        for name in ("episodes", "turns", "notes", "observations", "covered"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.quality_hits += other.quality_hits
        self.ceiling_hits += other.ceiling_hits
        self.baseline_covered += other.baseline_covered
        self.recall_sum += other.recall_sum
        self.note_chars += other.note_chars
        self.source_chars += other.source_chars
        self.questions += other.questions
        self.questions_covered += other.questions_covered
        self.kinds.update(other.kinds)

    def summary(self) -> dict[str, float | int | dict[str, int]]:
        obs = max(self.observations, 1)
        return {
            "episodes": self.episodes,
            "turns": self.turns,
            "notes": self.notes,
            "observations": self.observations,
            "coverage": round(self.covered / obs, 3),
            "baseline_coverage_longest_turns": round(self.baseline_covered / obs, 3),
            "notes_per_episode": round(self.notes / max(self.episodes, 1), 2),
            "notes_per_turn": round(self.notes / max(self.turns, 1), 3),
            "quality_at_0.5": round(self.quality_hits / obs, 3),
            "mean_best_recall": round(self.recall_sum / obs, 3),
            "ceiling_quality_verbatim_turns": round(self.ceiling_hits / obs, 3),
            "note_chars_per_source_char": round(self.note_chars / max(self.source_chars, 1), 2),
            "qa_evidence_in_notes": round(self.questions_covered / max(self.questions, 1), 3),
            "kinds": dict(sorted(self.kinds.items())),
        }


def stem(word: str) -> str:
    """Fold the commonest English endings so "painted"/"paints"/"painting" meet."""
    word = word.removesuffix("'s")
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_set(text: str) -> set[str]:
    tokens = re.findall(r"[a-z0-9][a-z0-9'\-]*", _SAID_ON.sub("", text).lower())
    return {stem(t) for t in tokens if t not in NOTE_STOPWORDS and len(t) > 1}


def best_recall(observation: str, notes: list[str]) -> float:
    target = content_set(observation)
    if not target or not notes:
        return 0.0
    return max(len(target & content_set(note)) / len(target) for note in notes)


def session_events(session: LocomoSession, first_id: int) -> list[EventText]:
    return [
        EventText(
            event_id=first_id + i,
            speaker=turn.speaker,
            role="user",
            text=turn.text,
            timestamp=session.date_time,
            image_caption=turn.image_caption,
        )
        for i, turn in enumerate(session.turns)
    ]


def run_conversation(
    conv: LocomoConversation,
    examples: int,
    notes_per_turn: float = DEFAULT_NOTES_PER_TURN,
    max_sentences: int = DEFAULT_MAX_SENTENCES_PER_NOTE,
) -> tuple[Tally, list[tuple[str, NoteDraft]]]:
    tally = Tally()
    shown: list[tuple[str, NoteDraft]] = []
    all_sources: set[str] = set()
    next_id = 1
    for session in conv.sessions:
        events = session_events(session, next_id)
        next_id += len(events)
        notes = consolidate_offline(
            events, notes_per_turn=notes_per_turn, max_sentences_per_note=max_sentences
        ).notes
        dia_of = {e.event_id: t.dia_id for e, t in zip(events, session.turns, strict=True)}
        all_sources |= {dia_of[i] for note in notes for i in note.source_event_ids}
        score_session(conv, session, events, notes, dia_of, tally)
        room = max(examples - len(shown), 0)
        shown.extend((dia_of[n.source_event_ids[0]], n) for n in notes[:room])
    for qa in (q for q in conv.qa if 1 <= q.category <= 4 and q.evidence):
        tally.questions += 1
        tally.questions_covered += any(d in all_sources for d in qa.evidence)
    return tally, shown


def score_session(
    conv: LocomoConversation,
    session: LocomoSession,
    events: list[EventText],
    notes: tuple[NoteDraft, ...],
    dia_of: dict[int, str],
    tally: Tally,
) -> None:
    sources = {dia_of[i] for note in notes for i in note.source_event_ids}
    longest = {t.dia_id for t in sorted(session.turns, key=lambda t: -len(t.text))[: len(notes)]}
    note_texts = [n.content for n in notes]
    verbatim = [turn_text(e.text, {IMAGE_CAPTION: e.image_caption}) for e in events]
    texts = {e.event_id: turn_text(e.text, {IMAGE_CAPTION: e.image_caption}) for e in events}
    tally.episodes += 1
    tally.turns += len(events)
    tally.notes += len(notes)
    tally.kinds.update(n.kind.value for n in notes)
    tally.note_chars += sum(len(n.content) for n in notes)
    tally.source_chars += sum(len(texts[i]) for n in notes for i in n.source_event_ids)
    for obs in (o for o in conv.observations if o.session == session.number):
        tally.observations += 1
        tally.covered += any(d in sources for d in obs.evidence)
        tally.baseline_covered += any(d in longest for d in obs.evidence)
        recall = best_recall(obs.text, note_texts)
        tally.recall_sum += recall
        tally.quality_hits += recall >= QUALITY_THRESHOLD
        tally.ceiling_hits += best_recall(obs.text, verbatim) >= QUALITY_THRESHOLD


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="consolidate", data="locomo")
    bench.add_argument("--examples", type=int, default=0, help="print N notes per conversation")
    bench.add_argument(
        "--conversations", default="", help="comma-separated conversation ids to run (default: all)"
    )
    bench.add_argument(
        "--notes-per-turn",
        type=float,
        default=DEFAULT_NOTES_PER_TURN,
        help=f"the extractor's note budget per turn (default {DEFAULT_NOTES_PER_TURN})",
    )
    bench.add_argument(
        "--max-sentences-per-note",
        type=int,
        default=DEFAULT_MAX_SENTENCES_PER_NOTE,
        help=f"sentences one note may keep (default {DEFAULT_MAX_SENTENCES_PER_NOTE})",
    )
    args = bench.parse_args(argv)

    started = time.perf_counter()
    overall = Tally()
    splits = {"tuning (26, 30, 41)": Tally(), "validation (42, 43)": Tally()}
    wanted = {c.strip() for c in args.conversations.split(",") if c.strip()}
    per_conv: dict[str, dict[str, object]] = {}
    for conv in load_conversations(args.data):
        if wanted and conv.sample_id not in wanted:
            continue
        tally, shown = run_conversation(
            conv, args.examples, args.notes_per_turn, args.max_sentences_per_note
        )
        overall.add(tally)
        for name, ids in zip(splits, (TUNING, VALIDATION), strict=True):
            if conv.sample_id in ids:
                splits[name].add(tally)
        per_conv[conv.sample_id] = tally.summary()
        for dia_id, note in shown:
            print(f"  [{conv.sample_id} {dia_id} {note.kind}] {note.content}", file=sys.stderr)
    elapsed = time.perf_counter() - started
    result = {
        "benchmark": "consolidate (offline, LoCoMo observations)",
        "command": _command(
            args.data, args.notes_per_turn, args.conversations, args.max_sentences_per_note
        ),
        "notes_per_turn_budget": args.notes_per_turn,
        "overall": overall.summary(),
        "splits": {name: t.summary() for name, t in splits.items() if t.episodes},
        "per_conversation": per_conv,
        "seconds": round(elapsed, 2),
    }
    report = args.out.with_suffix(".md")
    kept = report.read_text().partition(_KEPT_SECTION)[1:] if report.exists() else ("", "")
    write_results(args.out, render_markdown(result) + "".join(kept), result)
    print(json.dumps(result, indent=2) if args.json else render_markdown(result))
    return 0


def _command(
    data: Path,
    notes_per_turn: float,
    conversations: str,
    max_sentences: int = DEFAULT_MAX_SENTENCES_PER_NOTE,
) -> str:
    suffix = "" if data == DEFAULT_LOCOMO_DIR else f" --data {data}"
    if conversations:
        suffix += f" --conversations {conversations}"
    if notes_per_turn != DEFAULT_NOTES_PER_TURN:
        suffix += f" --notes-per-turn {notes_per_turn}"
    if max_sentences != DEFAULT_MAX_SENTENCES_PER_NOTE:
        suffix += f" --max-sentences-per-note {max_sentences}"
    return f".venv/bin/python bench/consolidate.py{suffix}"


_COLUMNS = (
    ("coverage", "coverage"),
    ("baseline_coverage_longest_turns", "baseline: longest turns"),
    ("notes_per_turn", "notes/turn"),
    ("notes_per_episode", "notes/episode"),
    ("quality_at_0.5", "quality@0.5"),
    ("mean_best_recall", "mean recall"),
    ("ceiling_quality_verbatim_turns", "ceiling (verbatim)"),
    ("note_chars_per_source_char", "note/turn chars"),
    ("qa_evidence_in_notes", "QA evidence in notes"),
    ("observations", "obs"),
    ("turns", "turns"),
    ("notes", "notes"),
)


def render_markdown(result: dict[str, object]) -> str:
    splits = {f"**{k}**": v for k, v in result["splits"].items()}  # type: ignore[attr-defined]
    rows = {"**all**": result["overall"], **splits, **result["per_conversation"]}  # type: ignore[dict-item]
    lines = [
        "# Offline consolidation on LoCoMo observations",
        "",
        f"Command: `{result['command']}` ({result['seconds']} s)",
        "",
        md_table(
            ["conversation", *(label for _, label in _COLUMNS)],
            [
                [name, *(str(summary[key]) for key, _ in _COLUMNS)]  # type: ignore[index]
                for name, summary in rows.items()
            ],
        ),
    ]
    kinds = result["overall"]["kinds"]  # type: ignore[index]
    lines += [
        "",
        f"Note kinds: {', '.join(f'{k} {v}' for k, v in kinds.items())}.",
        "",
        "coverage = observations whose evidence turn is a source of some note; baseline = the"
        " same coverage when the session's longest turns are kept instead, as many as the"
        " extractor kept notes; quality@0.5 = observations whose best-matching note holds"
        " ≥ half their content words; ceiling = the same with every turn kept verbatim"
        " (1.0 notes/turn); note/turn chars = note length over the length of its source turns"
        " (the rewrite adds names and dates, the selection drops greetings and questions);"
        " QA evidence in notes = LoCoMo questions (categories 1–4) with an evidence turn among"
        " the sources of some note, i.e. answerable from notes without the episode fallback.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
