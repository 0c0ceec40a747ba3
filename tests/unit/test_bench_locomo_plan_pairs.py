"""The paired plan probe (``bench/locomo_plan_pairs.py``): how a variant names a plan."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_plan_pairs as probe  # noqa: E402
from omoide.engine.search_plan import DEFAULT_PLAN, PRESETS  # noqa: E402


def test_a_variant_is_a_preset_or_fields_over_the_default_plan() -> None:
    assert probe.plan_of("shared_scale") is PRESETS["shared_scale"]
    assert probe.plan_of("shared_scale=1+scale_depth=60") == replace(
        DEFAULT_PLAN, shared_scale=True, scale_depth=60
    )
    assert probe.plan_of("fold_notes=0+fallback_similarity=0.7") == replace(
        DEFAULT_PLAN, fold_notes=False, fallback_similarity=0.7
    )


def test_an_unknown_variant_stops_the_probe() -> None:
    with pytest.raises(SystemExit):
        probe.plan_of("no_such_field=1")
