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

    .venv/bin/python bench/calibrate.py [--pairs PATH] [--embedder use|e5|all] [--json]
                                        [--dedup-pairs PATH [--max-false-rate 0.03]]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from omoide.embed import Embedder, make_embedder
from omoide.engine.calibration import Calibration
from omoide.engine.classify import find_value_change

REPO = Path(__file__).resolve().parents[1]
DEFAULT_PAIRS = REPO / "src" / "omoide" / "embed" / "calibration_pairs.jsonl"
DEFAULT_OUT = REPO / "bench" / "results"
SPEC_DEDUP = 0.85
SPEC_EVOLUTION = 0.8
LANGS = ("en", "ja", "cross")
CONSTANT_NAMES = {"use": "USE_CALIBRATION", "e5": "E5_CALIBRATION"}
BOOTSTRAP_ROUNDS = 1000
ANCHOR_DECIMALS = 4


class Label(StrEnum):
    DUPLICATE = "duplicate"
    RELATED = "related"
    UNRELATED = "unrelated"


class Objective(StrEnum):
    """What the dedup threshold maximises, duplicate vs related pairs."""

    BALANCED = "balanced"  # mean of duplicate recall and related specificity
    F1 = "f1"
    F05 = "f0.5"  # weighs precision twice: a false duplicate drops a memory


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    label: Label
    lang: str


@dataclass(frozen=True)
class Distribution:
    n: int
    min: float
    p10: float
    median: float
    p90: float
    max: float


@dataclass(frozen=True)
class DedupOutcome:
    """What ``cosine > threshold → duplicate`` does on a set of pairs."""

    threshold: float
    precision: float | None
    recall: float | None
    balanced_accuracy: float | None
    duplicates_caught: int
    duplicates: int
    related_flagged: int
    related: int
    unrelated_flagged: int
    unrelated: int


@dataclass(frozen=True)
class BandShare:
    """Share of each label whose cosine lands in the evolution band [low, high]."""

    low: float
    high: float
    duplicate: float
    related: float
    unrelated: float


@dataclass(frozen=True)
class ScoredPair:
    cosine: float
    a: str
    b: str
    lang: str


@dataclass(frozen=True)
class EmbedderReport:
    name: str
    model_id: str
    note: str
    seconds: float
    anchors: tuple[tuple[float, float], ...]
    anchor_notes: tuple[str, ...]
    objective: str
    by_objective: dict[str, dict[str, DedupOutcome]]
    dedup_threshold_interval: tuple[float, float]
    distributions: dict[str, dict[str, Distribution]]
    calibrated: dict[str, DedupOutcome]
    uncalibrated: dict[str, DedupOutcome]
    calibrated_band: BandShare
    uncalibrated_band: BandShare
    missed_duplicates: tuple[ScoredPair, ...]
    flagged_related: tuple[ScoredPair, ...]
    dedup_choice: DedupChoice | None = None


@dataclass(frozen=True)
class DedupChoice:
    """The dedup anchor chosen on the dedup set's train split, with the value-change veto."""

    threshold: float
    max_false_rate: float
    pairs: int
    recall: float
    false_rate: float


def dedup_anchor_with_veto(
    embedder: Embedder, rows: list[dict], calibration: list[Pair], max_false_rate: float
) -> DedupChoice:
    """Highest-recall threshold of "cosine > t and no value change" within the false-rate
    budget, on the ``train`` rows of a dedup set (labels ``duplicate`` / ``different``) pooled
    with the calibration pairs (``related`` and ``unrelated`` count as different)."""
    train = [(r["a"], r["b"], r["label"] == "duplicate") for r in rows if r["split"] == "train"]
    train += [(p.a, p.b, p.label is Label.DUPLICATE) for p in calibration]
    pairs = [Pair(a=a, b=b, label=Label.RELATED, lang="en") for a, b, _ in train]
    scores = pair_cosines(embedder, pairs)
    kept = np.array([find_value_change(a, b) is None for a, b, _ in train])
    duplicate = np.array([is_duplicate for _, _, is_duplicate in train])
    values = np.unique(scores)
    candidates = np.concatenate([(values[:-1] + values[1:]) / 2, [values[-1]]])
    flagged = (scores[None, :] > candidates[:, None]) & kept[None, :]
    recall = (flagged & duplicate).sum(axis=1) / duplicate.sum()
    false_rate = (flagged & ~duplicate).sum(axis=1) / (~duplicate).sum()
    feasible = false_rate <= max_false_rate + 1e-12
    best = np.flatnonzero(feasible & (recall >= recall[feasible].max() - 1e-12))[-1]
    return DedupChoice(
        threshold=round(float(candidates[best]), ANCHOR_DECIMALS),
        max_false_rate=max_false_rate,
        pairs=len(train),
        recall=round(float(recall[best]), 3),
        false_rate=round(float(false_rate[best]), 3),
    )


