"""Where do related pairs sit on each embedder's calibrated scale? Chooses the 3-op band.

For every labelled pair of the classification set, the raw cosine of old/new (passage vectors)
is mapped to the spec's scale with the embedder's calibration. The classification band's lower
edge (setting ``classify_band_low``) must let through nearly every CONTRADICTORY and
EXTENDABLE pair — contradictions are often *less* similar than paraphrases — while the
classifier, not similarity, decides what happens.

    python bench/classify_band.py [--data PATH] [--embedder use|e5|all] [--json]
"""

from __future__ import annotations

import json
import sys

import numpy as np

from lib.cli import parser
from lib.reports import emit, md_table
from omoide.embed import make_embedder

LABELS = ("INDEPENDENT", "EXTENDABLE", "CONTRADICTORY")


def measure(rows: list[dict], name: str) -> dict:
    embedder = make_embedder(name)
    old = embedder.embed_passages([r["old"] for r in rows])
    new = embedder.embed_passages([r["new"] for r in rows])
    raw = np.sum(old * new, axis=1)
    spec = np.array([embedder.calibration.to_spec(float(x)) for x in raw])
    out: dict = {"embedder": embedder.model_id, "labels": {}}
    for label in LABELS:
        sel = np.array([r["label"] == label for r in rows])
        values = spec[sel]
        out["labels"][label] = {
            "n": int(sel.sum()),
            "min": float(values.min()),
            "p05": float(np.percentile(values, 5)),
            "median": float(np.median(values)),
            "max": float(values.max()),
            "raw_median": float(np.median(raw[sel])),
        }
    changing = spec[np.array([r["label"] != "INDEPENDENT" for r in rows])]
    out["band_low_for_95pct"] = float(np.percentile(changing, 5))
    out["band_low_for_all"] = float(changing.min())
    out["dedup_would_drop"] = int(np.sum(spec > 0.85))
    return out


def main() -> int:
    bench = parser(__doc__, out="classify_band", data="classify/dev.jsonl")
    bench.add_argument("--embedder", default="all", choices=["use", "e5", "all"])
    args = bench.parse_args()
    rows = [
        json.loads(line)
        for line in args.data.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    names = ["use", "e5"] if args.embedder == "all" else [args.embedder]
    results = [measure(rows, n) for n in names]
    lines = [
        f"# Classification band ({len(rows)} pairs from {args.data.name})",
        "",
        "Spec-scale similarity (calibrated) of old/new per label:",
        "",
    ]
    for res in results:
        lines += [
            f"## {res['embedder']}",
            "",
            md_table(
                ["label", "n", "min", "p05", "median", "max"],
                [
                    [label, st["n"], *(f"{st[k]:.3f}" for k in ("min", "p05", "median", "max"))]
                    for label, st in res["labels"].items()
                ],
            ),
        ]
        lines += [
            "",
            "- lower edge keeping 95% of EXTENDABLE+CONTRADICTORY pairs: "
            f"{res['band_low_for_95pct']:.3f}; keeping all: "
            f"{res['band_low_for_all']:.3f}",
            f"- pairs above the dedup threshold (spec 0.85): {res['dedup_would_drop']}",
            "",
        ]
    text = "\n".join(lines)
    emit(args, text, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
