"""Probe: two relevance priors the default search does not have (issue 8 item 1, round 39).

Both re-score ``locomo_budget.py``'s cached pools (each question's top notes through the real
search and its ranked conversation turns), then build the result list with the real excerpt
and merge code (``locomo_budget.windows``, ``engine.hit_order.merge_ranked``) and score it:

- **episode prior** (``eprior:B``, ``eprior_notes:B``, ``eprior_turns:B``): the cosine of the
  question with each episode's stored vector (``episode_vectors``, written at segmentation and
  read by no search), min-max normalised over the persona's episodes; a note gains B × the
  prior of its source turns' episode, a turn B × its own episode's, before the merge (both
  tiers, or notes / turns only). Hierarchical retrieval: a session whose topic matches the
  question lifts what was said in it.
- **date prior** (``dprior:B`` or ``dprior:B/PAD``, ``dprior_notes:B``): a question naming an
  absolute date (``3 June, 2023``, ``June 3, 2023``: that day ± PAD days) or a month
  (``December 2023``) lifts by B the notes whose source turns, and the turns, were said then.

The episode vectors and turn days are read from the copy's SQLite file (no store method reads
them; a probe, not production). Validation conversations are not to be given here.

    python bench/locomo_priors.py COPY --now ISO --conversations 26,30,41 \
        --variants default,eprior:0.1,eprior_notes:0.1,dprior:0.1 [--loco] [--out PATH]
"""

from __future__ import annotations

import pickle
import re
import sqlite3
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from lib.harness import kept_ingest_parser, open_app
from lib.metrics import QuestionScore, score_question, to_retrieved
from omoide.api.render import render_hit
from omoide.engine.fusion import Scored
from omoide.engine.hit_order import merge_ranked
from omoide.engine.search_plan import DEFAULT_PLAN
from omoide.model import SearchHit

sys.path.insert(0, str(Path(__file__).parent))
from locomo import load_selected, questions_of
from locomo_budget import Pools, collect, loco_lines, report_lines, windows, write_out

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_M = "|".join(MONTHS)
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})\s+({_M}),?\s+(\d{{4}})\b", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"\b({_M})\s+(\d{{1,2}}),?\s+(\d{{4}})\b", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b({_M}),?\s+(\d{{4}})\b", re.IGNORECASE)


def date_span(question: str, pad: int = 0) -> tuple[date, date] | None:
    """The [start, end) days a question names: a day (± ``pad`` days) or a month; None."""
    if m := _DAY_MONTH_YEAR.search(question):
        day = date(int(m[3]), MONTHS.index(m[2].lower()) + 1, int(m[1]))
    elif m := _MONTH_DAY_YEAR.search(question):
        day = date(int(m[3]), MONTHS.index(m[1].lower()) + 1, int(m[2]))
    elif m := _MONTH_YEAR.search(question):
        year, month = int(m[2]), MONTHS.index(m[1].lower()) + 1
        return date(year, month, 1), date(year + (month == 12), month % 12 + 1, 1)
    else:
        return None
    return day - timedelta(days=pad), day + timedelta(days=pad + 1)


def minmax(values: np.ndarray) -> np.ndarray:
    """``values`` scaled to [0, 1] (all zero when they are equal)."""
    low, high = float(values.min()), float(values.max())
    if high <= low:
        return np.zeros_like(values)
    return (values - low) / (high - low)


class Folder:
    """What the probe reads from the copy's SQLite file: each persona's episode vectors and
    each turn's episode and day."""

    def __init__(self, db: Path) -> None:
        self.conn = sqlite3.connect(db)
        self._episodes: dict[str, tuple[list[int], np.ndarray]] = {}
        self._turns: dict[int, tuple[int | None, str]] = {}

    def episodes(self, persona: str) -> tuple[list[int], np.ndarray]:
        if persona not in self._episodes:
            rows = self.conn.execute(
                "SELECT e.id, v.vector FROM episodes e JOIN episode_vectors v "
                "ON v.episode_id = e.id JOIN personas p ON p.id = e.persona_id WHERE p.name = ?",
                (persona,),
            ).fetchall()
            vectors = np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
            vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
            self._episodes[persona] = ([r[0] for r in rows], vectors)
        return self._episodes[persona]

    def turns(self, ids: Iterable[int]) -> dict[int, tuple[int | None, str]]:
        """Turn id → (episode id, ISO day said)."""
        wanted = list(dict.fromkeys(ids))
        missing = [i for i in wanted if i not in self._turns]
        for start in range(0, len(missing), 500):
            part = missing[start : start + 500]
            marks = ",".join("?" * len(part))
            for row_id, episode, said in self.conn.execute(
                f"SELECT id, episode_id, timestamp FROM session_events WHERE id IN ({marks})",
                part,
            ):
                self._turns[row_id] = (episode, said[:10])
        return {i: self._turns[i] for i in wanted if i in self._turns}


