"""A one-sentence note that says a value again with another: the judge's EXTENDABLE reading
closes at the language's replaced-value note bar (``NOTE_REPLACED_THRESHOLDS``), under the
note bar, when the rules read the undated pair as related and a value replaced."""

from __future__ import annotations

import numpy as np
import pytest
from judge_fakes import bias_only

from omoide.engine.classify import (
    NOTE_REPLACED_THRESHOLDS,
    NOTE_THRESHOLDS,
    JudgeModel,
    Relation,
    judge_one_note,
    read_pair,
    undated,
)

PAIRS = {
    "en": (
        "The user's book club meets at Waterstones on Fridays. (3 May 2026)",
        "The user's book club has its meetings in the Red Lion pub. (9 June 2026)",
    ),
    "ja": (
        "ユーザーはジムに週1回通っている（2026年5月3日）",
        "ユーザーはジムに月2回通っている（2026年6月9日）",
    ),
}
# the same memory said again on another day: only the notes' dates differ
DATES_ONLY = (
    "User likes green tea with milk. (3 May 2026)",
    "User likes green tea with milk. (9 June 2026)",
)
ANOTHER_FACT = ("ユーザーはギターを習っている（2026年5月3日）", "ユーザーは毎週末に登山をする")


def _model(c: float, *, extendable: bool = True) -> JudgeModel:
    """A text-only judge whose probabilities are its bias alone: C at ``c``, the rest split
    3:1 towards EXTENDABLE (or INDEPENDENT); the statements' thresholds 0.5, so every pair it
    may close is a close by probability as a statement."""
    rest = (1 - c) / 4
    i, e = (rest, 3 * rest) if extendable else (3 * rest, rest)
    return bias_only(
        np.log(np.array([i, e, c])),
        threshold=0.5,
        language_thresholds=(("en", 0.5), ("ja", 0.5)),
    )


def _readings(old: str, new: str) -> tuple[tuple, tuple]:
    return (read_pair(old, new), None), (read_pair(undated(old), undated(new)), None)


# the bars session 33 measured (bench/results/classify_notes_replaced33.md), set for a test
MEASURED = {"en": 0.60, "ja": 0.50}


@pytest.fixture
def bars(monkeypatch: pytest.MonkeyPatch) -> None:
    for lang, bar in MEASURED.items():
        monkeypatch.setitem(NOTE_REPLACED_THRESHOLDS, lang, bar)


def test_the_tier_is_japanese_only() -> None:
    # session 33: end to end the English closes it added were 0.81 right
    assert NOTE_REPLACED_THRESHOLDS == {"ja": 0.50}
    for lang, bar in MEASURED.items():
        assert bar < NOTE_THRESHOLDS[lang]


@pytest.mark.parametrize("lang", ["en"])
def test_left_off_a_replaced_value_is_held_to_the_note_bar(lang: str) -> None:
    written, plain = _readings(*PAIRS[lang])
    # (a nearest candidate that stands clear closes from NOTE_NEAREST_THRESHOLDS: not this one)
    verdict = judge_one_note(written, plain, _model(NOTE_THRESHOLDS[lang] - 0.02), clear=False)
    assert verdict.relation is Relation.EXTENDABLE


@pytest.mark.usefixtures("bars")
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_replaced_value_closes_at_the_replaced_bar(lang: str) -> None:
    written, plain = _readings(*PAIRS[lang])
    bar = NOTE_REPLACED_THRESHOLDS[lang]
    verdict = judge_one_note(written, plain, _model(bar + 0.02))
    assert verdict.relation is Relation.CONTRADICTORY
    assert "; a value replaced (" in verdict.reason and verdict.reason.endswith(f"{bar:.2f})")
    # under the bar, or read INDEPENDENT, or unmeasured undated: not closed
    assert judge_one_note(written, plain, _model(bar - 0.02)).relation is Relation.EXTENDABLE
    weak = judge_one_note(written, plain, _model(bar + 0.02, extendable=False))
    assert weak.relation is Relation.INDEPENDENT
    assert judge_one_note(written, None, _model(bar + 0.02)).relation is not (
        Relation.CONTRADICTORY
    )


@pytest.mark.usefixtures("bars")
def test_the_notes_dates_are_no_replaced_value() -> None:
    written, plain = _readings(*DATES_ONLY)
    model = _model(MEASURED["en"] + 0.02)
    assert judge_one_note(written, plain, model).relation is not Relation.CONTRADICTORY


@pytest.mark.usefixtures("bars")
def test_a_pair_the_rules_read_as_unrelated_is_held_to_the_note_bar() -> None:
    written, plain = _readings(*ANOTHER_FACT)
    model = _model(MEASURED["ja"] + 0.02)
    assert judge_one_note(written, plain, model).relation is not Relation.CONTRADICTORY


@pytest.mark.usefixtures("bars")
def test_only_the_nearest_candidate_closes_by_the_tier() -> None:
    # in a store the tier closed other memories of the same kind; the nearest is the one changed
    written, plain = _readings(*PAIRS["ja"])
    model = _model(MEASURED["ja"] + 0.02)
    assert judge_one_note(written, plain, model).relation is Relation.CONTRADICTORY
    farther = judge_one_note(written, plain, model, nearest=False)
    assert farther.relation is Relation.EXTENDABLE
