"""The markdown report of ``bench/segment.py`` (which see)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lib.reports import md_table
from omoide.engine.segment import SegmentParams

TARGET_F1 = 0.7
INCREMENT = 5  # turns per call in the incremental mode (as the session service feeds them)


def render_markdown(results: dict[str, Any], command: str) -> str:
    lines = [
        "# Episode segmentation (offline engine) on LoCoMo",
        "",
        f"Command: `{command}`",
        "",
        "Gold boundaries are LoCoMo session starts inside a stream of consecutive sessions "
        "(session markers removed, text as written). A boundary matches within ±2 turns, "
        "one-to-one. Pk: lower is better. `timestamps`: every turn carries its session's date, "
        "so the time-gap rule (a pause ≥ 1 h) sees the days between sessions; `text_only`: "
        "timestamps withheld. Boundaries inside sessions count as false positives although "
        "some are real topic shifts (LoCoMo has no gold for those). Incremental rows feed "
        f"{INCREMENT} turns per call with `final=False` and re-run over the open segment plus "
        "the new turns, as the session service does (a re-run's first segment reads `start`).",
        "",
        f"Engine defaults: `{SegmentParams()}`",
        "",
    ]
    for name, res in results["embedders"].items():
        lines += [f"## Embedder `{name}` ({res['model_id']})", ""]
        for setting, block in res["settings"].items():
            lines += [f"### {setting}", "", _overall_table(block), ""]
            lines += ["Ablations (text only):", "", _ablation_table(block), ""]
            lines += ["Per conversation:", "", _per_conv_table(block), ""]
    return "\n".join(lines)


_HEAD = ("F1", "P", "R", "Pk", "segments / gold", "mean turns / gold", "reasons")


def _row(s: dict[str, Any]) -> list[str]:
    return [
        f"{s['f1']:.3f}",
        f"{s['precision']:.3f}",
        f"{s['recall']:.3f}",
        f"{s['pk']:.3f}",
        f"{s['segments']} / {s['gold_segments']}",
        f"{s['mean_segment_turns']} / {s['gold_mean_segment_turns']}",
        ", ".join(f"{k} {v}" for k, v in s["reasons"].items()),
    ]


def _overall_table(block: dict[str, Any]) -> str:
    rows = [[variant, *_row(block[variant]["overall"])] for variant in ("timestamps", "text_only")]
    rows += [
        [
            f"{variant}, incremental ({INCREMENT} turns per call)",
            *_row(block[f"{variant}_incremental"]["overall"]),
        ]
        for variant in ("timestamps", "text_only")
    ]
    met = [v for v in ("timestamps", "text_only") if block[v]["overall"]["f1"] >= TARGET_F1]
    ms = block["text_only"]["ms_per_1000_turns"]
    return "\n".join(
        [
            md_table(["variant", *_HEAD], rows),
            "",
            f"Target F1 ≥ {TARGET_F1}: met by {', '.join(met) or 'neither variant'}. "
            f"Engine time: {ms} ms per 1,000 turns (text only, including topic labels).",
        ]
    )


def _ablation_table(block: dict[str, Any]) -> str:
    return md_table(
        ["signals", *_HEAD], [[k, *_row(v)] for k, v in block["ablations_text_only"].items()]
    )


def _per_conv_table(block: dict[str, Any]) -> str:
    return md_table(
        ["conversation", "variant", *_HEAD],
        [
            [conv, variant, *_row(s)]
            for variant in ("timestamps", "text_only")
            for conv, s in block[variant]["per_conversation"].items()
        ],
    )


def print_summary(results: dict[str, Any], emit: Callable[[str], None]) -> None:
    for name, res in results["embedders"].items():
        for setting, block in res["settings"].items():
            for variant in ("timestamps", "text_only"):
                s = block[variant]["overall"]
                emit(
                    f"{name:5} {setting:26} {variant:10} F1 {s['f1']:.3f} P {s['precision']:.3f}"
                    f" R {s['recall']:.3f} Pk {s['pk']:.3f} segments {s['segments']}/"
                    f"{s['gold_segments']} mean {s['mean_segment_turns']} turns"
                )