def lifted_notes(notes: list[SearchHit], lift: dict[int, float]) -> list[SearchHit]:
    """Each note plus the best lift of its source turns, best first (stable)."""
    scored = [
        replace(n, score=n.score + max((lift.get(s.event_id, 0.0) for s in n.sources), default=0.0))
        for n in notes
    ]
    return sorted(scored, key=lambda h: -h.score)


def lifted_turns(ranked: Sequence[Scored], lift: dict[int, float]) -> list[Scored]:
    """Each turn plus its lift, best first (ties by id, as fusion breaks them)."""
    return sorted(
        (Scored(s.id, s.score + lift.get(s.id, 0.0)) for s in ranked),
        key=lambda s: (-s.score, s.id),
    )


def turn_lifts(app: Any, folder: Folder, persona: str, pools: Pools, variant: str) -> dict:
    """Turn id → the lift ``variant`` gives it (every turn a note cites or the tier ranked)."""
    base, _, arg = variant.partition(":")
    weight_text, _, pad = arg.partition("/")
    weight = float(weight_text)
    ids = [s.event_id for n in pools.notes for s in n.sources] + [s.id for s in pools.ranked]
    turns = folder.turns(ids)
    if base.startswith("eprior"):
        episode_ids, vectors = folder.episodes(persona)
        query = app.embedder.embed_query(pools.qa.question)
        prior = dict(zip(episode_ids, minmax(vectors @ query).tolist(), strict=True))
        return {i: weight * prior.get(ep, 0.0) for i, (ep, _) in turns.items()}
    span = date_span(pools.qa.question, int(pad or 0))
    if span is None:
        return {}
    low, high = span[0].isoformat(), span[1].isoformat()
    return {i: weight for i, (_, day) in turns.items() if low <= day < high}


def build(
    app: Any, folder: Folder, persona: str, pools: Pools, variant: str, top_k: int
) -> list[SearchHit]:
    notes, ranked = pools.notes, pools.ranked
    if variant != "default":
        base = variant.partition(":")[0]
        if base not in {"eprior", "eprior_notes", "eprior_turns", "dprior", "dprior_notes"}:
            raise SystemExit(f"unknown variant {variant}")
        lift = turn_lifts(app, folder, persona, pools, variant)
        if not base.endswith("_turns"):
            notes = lifted_notes(notes, lift)
        if not base.endswith("_notes"):
            ranked = lifted_turns(ranked, lift)
    excerpts = windows(app, persona, replace(pools, ranked=ranked), DEFAULT_PLAN, top_k)
    return merge_ranked(notes, excerpts, top_k)


def main(argv: Sequence[str] | None = None) -> None:
    parser = kept_ingest_parser(__doc__, "copy")
    parser.add_argument("--variants", default="default")
    parser.add_argument("--top-k", type=int, default=50)
    parser.add_argument("--out", type=Path, default=None, help="Write OUT.md / OUT.json too.")
    parser.add_argument("--loco", action="store_true", help="Choose leave-one-conversation-out.")
    args = parser.parse_args(argv)
    app = open_app(args.copy, None, args.now)
    folder = Folder(args.copy / "omoide.db")
    names = [p.name for p in app.store.list_personas()]
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    scores: dict[str, list[tuple[str, QuestionScore]]] = {v: [] for v in variants}
    for conv in load_selected(args.data, args.conversations):
        persona = next(n for n in names if n.startswith(f"locomo-{conv.sample_id}-"))
        cache = args.copy.parent / f"pools_{args.copy.name}_{conv.sample_id}.pkl"
        if cache.exists():
            cached = pickle.loads(cache.read_bytes())
        else:
            cached = collect(app, persona, questions_of(conv), args.top_k)
            cache.write_bytes(pickle.dumps(cached))
        for variant in variants:
            for pools in cached:
                hits = build(app, folder, persona, pools, variant, args.top_k)
                ranked = [to_retrieved(render_hit(h)) for h in hits]
                scores[variant].append(
                    (conv.sample_id, score_question(pools.qa, ranked, args.budget))
                )
        print(f"conversation {conv.sample_id} done", file=sys.stderr, flush=True)
    lines = loco_lines(scores, variants) if args.loco else []
    for line in [*report_lines(scores, variants), *lines]:
        print(line, flush=True)
    if args.out:
        write_out(args.out, scores, variants, lines)


if __name__ == "__main__":
    main()
