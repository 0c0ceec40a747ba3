"""Benchmark the 3-op contradiction classifier on labelled memory pairs.

    .venv/bin/python bench/classify.py                      # offline engine, shared dev set
    .venv/bin/python bench/classify.py --engine llm --json  # the configured LLM engine

Prints accuracy, macro-F1, per-label precision/recall and the 3x3 confusion matrix, overall
and by language and difficulty, then writes bench/results/classify_<engine>.md and .json.
CONTRADICTORY precision is reported on its own: a false CONTRADICTORY closes a memory that is
still true. ``--heldout`` scores a second file (by default our own pairs next to the unit
tests) separately, as a check that the rules were not fitted to the dev set.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from omoide.engine.classify import Candidate, Classifier, Relation

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "bench" / "classify" / "dev.jsonl"
DEFAULT_HELDOUT = REPO / "tests" / "unit" / "engine" / "classify_cases.jsonl"
RESULTS = REPO / "bench" / "results"
LABELS = tuple(r.value for r in Relation)


@dataclass(frozen=True)
class Pair:
    id: str
    lang: str
    old: str
    new: str
    label: str
    difficulty: str


@dataclass(frozen=True)
class Prediction:
    pair: Pair
    label: str
    confidence: float
    reason: str


def load_pairs(path: Path) -> list[Pair]:
    """Read a classify JSONL file (fields as in shared/bench/README.md)."""
    pairs = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                pairs.append(
                    Pair(
                        id=row["id"],
                        lang=row["lang"],
                        old=row["old"],
                        new=row["new"],
                        label=row["label"],
                        difficulty=row.get("difficulty", "unknown"),
                    )
                )
    return pairs


def predict(pairs: Iterable[Pair], classifier: Classifier) -> list[Prediction]:
    """One classifier call per pair, the old memory as the only candidate."""
    out = []
    for pair in pairs:
        (verdict,) = classifier.classify(
            pair.new, [Candidate(pair.id, pair.old, 0.0)], lang=pair.lang
        )
        out.append(Prediction(pair, verdict.relation.value, verdict.confidence, verdict.reason))
    return out


def score(predictions: list[Prediction]) -> dict[str, object]:
    """Accuracy, macro-F1, per-label precision/recall/F1 and the confusion matrix."""
    confusion = {gold: dict.fromkeys(LABELS, 0) for gold in LABELS}
    for p in predictions:
        confusion[p.pair.label][p.label] += 1
    per_label = {}
    for label in LABELS:
        tp = confusion[label][label]
        predicted = sum(confusion[g][label] for g in LABELS)
        actual = sum(confusion[label].values())
        precision = tp / predicted if predicted else 0.0
        recall = tp / actual if actual else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_label[label] = {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
            "support": actual,
        }
    n = len(predictions)
    present = [label for label in LABELS if per_label[label]["support"]]
    macro = sum(float(per_label[lb]["f1"]) for lb in present) / len(present) if present else 0.0
    correct = sum(p.label == p.pair.label for p in predictions)
    return {
        "n": n,
        "accuracy": round(correct / n, 4) if n else 0.0,
        "macro_f1": round(macro, 4),
        "per_label": per_label,
        "confusion": confusion,
    }


def evaluate(pairs: list[Pair], classifier: Classifier) -> dict[str, object]:
    """Scores overall and by language and difficulty, plus the misclassified pairs."""
    predictions = predict(pairs, classifier)
    report = score(predictions)
    report["by_lang"] = _breakdown(predictions, lambda p: p.pair.lang)
    report["by_difficulty"] = _breakdown(predictions, lambda p: p.pair.difficulty)
    report["errors"] = [
        {"id": p.pair.id, "gold": p.pair.label, "predicted": p.label, "reason": p.reason}
        for p in predictions
        if p.label != p.pair.label
    ]
    return report


def _breakdown(
    predictions: list[Prediction], key: Callable[[Prediction], str]
) -> dict[str, object]:
    groups: dict[str, list[Prediction]] = {}
    for p in predictions:
        groups.setdefault(key(p), []).append(p)
    return {name: score(group) for name, group in sorted(groups.items())}


def build_classifier(engine: str) -> Classifier:
    """The offline engine, or the configured LLM engine (exit 2 when none is configured)."""
    from omoide.engine.classify_offline import OfflineClassifier

    if engine == "offline":
        return OfflineClassifier()
    from omoide.errors import InvalidInput
    from omoide.llm import llm_config_from_env, make_llm  # only needed for --engine llm
    from omoide.llm.classify import LLMClassifier

    try:
        llm = make_llm(llm_config_from_env(os.environ))
    except InvalidInput as exc:
        _fail(f"the LLM configuration is incomplete: {exc}")
    if llm is None:
        _fail("no LLM is configured (set OMOIDE_LLM_PROVIDER and friends); use --engine offline")
    return LLMClassifier(llm, fallback=OfflineClassifier())


def _fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


# --- report -------------------------------------------------------------------------------


def render(report: dict[str, object], title: str) -> str:
    """A readable markdown report of one ``evaluate`` result."""
    lines = [f"## {title}", "", _summary_line(report), ""]
    lines += _label_table(report), ""
    lines += _confusion_table(report), ""
    for group in ("by_lang", "by_difficulty"):
        lines.append(f"### {group.replace('_', ' ')}")
        lines.append("")
        for name, sub in report[group].items():  # type: ignore[attr-defined]
            lines.append(f"- **{name}**: {_summary_line(sub)}")
        lines.append("")
    errors = report.get("errors") or []
    lines.append(f"### errors ({len(errors)})")  # type: ignore[arg-type]
    lines.append("")
    for e in errors:  # type: ignore[attr-defined]
        lines.append(f"- {e['id']}: gold {e['gold']}, predicted {e['predicted']} ({e['reason']})")
    return "\n".join(lines) + "\n"


def _summary_line(report: dict[str, object]) -> str:
    con = report["per_label"][Relation.CONTRADICTORY.value]  # type: ignore[index]
    return (
        f"n={report['n']}  accuracy={report['accuracy']:.3f}  macro-F1={report['macro_f1']:.3f}  "
        f"CONTRADICTORY precision={con['precision']:.3f} recall={con['recall']:.3f}"
    )


def _label_table(report: dict[str, object]) -> str:
    rows = ["| label | precision | recall | F1 | support |", "| --- | --- | --- | --- | --- |"]
    for label, m in report["per_label"].items():  # type: ignore[attr-defined]
        scores = " | ".join(f"{m[k]:.3f}" for k in ("precision", "recall", "f1"))
        rows.append(f"| {label} | {scores} | {m['support']} |")
    return "\n".join(rows)


def _confusion_table(report: dict[str, object]) -> str:
    rows = [
        "| gold \\ predicted | " + " | ".join(LABELS) + " |",
        "| --- " * (len(LABELS) + 1) + "|",
    ]
    for gold, preds in report["confusion"].items():  # type: ignore[attr-defined]
        rows.append(f"| {gold} | " + " | ".join(str(preds[p]) for p in LABELS) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="labelled pairs (JSONL)")
    parser.add_argument("--engine", choices=("offline", "llm"), default="offline")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--heldout",
        type=Path,
        default=DEFAULT_HELDOUT,
        help="a second labelled file scored separately ('' to skip)",
    )
    args = parser.parse_args(argv)
    classifier = build_classifier(args.engine)
    report = evaluate(load_pairs(args.data), classifier)
    report["data"] = str(args.data)
    report["engine"] = args.engine
    text = render(report, f"{args.engine} engine on {args.data.name}")
    if args.heldout and str(args.heldout) and args.heldout.is_file():
        heldout = evaluate(load_pairs(args.heldout), classifier)
        report["heldout"] = {"data": str(args.heldout), **heldout}
        text += "\n" + render(heldout, f"held-out (ours): {args.heldout.name}")
    _write_results(args.engine, report, text)
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else text)
    return 0


def _write_results(engine: str, report: dict[str, object], text: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    command = f".venv/bin/python bench/classify.py --engine {engine}"
    header = f"# 3-op classification benchmark ({engine})\n\nCommand: `{command}`\n\n"
    (RESULTS / f"classify_{engine}.md").write_text(header + text, encoding="utf-8")
    (RESULTS / f"classify_{engine}.json").write_text(
        json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    raise SystemExit(main())
