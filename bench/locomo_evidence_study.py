"""Probe: where a default search ranks the evidence of multi-turn and temporal questions.

Opens a data folder kept by ``bench/locomo.py --keep`` in-process (clock fixed), asks every
question of the chosen conversations through the real search service (the default plan unless
``--plan``), packs the results into the budget as the LoCoMo scorer does, and prints two tables
of aggregates (never a question):

- **set questions**: multi-hop questions with at least ``--min-evidence`` evidence turns. Each
  evidence turn: does an active note stand for it (``memory_sources``); where is it ranked (in
  the budget, in the first 15 results after it, 15–29, 30–49, in no result); and where is its
  own note. What the budget held instead: notes and excerpts per question, the idle ones (citing
  no evidence turn), idle *hub* notes (in the budgets of at least 10% of their conversation's
  questions), idle notes from the episode of a note above them, and sessions reached.
- **temporal questions**: evidence turns by place, whether they have a note, and the questions
  with an evidence turn outside the budget (their answer contained or not).

    python bench/locomo_evidence_study.py COPY --now 2026-12-03T19:00:00+00:00 \
        --conversations 26,30,41 [--plan default] [--min-evidence 3]
"""

from __future__ import annotations

import sqlite3
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lib.harness import kept_ingest_parser, open_app
from lib.metrics import contains_answer, pack, to_retrieved

sys.path.insert(0, str(Path(__file__).parent))
from locomo import load_selected, questions_of

PLACES = ("budget", "next15", "15-29", "30-49", "none")
HUB_SHARE = 0.1


def place(rank: int | None, included: int) -> str:
    """Where a 0-based rank falls against a budget that held ``included`` results."""
    if rank is None:
        return "none"
    if rank < included:
        return "budget"
    return "next15" if rank < 15 else "15-29" if rank < 30 else "30-49"


@dataclass
class Shown:
    kind: str  # "note" or "episode"
    key: str  # note key or episode id
    turns: tuple[str, ...]
    episode: str | None  # the note's episode (source_ref), None for excerpts


@dataclass
class Asked:
    conversation: str
    category: int
    evidence: tuple[str, ...]
    ranked: list[Shown]
    included: int
    contained: bool
    noted: dict[str, set[str]] = field(default_factory=dict)  # evidence turn -> note keys

    def rank(self, turn: str, *, notes_only: bool = False) -> int | None:
        keys = self.noted.get(turn, set())
        return next(
            (
                i
                for i, r in enumerate(self.ranked)
                if (r.key in keys if notes_only else turn in r.turns)
            ),
            None,
        )


def hubs(items: Sequence[Asked]) -> set[tuple[str, str]]:
    """(conversation, note key) of notes in the budgets of ≥ HUB_SHARE of its questions."""
    per_conv = Counter(i.conversation for i in items)
    seen: Counter[tuple[str, str]] = Counter()
    for item in items:
        for r in item.ranked[: item.included]:
            if r.kind == "note":
                seen[(item.conversation, r.key)] += 1
    return {k for k, n in seen.items() if n >= HUB_SHARE * per_conv[k[0]]}


def set_study(items: Sequence[Asked], hub: set[tuple[str, str]]) -> dict[str, float]:
    """The set-question aggregates (per evidence turn, and per question for the budget)."""
    c: Counter[str] = Counter()
    for item in items:
        evidence = set(item.evidence)
        c["questions"] += 1
        for turn in evidence:
            noted = bool(item.noted.get(turn))
            c["turns"] += 1
            c["noted"] += noted
            c[f"{'noted' if noted else 'bare'}_{place(item.rank(turn), item.included)}"] += 1
            if noted:
                c[f"note_{place(item.rank(turn, notes_only=True), item.included)}"] += 1
        episodes: set[str | None] = set()
        sessions: set[str] = set()
        for r in item.ranked[: item.included]:
            sessions |= {t.split(":")[0] for t in r.turns}
            idle = not evidence & set(r.turns)
            c[f"{r.kind}s"] += 1
            c[f"idle_{r.kind}s"] += idle
            if r.kind == "note" and idle:
                c["idle_hubs"] += (item.conversation, r.key) in hub
                c["idle_episode_above"] += r.episode is not None and r.episode in episodes
            episodes.add(r.episode)
        wanted = {t.split(":")[0] for t in evidence}
        c["sessions"] += len(sessions)
        c["evidence_sessions"] += len(wanted)
        c["evidence_sessions_reached"] += len(wanted & sessions)
    return dict(c)


def temporal_study(items: Sequence[Asked]) -> dict[str, float]:
    c: Counter[str] = Counter()
    for item in items:
        c["questions"] += 1
        out = False
        for turn in set(item.evidence):
            where = place(item.rank(turn), item.included)
            c["turns"] += 1
            c[f"turn_{where}"] += 1
            c["noted"] += bool(item.noted.get(turn))
            if where != "budget":
                out = True
                c["outside_noted"] += bool(item.noted.get(turn))
        c["questions_outside"] += out
        c["questions_outside_contained"] += out and item.contained
    return dict(c)


