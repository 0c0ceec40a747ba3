"""Benchmark the 3-op contradiction classifier on labelled memory pairs.

    .venv/bin/python bench/classify.py                    # what a server on e5 runs: rules +
                                                          # the packaged judge (on its embedder)
    .venv/bin/python bench/classify.py --embedder use     # what a server on USE runs
    .venv/bin/python bench/classify.py --judge own        # the judge trained for e5 itself
    .venv/bin/python bench/classify.py --engine rules     # the offline rules alone
    .venv/bin/python bench/classify.py --engine llm       # the configured LLM (or a local fake)
    .venv/bin/python bench/classify.py --pairs PATH --split holdout   # any file of pairs, alone
    .venv/bin/python bench/classify.py --pairs PATH --split notes4 --notes   # consolidated notes

Scores our labelled pairs (``bench/data/classify_pairs.jsonl``) by split — ``train`` and
``validation``, both fitted on since issue 9's third round (the scores that estimate unseen pairs
are the leave-one-source-out ones of ``bench/train_classifier.py``) — and
``shared/bench/classify/dev.jsonl`` as an untouched check. Prints accuracy, macro-F1,
per-label precision/recall and the 3x3 confusion matrix, overall and by language and
difficulty (and ``kind`` / ``family`` when the file has them), then writes
bench/results/classify_<engine>.md and .json. CONTRADICTORY precision is reported on its own: a
false CONTRADICTORY closes a memory that is still true.

``--pairs PATH`` (the same as ``--data``) scores any file in the pairs format; ``--split NAME``
scores only the pairs of that split (every pair when the file has no ``split`` field), skips the
dev set unless ``--dev`` is given, and writes ``classify_<engine>_<NAME>`` instead, so a
held-out file is scored with one command and no other report is overwritten. ``--notes`` reads
the new memories as consolidated notes, the way the server classifies a note a conversation
produced (``note=True``: held to the notes' precision bar, not the saved statements').

``--engine llm`` uses the endpoint configured by ``OMOIDE_LLM_*``. With none configured it starts
the local fake LLM server from ``tests/support/llm_fakes.py`` (a scripted stand-in that always
answers INDEPENDENT, "likely"), so the command runs anywhere, and the report says the numbers are
the fake's: they measure the plumbing, not a model.

Every report also counts the CONTRADICTORY verdicts sure enough to close the nearest memory under
the classification band (confidence of at least the default ``classify_nearest_confidence``;
``engine.candidates.under_band_keeps``) and their precision: for the LLM engine, how its
"certain" verdicts would fare there.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from _classify_common import (
    DEFAULT_DEV,
    DEFAULT_PAIRS,
    LABELS,
    CachedEmbedder,
    Pair,
    load_pairs,
)
from lib.cli import parser
from lib.reports import RESULTS, fmt, md_table, write_results
from omoide.config import PersonaSettings
from omoide.engine.candidates import under_band_keeps
from omoide.engine.classify import Candidate, Classifier, Relation

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Prediction:
    pair: Pair
    label: str
    confidence: float
    reason: str


def predict(
    pairs: Iterable[Pair], classifier: Classifier, *, notes: bool = False
) -> list[Prediction]:
    """One classifier call per pair, the old memory as the only candidate; ``notes``: the new
    memories are consolidated notes, classified as the server classifies a note."""
    out = []
    for pair in pairs:
        (verdict,) = classifier.classify(
            pair.new, [Candidate(pair.id, pair.old, 0.0)], lang=pair.lang, note=notes
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


def evaluate(
    pairs: list[Pair], classifier: Classifier, *, notes: bool = False
) -> dict[str, object]:
    """Scores overall and by language and difficulty, plus the misclassified pairs."""
    predictions = predict(pairs, classifier, notes=notes)
    report = score(predictions)
    report["under_band"] = under_band_closes(predictions)
    report["by_lang"] = _breakdown(predictions, lambda p: p.pair.lang)
    report["by_difficulty"] = _breakdown(predictions, lambda p: p.pair.difficulty)
    if any(p.pair.kind for p in predictions):
        report["by_kind"] = _breakdown(predictions, lambda p: f"{p.pair.label[:1]}:{p.pair.kind}")
    if any(p.pair.family for p in predictions):
        report["by_family"] = _breakdown(predictions, lambda p: p.pair.family)
    report["errors"] = [
        {"id": p.pair.id, "gold": p.pair.label, "predicted": p.label, "reason": p.reason}
        for p in predictions
        if p.label != p.pair.label
    ]
    return report


def under_band_closes(
    predictions: list[Prediction], sure: float | None = None
) -> dict[str, object]:
    """The CONTRADICTORY verdicts that would close the nearest memory under the band
    (:func:`~omoide.engine.candidates.under_band_keeps` at ``sure``, by default the setting
    ``classify_nearest_confidence``'s default): how many, how many were right, their precision
    (None when there are none)."""
    bar = PersonaSettings().classify_nearest_confidence if sure is None else sure
    kept = [
        p
        for p in predictions
        if under_band_keeps(p.label == Relation.CONTRADICTORY.value, p.confidence, bar)
    ]
    right = sum(p.pair.label == Relation.CONTRADICTORY.value for p in kept)
    return {
        "sure": bar,
        "n": len(kept),
        "right": right,
        "precision": round(right / len(kept), 4) if kept else None,
    }


def _breakdown(
    predictions: list[Prediction], key: Callable[[Prediction], str]
) -> dict[str, object]:
    groups: dict[str, list[Prediction]] = {}
    for p in predictions:
        groups.setdefault(key(p), []).append(p)
    return {name: score(group) for name, group in sorted(groups.items())}


def build_classifier(
    engine: str, embedder_name: str, cache: Path | None = None, judge: str = "server"
) -> tuple[Classifier, str]:
    """The classifier to measure and a note on what it is (exit 2 on a bad LLM config)."""
    from omoide.engine.classify import OfflineClassifier

    if engine == "rules":
        return OfflineClassifier(), "the offline rules alone"
    if engine == "offline":
        from omoide.embed import make_embedder
        from omoide.service.classify_judge import (
            LearnedClassifier,
            judge_embedder_name,
            load_judge_models,
            offline_classifier_for,
        )

        def embedder_for(name: str):
            made = make_embedder(name)
            return CachedEmbedder(made, cache / f"{name}.npz") if cache is not None else made

        embedder = embedder_for(embedder_name)
        judge_name = judge_embedder_name()
        if judge == "server" and judge_name is not None:
            # What a server searching with this embedder runs: the packaged judge on its own
            # embedder (wiring/embedders.py, judge_embedder).
            classifier = offline_classifier_for(embedder, lambda: embedder_for(judge_name))
            return classifier, (
                f"rules + learned judge ({judge_name}), as a server on {embedder_name} runs it"
            )
        model = load_judge_models().get(embedder.model_id)
        if model is None:
            _fail(f"no trained judge for {embedder.model_id}; run bench/train_classifier.py")
        return LearnedClassifier(model, embedder), f"rules + learned judge ({embedder_name})"
    from omoide.config import llm_config_from_env
    from omoide.errors import InvalidInput
    from omoide.llm import make_llm  # only needed for --engine llm
    from omoide.llm.classify import LLMClassifier

    environ, note = dict(os.environ), "the LLM configured by OMOIDE_LLM_*"
    if not environ.get("OMOIDE_LLM_PROVIDER", "").strip():
        environ.update(_start_fake_llm())
        note = (
            "the LOCAL FAKE LLM server (tests/support/llm_fakes.py), which always answers "
            "INDEPENDENT: these numbers measure the plumbing, not a model"
        )
    try:
        llm = make_llm(llm_config_from_env(environ))
    except InvalidInput as exc:
        _fail(f"the LLM configuration is incomplete: {exc}")
    if llm is None:
        _fail("no LLM is configured (OMOIDE_LLM_PROVIDER=none); use --engine offline")
    return LLMClassifier(llm, fallback=OfflineClassifier()), note


def _start_fake_llm() -> dict[str, str]:
    """Start the local fake OpenAI-compatible server; the environment that points at it."""
    sys.path.insert(0, str(REPO / "tests" / "support"))
    from llm_fakes import API_KEY, FakeAPI, Received, Reply, openai_answer, start_server

    class AlwaysIndependent(FakeAPI):
        def take(self, received: Received) -> Reply:
            prompt = received.body["messages"][-1]["content"]
            count = len(re.findall(r"(?m)^\d+: ", prompt))  # one numbered line per candidate
            verdicts = [
                {"candidate": i, "class": "INDEPENDENT", "confidence": "likely", "reason": "fake"}
                for i in range(count)
            ]
            return Reply(body=openai_answer(json.dumps({"verdicts": verdicts})))

    fake = AlwaysIndependent()
    start_server(fake)
    return {
        "OMOIDE_LLM_PROVIDER": "openai",
        "OMOIDE_LLM_BASE_URL": fake.base + "/v1",
        "OMOIDE_LLM_API_KEY": API_KEY,
        "OMOIDE_LLM_MODEL": "fake-always-independent",
    }


def _fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


# --- report -------------------------------------------------------------------------------


def render(report: dict[str, object], title: str) -> str:
    """A readable markdown report of one ``evaluate`` result."""
    lines = [f"## {title}", "", _summary_line(report), ""]
    if "under_band" in report:
        lines += [_under_band_line(report["under_band"]), ""]  # type: ignore[arg-type]
    lines += _label_table(report), ""
    lines += _confusion_table(report), ""
    for group in ("by_lang", "by_difficulty", "by_kind", "by_family"):
        if group not in report:
            continue
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


def _under_band_line(under: dict[str, object]) -> str:
    precision = under["precision"]
    shown = "–" if precision is None else fmt(precision)
    return (
        f"Sure enough to close the nearest memory under the band (CONTRADICTORY, confidence "
        f"≥ {under['sure']}): {under['n']} verdicts, {under['right']} right, "
        f"precision {shown}"
    )


def _label_table(report: dict[str, object]) -> str:
    return md_table(
        ["label", "precision", "recall", "F1", "support"],
        [
            [label, *(fmt(m[k]) for k in ("precision", "recall", "f1")), m["support"]]
            for label, m in report["per_label"].items()
        ],
    )  # type: ignore[attr-defined]


def _confusion_table(report: dict[str, object]) -> str:
    return md_table(
        ["gold \\ predicted", *LABELS],
        [[gold, *(preds[p] for p in LABELS)] for gold, preds in report["confusion"].items()],
    )  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out=None, data=DEFAULT_PAIRS)
    bench.add_argument(
        "--pairs", type=Path, dest="data", default=argparse.SUPPRESS, help="the same as --data"
    )
    bench.add_argument(
        "--split",
        default="",
        help="score only this split of --pairs (all pairs when the file has no "
        "split field); the dev set is skipped unless --dev is given",
    )
    bench.add_argument(
        "--dev", type=Path, default=None, help="the untouched shared dev set ('' to skip)"
    )
    bench.add_argument("--engine", choices=("offline", "rules", "llm"), default="offline")
    bench.add_argument(
        "--embedder",
        choices=("e5", "use"),
        default="e5",
        help="the embedder whose judge --engine offline uses",
    )
    bench.add_argument(
        "--judge",
        choices=("server", "own"),
        default="server",
        help="server: the judge a server on --embedder runs (the packaged "
        "judge embedder's); own: the judge trained for --embedder",
    )
    bench.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="keep passage vectors in DIR between runs (never in the repo)",
    )
    bench.add_argument(
        "--notes",
        action="store_true",
        help="the new memories are consolidated notes: classify them as the "
        "server classifies a note (note=True), not as saved statements",
    )
    args = bench.parse_args(argv)
    classifier, note = build_classifier(args.engine, args.embedder, args.cache, args.judge)
    sets = select_sets(load_pairs(args.data), args.split)
    dev = args.dev if args.dev is not None else (None if args.split else DEFAULT_DEV)
    if dev is not None and str(dev) and dev.is_file():
        sets["dev"] = load_pairs(dev)
    note += ", the new memories read as consolidated notes" if args.notes else ""
    report: dict[str, object] = {"engine": args.engine, "classifier": note, "sets": {}}
    intro, text = f"Classifier: {note}.\n\n", ""
    for name in sorted(sets, key=_set_order):
        result = evaluate(sets[name], classifier, notes=args.notes and name != "dev")
        source = dev if name == "dev" and dev is not None else args.data
        report["sets"][name] = {"data": str(source), **result}  # type: ignore[index]
        text += render(result, f"{_shown(name)}: {source.name} ({len(sets[name])} pairs)") + "\n"
    suffix = "" if args.engine != "offline" or args.embedder == "e5" else f"_{args.embedder}"
    suffix += "_own" if args.engine == "offline" and args.judge == "own" else ""
    suffix += f"_{args.split}" if args.split else ""
    given = sys.argv[1:] if argv is None else argv
    _write_results(args.engine + suffix, report, intro + _headline(report) + text, args, given)
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else intro + text)
    return 0


def select_sets(pairs: list[Pair], split: str) -> dict[str, list[Pair]]:
    """Pairs grouped by their split ("all" when unnamed); only ``split`` when one is named
    (a file without split fields is that split as a whole)."""
    sets: dict[str, list[Pair]] = {}
    for pair in pairs:
        sets.setdefault(pair.split or split or "all", []).append(pair)
    if split:
        if split not in sets:
            _fail(f"no pairs of split {split!r} in the file (splits: {sorted(sets)})")
        return {split: sets[split]}
    return sets


def _shown(name: str) -> str:
    """Since issue 9's third round the judge is fitted on every pair of ``classify_pairs``
    (train and the old validation split) and on the first held-out set (since the fourth, on
    the second too; since the fifth, on the third), and the report says so: on them it shows
    the fit, not generalisation.
    The numbers that estimate a new writer are the leave-one-source-out ones in
    classify_threshold.md, and the untouched dev set here."""
    return {
        "validation": "validation (fitted on)",
        "train": "train (fitted on)",
        "holdout": "holdout1 (fitted on)",
        "holdout2": "holdout2 (fitted on)",
        "holdout3": "holdout3 (fitted on)",
    }.get(name, name)


def _set_order(name: str) -> tuple[int, str]:
    order = ("train", "validation", "all", "dev")
    return (order.index(name) if name in order else 2, name)


def _headline(report: dict[str, object]) -> str:
    """One table: macro-F1 and CONTRADICTORY precision per set and language."""
    rows = [
        [
            _shown(name),
            lang,
            sub["n"],
            fmt(sub["macro_f1"]),
            fmt(sub["per_label"]["CONTRADICTORY"]["precision"]),
            fmt(sub["per_label"]["CONTRADICTORY"]["recall"]),
        ]
        for name, result in report["sets"].items()  # type: ignore[attr-defined]
        for lang, sub in [("all", result), *result["by_lang"].items()]
    ]
    return (
        md_table(
            ["set", "lang", "n", "macro-F1", "CONTRADICTORY precision", "CONTRADICTORY recall"],
            rows,
        )
        + "\n\n"
    )


def _write_results(
    engine: str, report: dict[str, object], text: str, args: argparse.Namespace, given: list[str]
) -> None:
    """The report, headed by the command as given (``main``'s arguments, or the command line)."""
    command = shlex.join([".venv/bin/python", "bench/classify.py", *given])
    header = f"# 3-op classification benchmark ({engine})\n\nCommand: `{command}`\n\n"
    write_results(args.out or RESULTS / f"classify_{engine}", header + text, report)


if __name__ == "__main__":
    raise SystemExit(main())