def load_pairs(path: Path) -> list[Pair]:
    """Read the labelled pairs; a malformed line stops the run with its line number."""
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            pair = Pair(a=row["a"], b=row["b"], label=Label(row["label"]), lang=row["lang"])
        except (ValueError, KeyError) as exc:
            raise SystemExit(f"{path}:{number}: bad pair ({exc})") from exc
        if pair.lang not in LANGS:
            raise SystemExit(f"{path}:{number}: lang must be one of {', '.join(LANGS)}")
        pairs.append(pair)
    return pairs


def pair_cosines(embedder: Embedder, pairs: list[Pair]) -> np.ndarray:
    """Cosine of each pair, with every distinct text embedded once as a passage."""
    texts = sorted({text for pair in pairs for text in (pair.a, pair.b)})
    index = {text: i for i, text in enumerate(texts)}
    vectors = embedder.embed_passages(texts)
    a = vectors[[index[pair.a] for pair in pairs]]
    b = vectors[[index[pair.b] for pair in pairs]]
    return np.einsum("ij,ij->i", a, b).astype(np.float64)


def describe(scores: np.ndarray) -> Distribution:
    return Distribution(
        n=len(scores),
        min=round(float(scores.min()), 4),
        p10=round(float(np.quantile(scores, 0.1)), 4),
        median=round(float(np.median(scores)), 4),
        p90=round(float(np.quantile(scores, 0.9)), 4),
        max=round(float(scores.max()), 4),
    )


def best_dedup_threshold(
    duplicate: np.ndarray, related: np.ndarray, objective: Objective = Objective.BALANCED
) -> float:
    """Midpoint between adjacent scores that maximises ``objective``; highest on a tie."""
    values = np.unique(np.concatenate([duplicate, related]))
    candidates = np.concatenate([(values[:-1] + values[1:]) / 2, [values[-1]]])
    caught = (duplicate[None, :] > candidates[:, None]).sum(axis=1)
    false = (related[None, :] > candidates[:, None]).sum(axis=1)
    recall = caught / len(duplicate)
    if objective is Objective.BALANCED:
        score = (recall + 1 - false / len(related)) / 2
    else:
        beta2 = 1.0 if objective is Objective.F1 else 0.25
        precision = np.divide(caught, caught + false, out=np.zeros(len(caught)), where=caught > 0)
        denominator = beta2 * precision + recall
        score = np.divide(
            (1 + beta2) * precision * recall,
            denominator,
            out=np.zeros(len(caught)),
            where=denominator > 0,
        )
    best = np.flatnonzero(score >= score.max() - 1e-12)
    return float(candidates[best[-1]])


def bootstrap_interval(
    duplicate: np.ndarray, related: np.ndarray, objective: Objective
) -> tuple[float, float]:
    """5th-95th percentile of the dedup threshold over resampled pair sets (seeded)."""
    rng = np.random.default_rng(0)
    found = [
        best_dedup_threshold(
            rng.choice(duplicate, size=len(duplicate)),
            rng.choice(related, size=len(related)),
            objective,
        )
        for _ in range(BOOTSTRAP_ROUNDS)
    ]
    return round(float(np.quantile(found, 0.05)), 4), round(float(np.quantile(found, 0.95)), 4)