def render(
    sets: dict[str, float], temporal: dict[str, float], dated: tuple[int, int], min_evidence: int
) -> str:
    q = sets.get("questions", 0) or 1
    lines = [
        f"## Multi-hop questions with {min_evidence}+ evidence turns: "
        f"{sets.get('questions', 0)} questions, {sets.get('turns', 0)} evidence turns, "
        f"{sets.get('noted', 0)} with an active note",
        "",
        "| evidence turns | " + " | ".join(PLACES) + " |",
        "|---|" + "---|" * len(PLACES),
    ]
    for label, prefix in (
        ("with a note: first result citing it", "noted_"),
        ("with a note: the note itself", "note_"),
        ("without a note", "bare_"),
    ):
        lines.append(
            f"| {label} | " + " | ".join(str(sets.get(prefix + p, 0)) for p in PLACES) + " |"
        )
    lines += ["", "| per question, in the budget | value |", "|---|---|"]
    for label, key in (
        ("notes", "notes"),
        ("…citing no evidence (idle)", "idle_notes"),
        ("…idle hub notes", "idle_hubs"),
        ("…idle, from the episode of a note above", "idle_episode_above"),
        ("excerpts", "episodes"),
        ("…idle", "idle_episodes"),
        ("sessions reached", "sessions"),
        ("evidence sessions", "evidence_sessions"),
        ("evidence sessions reached (by any turn)", "evidence_sessions_reached"),
    ):
        lines.append(f"| {label} | {sets.get(key, 0) / q:.2f} |")
    lines += [
        "",
        f"## Temporal questions: {temporal.get('questions', 0)}, evidence turns "
        f"{temporal.get('turns', 0)} ({temporal.get('noted', 0)} with a note)",
        "",
        "| " + " | ".join(PLACES) + " |",
        "|" + "---|" * len(PLACES),
        "| " + " | ".join(str(temporal.get(f"turn_{p}", 0)) for p in PLACES) + " |",
        "",
        f"Questions with an evidence turn outside the budget: "
        f"{temporal.get('questions_outside', 0)} (answer contained in "
        f"{temporal.get('questions_outside_contained', 0)}); their outside turns with a "
        f"note: {temporal.get('outside_noted', 0)}.",
        f"Active notes holding a date (day month year, month year or a year): "
        f"{dated[0]} of {dated[1]}.",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    import re

    parser = kept_ingest_parser(__doc__)
    parser.add_argument("--plan", default="default")
    parser.add_argument("--top-k", type=int, default=50)
    parser.add_argument("--min-evidence", type=int, default=3)
    args = parser.parse_args(argv)
    from omoide.api.render import render_hit
    from omoide.engine.search_plan import preset

    app = open_app(args.folder, None, args.now)
    plan = preset(args.plan)
    db = sqlite3.connect(f"file:{args.folder / 'omoide.db'}?mode=ro", uri=True)
    names = {pid: name for pid, name in db.execute("SELECT id, name FROM personas")}
    noted: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for pid, turn, key in db.execute(
        "SELECT e.persona_id, e.external_id, m.key FROM memory_sources s JOIN memories m "
        "ON m.id = s.memory_id JOIN session_events e ON e.id = s.event_id "
        "WHERE m.status = 'active'"
    ):
        noted[names[pid]][turn].add(key)
    episode = dict(db.execute("SELECT key, source_ref FROM memories"))
    date = re.compile(
        r"\b(\d{1,2} )?(January|February|March|April|May|June|July|August|"
        r"September|October|November|December) \d{4}\b|\b(19|20)\d\d\b"
    )
    items: list[Asked] = []
    dated = [0, 0]
    for conv in load_selected(args.data, args.conversations):
        persona = next(n for n in names.values() if n.startswith(f"locomo-{conv.sample_id}-"))
        pid = next(p for p, n in names.items() if n == persona)
        for (content,) in db.execute(
            "SELECT content FROM memories WHERE persona_id = ? AND status = 'active'", (pid,)
        ):
            dated[0] += bool(date.search(content))
            dated[1] += 1
        for qa in questions_of(conv):
            request = app.search.build_request(persona, query=qa.question, top_k=args.top_k)
            hits = [
                render_hit(h)
                for h in app.search.search(persona, request, recall=False, plan=plan).results
            ]
            ranked = [to_retrieved(h) for h in hits]
            packed = pack(ranked, args.budget)
            shown = [
                Shown(
                    "note" if h["type"] == "note" else "episode",
                    str(h.get("key") or h.get("id")),
                    r.dia_ids,
                    episode.get(h.get("key")) if h["type"] == "note" else None,
                )
                for h, r in zip(hits, ranked, strict=True)
            ]
            evidence = tuple(dict.fromkeys(qa.evidence))
            items.append(
                Asked(
                    conv.sample_id,
                    qa.category,
                    evidence,
                    shown,
                    len(packed.included),
                    contains_answer(packed.text, qa.answer),
                    {t: noted[persona].get(t, set()) for t in evidence},
                )
            )
    hub = hubs(items)
    sets = set_study(
        [i for i in items if i.category == 1 and len(i.evidence) >= args.min_evidence], hub
    )
    temporal = temporal_study([i for i in items if i.category == 2])
    print(render(sets, temporal, (dated[0], dated[1]), args.min_evidence))


if __name__ == "__main__":
    main()
