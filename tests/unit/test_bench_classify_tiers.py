"""The bar scripts (``bench/classify_related.py``, ``classify_replaced.py``) tune the one model of
a judge for both languages, or one language's model of a judge per language, the other left as
it is."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

from _classify_tiers import tuned_model, with_model  # noqa: E402
from omoide.engine.classify import JudgeModel, LanguageJudge, Relation  # noqa: E402
from omoide.engine.classify.features import TEXT_FEATURES  # noqa: E402


def _model(threshold: float) -> JudgeModel:
    d = len(TEXT_FEATURES)
    return JudgeModel(
        embedder="",
        features=TEXT_FEATURES,
        classes=(Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY),
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=np.zeros((3, d)),
        bias=np.zeros(3),
        contradiction_threshold=threshold,
        language_thresholds=(("ja", threshold),),
    )


def test_one_model_is_tuned_for_both_languages_and_replaced_whole() -> None:
    one = _model(0.8)
    assert tuned_model(one, "") == (one, ("en", "ja"))
    other = replace(one, replaced_thresholds=(("ja", 0.6),))
    assert with_model(one, "", other) is other


def test_a_judge_per_language_has_the_named_languages_model_tuned_alone() -> None:
    en, ja = _model(0.85), _model(0.84)
    judge = LanguageJudge((("en", en), ("ja", ja)))
    assert tuned_model(judge, "ja") == (ja, ("ja",))
    barred = replace(ja, related_thresholds=(("ja", 0.7),))
    swapped = with_model(judge, "ja", barred)
    assert isinstance(swapped, LanguageJudge)
    assert dict(swapped.models) == {"en": en, "ja": barred}
    with pytest.raises(SystemExit, match="name one"):
        tuned_model(judge, "")