def derive_anchors(
    scores: np.ndarray,
    labels: np.ndarray,
    evolution_quantile: float,
    objective: Objective,
    choice: DedupChoice | None = None,
) -> tuple[tuple[tuple[float, float], ...], tuple[str, ...]]:
    """The four anchors, rounded as they will be shipped, and how each was chosen."""
    duplicate, related = scores[labels == Label.DUPLICATE], scores[labels == Label.RELATED]
    zero = round(float(np.median(scores[labels == Label.UNRELATED])), ANCHOR_DECIMALS)
    dedup = round(best_dedup_threshold(duplicate, related, objective), ANCHOR_DECIMALS)
    dedup_note = f"best {objective.value} score, duplicate vs related"
    if choice is not None:
        dedup = choice.threshold
        dedup_note = (
            f"{choice.pairs} pairs (dedup set train split + these), with the value-change "
            f"veto: recall {choice.recall:.3f}, "
            f"false duplicates {choice.false_rate:.3f} (budget {choice.max_false_rate:.3f})"
        )
    evolution = round(float(np.quantile(related, evolution_quantile)), ANCHOR_DECIMALS)
    notes = [
        "median unrelated pair",
        f"related pairs' {evolution_quantile:.2f} quantile",
        dedup_note,
        "identical text",
    ]
    if not zero < evolution < dedup:
        # The related quantile fell outside the gap: fall back to the spec's own spacing.
        evolution = round(zero + (dedup - zero) * SPEC_EVOLUTION / SPEC_DEDUP, ANCHOR_DECIMALS)
        notes[1] = "related quantile out of range; linear between the 0.0 and 0.85 anchors"
    anchors = ((0.0, zero), (SPEC_EVOLUTION, evolution), (SPEC_DEDUP, dedup), (1.0, 1.0))
    Calibration(anchors=anchors)  # refuses anchors that are not increasing
    return anchors, tuple(notes)


def dedup_outcome(threshold: float, scores: np.ndarray, labels: np.ndarray) -> DedupOutcome:
    flagged = scores > threshold
    counts = {label: int((labels == label).sum()) for label in Label}
    hits = {label: int((flagged & (labels == label)).sum()) for label in Label}
    n_flagged = int(flagged.sum())
    recall = _share(hits[Label.DUPLICATE], counts[Label.DUPLICATE])
    flagged_related = _share(hits[Label.RELATED], counts[Label.RELATED])
    balanced = None
    if recall is not None and flagged_related is not None:
        balanced = (recall + 1 - flagged_related) / 2
    return DedupOutcome(
        threshold=threshold,
        precision=_rounded(hits[Label.DUPLICATE] / n_flagged if n_flagged else None),
        recall=_rounded(recall),
        balanced_accuracy=_rounded(balanced),
        duplicates_caught=hits[Label.DUPLICATE],
        duplicates=counts[Label.DUPLICATE],
        related_flagged=hits[Label.RELATED],
        related=counts[Label.RELATED],
        unrelated_flagged=hits[Label.UNRELATED],
        unrelated=counts[Label.UNRELATED],
    )


def band_share(low: float, high: float, scores: np.ndarray, labels: np.ndarray) -> BandShare:
    inside = (scores >= low) & (scores <= high)
    share = {label: round(float(inside[labels == label].mean()), 3) for label in Label}
    return BandShare(
        low=low,
        high=high,
        duplicate=share[Label.DUPLICATE],
        related=share[Label.RELATED],
        unrelated=share[Label.UNRELATED],
    )


def by_lang(
    threshold: float, scores: np.ndarray, labels: np.ndarray, langs: np.ndarray
) -> dict[str, DedupOutcome]:
    outcomes = {"all": dedup_outcome(threshold, scores, labels)}
    for lang in LANGS:
        mask = langs == lang
        outcomes[lang] = dedup_outcome(threshold, scores[mask], labels[mask])
    return outcomes


