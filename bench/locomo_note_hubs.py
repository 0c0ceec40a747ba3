"""Probe: which notes fill the 1,000 tokens of questions they do not answer, and their shape.

Opens a data folder kept by ``bench/locomo.py --keep`` (or rewritten by
``bench/locomo_reconsolidate.py``) in-process with a fixed clock, asks every question of the
chosen conversations through the real default search, packs the results as the LoCoMo scorer
does, and counts for each note its **idle places**: the questions whose budget holds it while
none of its source turns is evidence of the question. Each note is described by its length
(characters), its sentences, how often it names the conversation's speakers (and per 100
characters), whether it carries a shared image's caption, and its **topic spread**: 1 − the
lowest cosine between two adjacent sentences of the note, embedded with the folder's own
embedder (a note that joins unrelated sentences spreads far). Prints, per feature, the notes in
bins with their mean idle places and the share of all idle places they take, the Spearman
correlation of each feature with idle places, and the notes with the most idle places.

    python bench/locomo_note_hubs.py COPY --now 2026-12-03T07:00:00+00:00 \
        [--conversations 26,30,41] [--top 15] [--out FILE]
"""

from __future__ import annotations

import itertools
import re
import sqlite3
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lib.harness import kept_ingest_parser, open_app
from lib.metrics import pack, to_retrieved
from lib.reports import write_markdown

sys.path.insert(0, str(Path(__file__).parent))
from locomo import load_selected, questions_of

_CAPTION = re.compile(r"\s*\([^()]* shared an image showing [^()]*(?:\([^()]*\)[^()]*)*\)")
_DATE_TAIL = re.compile(r"\s*\([^()]*\d{4}\)\s*$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")


def sentences(text: str) -> list[str]:
    body = _DATE_TAIL.sub("", _CAPTION.sub("", text))
    return [s for s in _SENTENCE.split(body) if s.strip()]


def spread(embedder: Any, parts: list[str]) -> float:
    if len(parts) < 2:
        return 0.0
    vectors = np.asarray(embedder.embed_passages(parts), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9
    return float(1.0 - min(float(vectors[i] @ vectors[i + 1]) for i in range(len(parts) - 1)))


def speakers(folder: Path, persona: str) -> set[str]:
    conn = sqlite3.connect(folder / "omoide.db")
    rows = conn.execute(
        "SELECT DISTINCT e.speaker FROM session_events e JOIN personas p ON "
        "p.id = e.persona_id WHERE p.name = ?",
        (persona,),
    ).fetchall()
    conn.close()
    return {r[0] for r in rows if r[0]}


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    rx = np.argsort(np.argsort(np.asarray(x))).astype(float)
    ry = np.argsort(np.argsort(np.asarray(y))).astype(float)
    return float(np.corrcoef(rx, ry)[0, 1]) if len(x) > 2 else 0.0


def binned(notes: list[dict[str, Any]], feature: str, edges: Sequence[float]) -> list[str]:
    total = sum(n["idle"] for n in notes) or 1
    rows = []
    bounds = [-np.inf, *edges, np.inf]
    for lo, hi in itertools.pairwise(bounds):
        part = [n for n in notes if lo < n[feature] <= hi]
        if not part:
            continue
        idle = sum(n["idle"] for n in part)
        rows.append(
            f"| {feature} ({lo:g}, {hi:g}] | {len(part)} | {idle / len(part):.2f} | "
            f"{sum(n['useful'] for n in part) / len(part):.2f} | {idle / total:.2f} |"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = kept_ingest_parser(__doc__)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    from omoide.api.render import render_hit
    from omoide.engine.search_plan import preset

    app = open_app(args.folder, None, args.now)
    plan = preset("default")
    names = [p.name for p in app.store.list_personas()]
    idle: Counter[tuple[str, str]] = Counter()
    useful: Counter[tuple[str, str]] = Counter()
    ids: dict[tuple[str, str], tuple[str, ...]] = {}
    who: dict[str, set[str]] = {}
    for conv in load_selected(args.data, args.conversations):
        persona = next(n for n in names if n.startswith(f"locomo-{conv.sample_id}-"))
        who[conv.sample_id] = speakers(args.folder, persona)
        for qa in questions_of(conv):
            request = app.search.build_request(persona, query=qa.question, top_k=50)
            hits = app.search.search(persona, request, recall=False, plan=plan).results
            for r in pack([to_retrieved(render_hit(h)) for h in hits], args.budget).included:
                if r.kind != "note":
                    continue
                key = (conv.sample_id, r.content)
                ids[key] = tuple(r.dia_ids)
                if set(r.dia_ids) & set(qa.evidence):
                    useful[key] += 1
                else:
                    idle[key] += 1
    notes = []
    for key, dia in ids.items():
        conv, text = key
        parts = sentences(text)
        names_said = sum(len(re.findall(rf"\b{re.escape(s)}\b", text)) for s in who[conv])
        notes.append(
            {
                "conv": conv,
                "text": text,
                "dia": dia,
                "idle": idle[key],
                "useful": useful[key],
                "chars": len(text),
                "sentences": len(parts),
                "names": names_said,
                "name_density": 100 * names_said / len(text),
                "caption": int(bool(_CAPTION.search(text))),
                "spread": spread(app.embedder, parts),
            }
        )
    features = {
        "chars": (150, 220, 300),
        "sentences": (1, 2, 3),
        "names": (1, 2, 3, 5),
        "name_density": (1, 1.5, 2),
        "caption": (0,),
        "spread": (0.05, 0.10, 0.15),
    }
    lines = [
        f"# Note hubs ({args.conversations}, budget {args.budget}, now {args.now})",
        "",
        f"{len(notes)} notes were in some budget; {sum(idle.values())} idle places, "
        f"{sum(useful.values())} useful places.",
        "",
        "| feature (bin] | notes | idle places / note | useful / note | share of idle |",
        "|---|---|---|---|---|",
    ]
    for feature, edges in features.items():
        lines += binned(notes, feature, edges)
    lines += [
        "",
        "Quartiles (25 / 50 / 75%): "
        + ", ".join(
            f"{f} "
            + " / ".join(f"{q:.2f}" for q in np.percentile([n[f] for n in notes], [25, 50, 75]))
            for f in features
        ),
    ]
    lines += [
        "",
        "Spearman with idle places: "
        + ", ".join(
            f"{f} {spearman([n[f] for n in notes], [n['idle'] for n in notes]):+.3f}"
            for f in features
        ),
        "",
        "Most idle notes:",
        "",
    ]
    for n in sorted(notes, key=lambda n: -n["idle"])[: args.top]:
        lines.append(
            f"- idle {n['idle']}, useful {n['useful']}, {n['chars']} ch, "
            f"{n['sentences']} sent, name ×{n['names']}, spread {n['spread']:.2f} "
            f"[{n['conv']} {','.join(n['dia'])}]: {n['text']}"
        )
    text = "\n".join(lines) + "\n"
    if args.out:
        write_markdown(args.out, text)
    print(text)


if __name__ == "__main__":
    main()
