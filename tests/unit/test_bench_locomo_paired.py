"""The paired comparison of LoCoMo plans (``bench/locomo_paired.py``): questions are paired by
conversation, question, category and evidence, and differences are taken question by question."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_paired as paired  # noqa: E402


def _row(
    system: str,
    conv: str,
    question: str,
    recall: float,
    contained: bool,
    category: int = 1,
    evidence: tuple[str, ...] = ("D1:1",),
) -> dict[str, Any]:
    return {
        "system": system,
        "conversation": conv,
        "question": question,
        "category": category,
        "evidence": list(evidence),
        "recall": recall,
        "contained": contained,
    }


def test_differences_are_paired_question_by_question() -> None:
    rows = [
        _row("bm25", "26", "q1", 0.0, False),
        _row("plan:default", "26", "q1", 0.5, False),
        _row("plan:default", "30", "q2", 1.0, True, category=4),
        _row("plan:default", "30", "q3", 0.0, False, evidence=()),
        _row("plan:other", "30", "q3", 0.0, True, evidence=()),
        _row("plan:other", "30", "q2", 0.5, True, category=4),
        _row("plan:other", "26", "q1", 1.0, False),
    ]
    plans = paired.by_plan(rows)
    assert set(plans) == {"default", "other"}
    c = paired.compare(plans["default"], plans["other"], "other")
    assert c.delta_recall == pytest.approx(0.0)  # +0.5 and −0.5 over the two with evidence
    assert (c.up, c.down) == (1, 1)
    assert c.by_category == {1: pytest.approx(0.5), 4: pytest.approx(-0.5)}
    assert c.delta_contained == pytest.approx(1 / 3)  # q3 became contained
    assert c.recall == pytest.approx(0.75)


def test_a_plan_missing_a_question_is_an_error() -> None:
    rows = [
        _row("plan:default", "26", "q1", 0.5, False),
        _row("plan:default", "26", "q2", 0.5, False),
        _row("plan:other", "26", "q1", 1.0, False),
    ]
    plans = paired.by_plan(rows)
    with pytest.raises(SystemExit, match="lacks 1"):
        paired.compare(plans["default"], plans["other"], "other")


def test_the_report_names_the_baseline_first_and_each_plan_after() -> None:
    rows = [_row("plan:default", "26", "q1", 0.5, False), _row("plan:b", "26", "q1", 1.0, True)]
    lines = paired.report(paired.by_plan(rows), "default")
    assert lines[1].startswith("default: 0.500 / 0.000")
    assert lines[2].startswith("b: 1.000 / 1.000") and "Δ recall +0.500" in lines[2]
    with pytest.raises(SystemExit, match="no plan:missing"):
        paired.report(paired.by_plan(rows), "missing")


def test_files_named_on_the_command_line_pair_their_default_plans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two folders scored with ``--plan default`` (e.g. two consolidator variants) pair as
    two plans when given as FILE=NAME."""
    import json

    base, variant = tmp_path / "base.json", tmp_path / "variant.json"
    base.write_text(
        json.dumps(
            [_row("plan:default", "26", "q1", 0.5, False), _row("bm25", "26", "q1", 0.0, False)]
        ),
        encoding="utf-8",
    )
    variant.write_text(json.dumps([_row("plan:default", "26", "q1", 1.0, True)]), encoding="utf-8")
    paired.main([f"{base}=base", f"{variant}=variant", "--baseline", "base"])
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("base: 0.500 / 0.000")
    assert out[2].startswith("variant: 1.000 / 1.000") and "Δ recall +0.500" in out[2]
