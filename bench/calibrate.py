"""Measure where the spec's similarity thresholds sit on each bundled embedder's cosine scale.

The spec's dedup (0.85) and evolution (0.8) thresholds are raw cosine (DESIGN principle 4), but
USE and e5 spread cosine very differently. This script embeds hand-written labelled pairs
(``duplicate`` / ``related`` / ``unrelated``; English, Japanese and EN↔JA) in passage mode on
both sides, as dedup compares stored texts, and derives the calibration anchors
``(spec_value, raw_cosine)`` that ``src/omoide/embed/calibrations.py`` ships:

- spec 0.0  ↦ median cosine of unrelated pairs;
- spec 0.8  ↦ a quantile of related pairs (default the median), so the evolution band holds
  the upper part of the related pairs that dedup lets through;
- spec 0.85 ↦ the dedup threshold that best separates duplicates from related pairs
  (balanced accuracy; ties go to the higher threshold, because a false duplicate drops a
  memory while a missed one only stores a near-copy);
- spec 1.0  ↦ 1.0.

With ``--dedup-pairs PATH`` (``bench/data/dedup_pairs.jsonl``) the 0.85 anchor is chosen
instead on that set's *train* split pooled with the calibration pairs, as dedup decides: a
pair is dropped when cosine > threshold and ``find_value_change`` finds no changed value.
The anchor is the threshold with the highest paraphrase recall whose false duplicate rate
stays within ``--max-false-rate`` (ties go to the higher threshold); the validation split is
left to ``bench/dedup.py``.

It prints a report (or JSON with ``--json``), the anchors as Python source, and writes
``bench/results/calibration.md`` and ``.json``. It does not change any source file.

    .venv/bin/python bench/calibrate.py [--data PATH] [--embedder use|e5|all] [--json]
                                        [--dedup-pairs PATH [--max-false-rate 0.03]]
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from _calibration import (
    ANCHOR_DECIMALS,
    BOOTSTRAP_ROUNDS,
    CONSTANT_NAMES,
    SPEC_DEDUP,
    SPEC_EVOLUTION,
    BandShare,
    DedupOutcome,
    EmbedderReport,
    Label,
    Objective,
    Pair,
    ScoredPair,
    band_share,
    best_dedup_threshold,
    bootstrap_interval,
    by_lang,
    dedup_anchor_with_veto,
    derive_anchors,
    distributions,
    errors_at,
    load_pairs,
    pair_cosines,
)
from lib.cli import parser
from lib.reports import REPO, emit, md_table, shown_path
from omoide.embed import make_embedder
from omoide.engine.calibration import Calibration

DEFAULT_PAIRS = REPO / "src" / "omoide" / "embed" / "calibration_pairs.jsonl"


def measure(
    name: str,
    pairs: list[Pair],
    evolution_quantile: float,
    objective: Objective,
    dedup_rows: list[dict] | None = None,
    max_false_rate: float = 0.03,
) -> EmbedderReport:
    embedder = make_embedder(name)
    started = time.perf_counter()
    scores = pair_cosines(embedder, pairs)
    seconds = time.perf_counter() - started
    labels = np.array([pair.label.value for pair in pairs])
    langs = np.array([pair.lang for pair in pairs])
    choice = None
    if dedup_rows is not None:
        choice = dedup_anchor_with_veto(embedder, dedup_rows, pairs, max_false_rate)
    anchors, notes = derive_anchors(scores, labels, evolution_quantile, objective, choice)
    calibration = Calibration(anchors=anchors)
    dedup, evolution = calibration.to_raw(SPEC_DEDUP), calibration.to_raw(SPEC_EVOLUTION)
    duplicate, related = scores[labels == Label.DUPLICATE], scores[labels == Label.RELATED]
    return EmbedderReport(
        name=name,
        model_id=embedder.model_id,
        note=embedder.calibration.note,
        seconds=round(seconds, 2),
        anchors=anchors,
        anchor_notes=notes,
        objective=objective.value,
        dedup_threshold_interval=bootstrap_interval(duplicate, related, objective),
        by_objective={
            other.value: by_lang(
                round(best_dedup_threshold(duplicate, related, other), ANCHOR_DECIMALS),
                scores,
                labels,
                langs,
            )
            for other in Objective
        },
        distributions=distributions(scores, labels, langs),
        calibrated=by_lang(dedup, scores, labels, langs),
        uncalibrated=by_lang(SPEC_DEDUP, scores, labels, langs),
        calibrated_band=band_share(evolution, dedup, scores, labels),
        uncalibrated_band=band_share(SPEC_EVOLUTION, SPEC_DEDUP, scores, labels),
        missed_duplicates=errors_at(dedup, scores, pairs, Label.DUPLICATE, flagged=False),
        flagged_related=errors_at(dedup, scores, pairs, Label.RELATED, flagged=True),
        dedup_choice=choice,
    )


def anchors_source(report: EmbedderReport) -> str:
    anchors = ", ".join(f"({spec}, {raw})" for spec, raw in report.anchors)
    return (
        f"{CONSTANT_NAMES[report.name]} = Calibration(\n"
        f"    anchors=({anchors}),\n"
        f'    note="{report.note}",\n'
        ")"
    )


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _outcome_rows(outcomes: dict[str, DedupOutcome]) -> list[str]:
    return [
        md_table(
            [
                "pairs",
                "precision",
                "recall",
                "balanced acc.",
                "dups caught",
                "related flagged",
                "unrelated flagged",
            ],
            [
                [
                    key,
                    _fmt(o.precision),
                    _fmt(o.recall),
                    _fmt(o.balanced_accuracy),
                    f"{o.duplicates_caught}/{o.duplicates}",
                    f"{o.related_flagged}/{o.related}",
                    f"{o.unrelated_flagged}/{o.unrelated}",
                ]
                for key, o in outcomes.items()
            ],
        )
    ]


def _objective_rows(by_objective: dict[str, dict[str, DedupOutcome]]) -> list[str]:
    return [
        md_table(
            ["objective", "threshold", "precision", "recall", "cross recall", "related flagged"],
            [
                [
                    name,
                    f"{o['all'].threshold:.4f}",
                    _fmt(o["all"].precision),
                    _fmt(o["all"].recall),
                    _fmt(o["cross"].recall),
                    f"{o['all'].related_flagged}/{o['all'].related}",
                ]
                for name, o in by_objective.items()
            ],
        )
    ]


def _band_line(band: BandShare) -> str:
    return (
        f"evolution band [{band.low:.4f}, {band.high:.4f}] holds {band.related:.0%} of related, "
        f"{band.duplicate:.0%} of duplicate and {band.unrelated:.0%} of unrelated pairs"
    )


def _pair_lines(title: str, pairs: tuple[ScoredPair, ...], limit: int = 8) -> list[str]:
    if not pairs:
        return [f"{title}: none", ""]
    lines = [f"{title} ({len(pairs)}; worst {min(limit, len(pairs))}):", ""]
    lines += [f"- {p.cosine:.3f} [{p.lang}] {p.a} ↔ {p.b}" for p in pairs[:limit]]
    return [*lines, ""]


def render_embedder(report: EmbedderReport) -> list[str]:
    lines = [
        f"## {report.name} — `{report.model_id}`",
        "",
        f"Embedded the pairs in {report.seconds:.2f} s.",
        "",
        "Raw cosine by label:",
        "",
        md_table(
            ["label", "pairs", "n", "min", "p10", "median", "p90", "max"],
            [
                [label, key, d.n, *(_fmt(v) for v in (d.min, d.p10, d.median, d.p90, d.max))]
                for label, row in report.distributions.items()
                for key, d in row.items()
            ],
        ),
    ]
    low, high = report.dedup_threshold_interval
    lines += ["", "Anchors (spec ↦ raw):", ""]
    for (spec, raw), why in zip(report.anchors, report.anchor_notes, strict=True):
        lines.append(f"- {spec} ↦ {raw} ({why})")
    lines += [
        "",
        f"Dedup threshold of the {report.objective} objective (cosine only, these pairs) over "
        f"{BOOTSTRAP_ROUNDS} bootstrap resamples: 90% in [{low:.4f}, {high:.4f}].",
        "",
        "```python",
        anchors_source(report),
        "```",
        "",
        f"Calibrated dedup (cosine > {report.anchors[2][1]}):",
        "",
        *_outcome_rows(report.calibrated),
        "",
        _band_line(report.calibrated_band) + ".",
        "",
        "The dedup threshold each objective would choose (all pairs; cross = EN↔JA only):",
        "",
        *_objective_rows(report.by_objective),
        "",
        f"Uncalibrated (raw cosine > {SPEC_DEDUP} as the spec reads literally):",
        "",
        *_outcome_rows(report.uncalibrated),
        "",
        _band_line(report.uncalibrated_band) + ".",
        "",
        *_pair_lines("Duplicates missed at the calibrated threshold", report.missed_duplicates),
        *_pair_lines("Related pairs flagged as duplicates", report.flagged_related),
    ]
    return lines


def render_markdown(reports: list[EmbedderReport], header: str) -> str:
    lines = ["# Cosine calibration of the bundled embedders", "", header, ""]
    for report in reports:
        lines += render_embedder(report)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="calibration", data=DEFAULT_PAIRS)
    bench.add_argument("--embedder", choices=("use", "e5", "all"), default="all")
    bench.add_argument("--evolution-quantile", type=float, default=0.5)
    bench.add_argument(
        "--objective", choices=[o.value for o in Objective], default=Objective.BALANCED.value
    )
    bench.add_argument(
        "--dedup-pairs",
        type=Path,
        default=None,
        help="choose the 0.85 anchor on this dedup set's train split, with the veto",
    )
    bench.add_argument("--max-false-rate", type=float, default=0.03)
    args = bench.parse_args(argv)
    if not 0 < args.evolution_quantile < 1:
        bench.error("--evolution-quantile must be between 0 and 1")

    pairs = load_pairs(args.data)
    names = ["use", "e5"] if args.embedder == "all" else [args.embedder]
    objective = Objective(args.objective)
    dedup_rows = None
    if args.dedup_pairs is not None:
        dedup_rows = [
            json.loads(line)
            for line in args.dedup_pairs.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
    reports = [
        measure(name, pairs, args.evolution_quantile, objective, dedup_rows, args.max_false_rate)
        for name in names
    ]
    command = "python bench/calibrate.py " + " ".join(argv if argv is not None else sys.argv[1:])
    header = (
        f"Measured {dt.date.today().isoformat()} with `{command.strip()}` on {len(pairs)} pairs "
        f"from `{shown_path(args.data)}`. Cosine is passage ↔ passage. A pair counts as a "
        "duplicate when cosine > threshold."
    )
    payload = {
        "date": dt.date.today().isoformat(),
        "command": command.strip(),
        "pairs": shown_path(args.data),
        "n_pairs": len(pairs),
        "embedders": [asdict(report) for report in reports],
    }
    emit(args, render_markdown(reports, header), payload)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