def distributions(
    scores: np.ndarray, labels: np.ndarray, langs: np.ndarray
) -> dict[str, dict[str, Distribution]]:
    table: dict[str, dict[str, Distribution]] = {}
    for label in Label:
        row = {"all": describe(scores[labels == label])}
        for lang in LANGS:
            mask = (labels == label) & (langs == lang)
            if mask.any():
                row[lang] = describe(scores[mask])
        table[label.value] = row
    return table


def errors_at(
    threshold: float, scores: np.ndarray, pairs: list[Pair], label: Label, flagged: bool
) -> tuple[ScoredPair, ...]:
    """Pairs of ``label`` on the wrong side of the threshold, the worst first."""
    wrong = [
        ScoredPair(round(float(score), 4), pair.a, pair.b, pair.lang)
        for score, pair in zip(scores, pairs, strict=True)
        if pair.label == label and (score > threshold) == flagged
    ]
    return tuple(sorted(wrong, key=lambda p: p.cosine, reverse=flagged))


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


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _outcome_rows(outcomes: dict[str, DedupOutcome]) -> list[str]:
    rows = [
        "| pairs | precision | recall | balanced acc. | dups caught | related flagged "
        "| unrelated flagged |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, o in outcomes.items():
        rows.append(
            f"| {key} | {_fmt(o.precision)} | {_fmt(o.recall)} | {_fmt(o.balanced_accuracy)} "
            f"| {o.duplicates_caught}/{o.duplicates} | {o.related_flagged}/{o.related} "
            f"| {o.unrelated_flagged}/{o.unrelated} |"
        )
    return rows


def _objective_rows(by_objective: dict[str, dict[str, DedupOutcome]]) -> list[str]:
    rows = [
        "| objective | threshold | precision | recall | cross recall | related flagged |",
        "|---|---|---|---|---|---|",
    ]
    for name, outcomes in by_objective.items():
        o, cross = outcomes["all"], outcomes["cross"]
        rows.append(
            f"| {name} | {o.threshold:.4f} | {_fmt(o.precision)} | {_fmt(o.recall)} "
            f"| {_fmt(cross.recall)} | {o.related_flagged}/{o.related} |"
        )
    return rows


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
        "| label | pairs | n | min | p10 | median | p90 | max |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, row in report.distributions.items():
        for key, d in row.items():
            lines.append(
                f"| {label} | {key} | {d.n} | {d.min:.3f} | {d.p10:.3f} | {d.median:.3f} "
                f"| {d.p90:.3f} | {d.max:.3f} |"
            )
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", "--data", type=Path, default=DEFAULT_PAIRS)
    parser.add_argument("--embedder", choices=("use", "e5", "all"), default="all")
    parser.add_argument("--evolution-quantile", type=float, default=0.5)
    parser.add_argument(
        "--objective", choices=[o.value for o in Objective], default=Objective.BALANCED.value
    )
    parser.add_argument(
        "--dedup-pairs",
        type=Path,
        default=None,
        help="choose the 0.85 anchor on this dedup set's train split, with the veto",
    )
    parser.add_argument("--max-false-rate", type=float, default=0.03)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--json", action="store_true", help="print JSON instead of the report")
    args = parser.parse_args(argv)
    if not 0 < args.evolution_quantile < 1:
        parser.error("--evolution-quantile must be between 0 and 1")

    pairs = load_pairs(args.pairs)
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
        f"from `{_shown(args.pairs)}`. Cosine is passage ↔ passage. A pair counts as a "
        "duplicate when cosine > threshold."
    )
    payload = {
        "date": dt.date.today().isoformat(),
        "command": command.strip(),
        "pairs": _shown(args.pairs),
        "n_pairs": len(pairs),
        "embedders": [asdict(report) for report in reports],
    }
    markdown = render_markdown(reports, header)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "calibration.md").write_text(markdown, encoding="utf-8")
    (args.out / "calibration.json").write_text(
        json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    print(json.dumps(payload, ensure_ascii=False, indent=2) if args.json else markdown)
    return 0


def _shown(path: Path) -> str:
    resolved = path.resolve()
    return str(resolved.relative_to(REPO)) if resolved.is_relative_to(REPO) else str(path)


if __name__ == "__main__":
    raise SystemExit(main())
