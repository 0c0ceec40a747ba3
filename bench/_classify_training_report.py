"""The training report of the learned 3-op judge (``bench/train_classifier.py``): markdown.

Kept apart from the training so the script stays one screenful of choices; nothing here fits
or scores anything.
"""

from __future__ import annotations

from _classify_sentences import SENTENCE_FOLDS
from lib.reports import md_table


def thresholds_text(result: dict) -> str:
    return " / ".join(f"{lang} {t:.2f}" for lang, t in result["threshold"].items())


def _fmt(s: dict[str, float], lang: str) -> str:
    return f"{s[f'{lang}_f1']:.3f} / {s[f'{lang}_cp']:.3f} / {s[f'{lang}_cr']:.3f}"


def _others(sources: dict, source: str) -> str:
    """The sources a leave-one-source-out model was fitted on ("pairs + holdout1")."""
    return " + ".join(k for k in sources if k != source)


def render(name: str, summary: dict) -> list[str]:
    best = summary["best"]
    n = ", ".join(f"{k} {v}" for k, v in summary["n"].items())
    lines = [
        f"## {name}",
        "",
        f"Chosen: {best['config'].label()}; thresholds {thresholds_text(best)}; "
        f"rule overrides {list(summary['overrides']) or 'none'} (pairs: {n}).",
        "",
        "Macro-F1 / CONTRADICTORY precision / recall. *A → B*: fitted on sources A only, "
        "scored on source B (a new writer): leave one source out. *CV*: grouped 5-fold over "
        "all sources. *In-sample*: the final model, fitted on everything (one-statement new "
        "memories), on every pair of each source.",
        "",
    ]
    rows = []
    for source, s in best["cross"].items():
        other = _others(summary["n"], source)
        rows += [[f"{other} → {source}", lang, _fmt(s, lang)] for lang in ("all", "en", "ja")]
    rows += [["CV (all)", lang, _fmt(best["cv"], lang)] for lang in ("all", "en", "ja")]
    rows += [
        [f"in-sample (the final model) → {source}", lang, _fmt(s, lang)]
        for source, s in summary["insample"].items()
        for lang in ("all", "en", "ja")
    ]
    lines += [
        md_table(["scored", "lang", "macro-F1 / C-precision / C-recall"], rows),
        "",
        "Every configuration tried (macro-F1, mean of the left-out sources' scores; "
        "grouped CV; threshold chosen on the LOSO probabilities):",
        "",
    ]
    grid = [
        [
            r["config"].label() + (" **(chosen)**" if r is best else ""),
            f"{r['cross_f1']:.3f}",
            *(f"{s['all_f1']:.3f} / {s['all_cp']:.3f}" for s in r["cross"].values()),
            f"{r['cv']['all_f1']:.3f} / {r['cv']['all_cp']:.3f}",
            thresholds_text(r),
        ]
        for r in summary["grid"]
    ]
    heads = [f"→ {s} F1 / C-prec" for s in best["cross"]]
    lines += [
        md_table(["configuration", "LOSO F1", *heads, "CV F1 / C-prec", "thresholds"], grid),
        "",
        "CONTRADICTORY precision / recall against the threshold, each source scored by "
        "the model fitted on the others (rule verdicts count as they say); a language's "
        "threshold is the lowest from which the left-out sources' calls, pooled, keep the "
        "target:",
        "",
    ]
    lines += _sentences(best)
    for source, points in best["curve"].items():
        other = _others(summary["n"], source)
        rows = [
            [
                f"{row['threshold']:.2f}"
                + "".join(
                    f" **({lang})**"
                    for lang, t in best["threshold"].items()
                    if row["threshold"] == t
                ),
                *(
                    f"{row[k]:.3f}"
                    for k in (
                        "all_precision",
                        "all_recall",
                        "en_precision",
                        "en_recall",
                        "ja_precision",
                        "ja_recall",
                    )
                ),
            ]
            for row in points
            if not round(row["threshold"] * 100) % 5
            or row["threshold"] in best["threshold"].values()
        ]
        lines += [
            f"{other} → {source}:",
            "",
            md_table(
                [
                    "threshold",
                    "precision",
                    "recall",
                    "EN precision",
                    "EN recall",
                    "JA precision",
                    "JA recall",
                ],
                rows,
            ),
            "",
        ]
    return lines


def _sentences(best: dict) -> list[str]:
    """The sentence reading of several-sentence new memories and consolidated notes: with and
    without it per fold, and the notes folds' curve it was chosen on."""
    t = best["sentence_threshold"]
    chosen = (
        (
            "never (the guard: no threshold keeps the target with 95% confidence on the "
            "pooled notes folds)"
        )
        if t == float("inf")
        else f"{t:.2f}"
    )
    rows = [
        [source, _fmt(best["cross_guard"][source], "all"), _fmt(s, "all")]
        for source, s in best["cross"].items()
    ]
    lines = [
        "A new memory of several sentences, and every pair of a notes fold (read as the "
        "server reads a consolidated note, `note=True`), closes the old one only when one "
        "of its sentences, read alone, is CONTRADICTORY with at least the sentence threshold "
        f"(chosen on the notes folds' LOSO for precision): **{chosen}**. Each left-out "
        "source with the guard alone (no note closes anything) and with the sentence "
        "reading:",
        "",
        md_table(["left out", "guard only", "sentence reading"], rows),
        "",
        "The notes folds' pairs called CONTRADICTORY by the sentence "
        "reading, right / calls (of their CONTRADICTORY pairs), and the lower end of the "
        "Wilson 95% interval of their pooled precision (it must reach the target):",
        "",
    ]
    curve = [
        [
            f"{row['threshold']:.2f}" + (" **(chosen)**" if row["threshold"] == t else ""),
            *(
                f"{int(row[f'{fold}_right'])} / {int(row[f'{fold}_calls'])} "
                f"(of {int(row[f'{fold}_gold'])})"
                for fold in SENTENCE_FOLDS
            ),
            f"{row.get('pooled_lower', 0.0):.3f}",
        ]
        for row in best["sentence_curve"]
        if row["threshold"] >= 0.9
    ]
    return [*lines, md_table(["threshold", *SENTENCE_FOLDS, "pooled lower bound"], curve), ""]


def render_alternatives(rows: list[dict]) -> list[str]:
    """The EXTENDABLE fallback and the two-judge mean, on the same LOSO probabilities."""
    if not rows:
        return []
    table = [
        [
            r["label"],
            f"{r['cross_f1']:.3f}",
            thresholds_text(r),
            *(f"{s['all_f1']:.3f} / {s['all_cp']:.3f}" for s in r["cross"].values()),
        ]
        for r in rows
    ]
    heads = [f"→ {s} F1 / C-prec" for s in rows[0]["cross"]]
    return [
        "## Alternatives measured, not chosen unless better",
        "",
        "On the chosen judges' leave-one-source-out probabilities: below the threshold, a "
        "pair whose likeliest class is CONTRADICTORY becomes EXTENDABLE (instead of the "
        "likelier of INDEPENDENT / EXTENDABLE); and the mean of both judges' probabilities "
        "(thresholds chosen the same way).",
        "",
        md_table(["alternative", "LOSO F1", "thresholds", *heads], table),
        "",
    ]
