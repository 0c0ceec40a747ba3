"""Where do related pairs sit on each embedder's calibrated scale? Chooses the 3-op band.

For every labelled pair of the classification set, the raw cosine of old/new (passage vectors)
is mapped to the spec's scale with the embedder's calibration. The classification band's lower
edge (setting ``classify_band_low``) must let through nearly every CONTRADICTORY and
EXTENDABLE pair — contradictions are often *less* similar than paraphrases — while the
classifier, not similarity, decides what happens.

    python bench/classify_band.py [--data PATH] [--embedder use|e5|all] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from omoide.embed import make_embedder

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "classify" / \
    "dev.jsonl"
OUT = Path(__file__).resolve().parent / "results" / "classify_band"
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
            "n": int(sel.sum()), "min": float(values.min()),
            "p05": float(np.percentile(values, 5)), "median": float(np.median(values)),
            "max": float(values.max()),
            "raw_median": float(np.median(raw[sel]))}
    changing = spec[np.array([r["label"] != "INDEPENDENT" for r in rows])]
    out["band_low_for_95pct"] = float(np.percentile(changing, 5))
    out["band_low_for_all"] = float(changing.min())
    out["dedup_would_drop"] = int(np.sum(spec > 0.85))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--embedder", default="all", choices=["use", "e5", "all"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    names = ["use", "e5"] if args.embedder == "all" else [args.embedder]
    results = [measure(rows, n) for n in names]
    lines = [f"# Classification band ({len(rows)} pairs from {args.data.name})", "",
             "Spec-scale similarity (calibrated) of old/new per label:", ""]
    for res in results:
        lines += [f"## {res['embedder']}", "", "| label | n | min | p05 | median | max |",
                  "|---|---|---|---|---|---|"]
        for label, st in res["labels"].items():
            lines.append(f"| {label} | {st['n']} | {st['min']:.3f} | {st['p05']:.3f} | "
                         f"{st['median']:.3f} | {st['max']:.3f} |")
        lines += ["", "- lower edge keeping 95% of EXTENDABLE+CONTRADICTORY pairs: "
                      f"{res['band_low_for_95pct']:.3f}; keeping all: "
                      f"{res['band_low_for_all']:.3f}",
                  f"- pairs above the dedup threshold (spec 0.85): {res['dedup_would_drop']}", ""]
    text = "\n".join(lines)
    print(json.dumps(results, indent=2) if args.json else text)
    OUT.parent.mkdir(exist_ok=True)
    OUT.with_suffix(".md").write_text(text + "\n", encoding="utf-8")
    OUT.with_suffix(".json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
