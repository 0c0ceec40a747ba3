"""Check ``omoide calibrate``'s procedure on the bundled embedders, whose calibrations were
measured separately (``bench/calibrate.py``, with the dedup pairs' train split too).

For each embedder it runs the same fit as ``omoide calibrate`` (anchors fitted on one half of
``src/omoide/embed/calibration_pairs.jsonl``, every other pair of each label) and reports the
fitted anchors next to the shipped ones, and what "cosine > the fitted dedup anchor" does on
the tuning half and on the held-out validation half: duplicates caught, and related or
unrelated pairs wrongly above it (cosine alone: the write path's value-change veto would save
some of those). Writes ``bench/results/calibrate_check.md`` and ``.json``.

    .venv/bin/python bench/calibrate_check.py [--embedder e5,use] [--out PATH]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from lib.reports import finish
from omoide.clock import SystemClock
from omoide.embed import make_embedder
from omoide.service.calibrate import CalibrationService

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedder", default="e5,use")
    parser.add_argument("--out", default=str(REPO / "bench" / "results" / "calibrate_check"))
    args = parser.parse_args()
    rows = []
    for name in args.embedder.split(","):
        embedder = make_embedder(name)
        started = time.perf_counter()
        report = CalibrationService(embedder, Path(tempfile.mkdtemp()), SystemClock()).calibrate(
            save=False, force=True
        )
        rows.append(
            {
                "embedder": name,
                "model_id": embedder.model_id,
                "seconds": round(time.perf_counter() - started, 1),
                "fitted": [list(a) for a in report.calibration.anchors],
                "shipped": [list(a) for a in embedder.calibration.anchors],
                **{
                    split: {
                        "recall": round(score.recall, 3),
                        "caught": score.duplicates_caught,
                        "duplicates": score.duplicates,
                        "false_rate": round(score.false_rate, 3),
                        "dropped": score.others_dropped,
                        "others": score.others,
                    }
                    for split, score in (
                        ("tuning", report.tuning),
                        ("validation", report.validation),
                    )
                },
            }
        )
    command = "python bench/calibrate_check.py --embedder " + args.embedder
    lines = [
        f"# `omoide calibrate` on the bundled embedders\n\n`{command}`\n",
        "| embedder | fitted anchors (spec, cosine) | shipped anchors | tuning: dup caught "
        "/ others above | validation: dup caught / others above |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        t, v = r["tuning"], r["validation"]
        lines.append(
            f"| {r['embedder']} | {r['fitted']} | {r['shipped']} | "
            f"{t['caught']}/{t['duplicates']} / {t['dropped']}/{t['others']} | "
            f"{v['caught']}/{v['duplicates']} / {v['dropped']}/{v['others']} |"
        )
    finish(lines, {"command": command, "rows": rows}, args.out)


if __name__ == "__main__":
    main()
