"""English lemmas by suffix rules: inflections of one word meet at one form."""

from __future__ import annotations

import pytest

from omoide.engine.classify.morph import en_lemma


@pytest.mark.parametrize(
    "forms",
    [
        pytest.param(("move", "moves", "moved", "moving"), id="e-drop"),
        pytest.param(("study", "studies", "studied"), id="y-ies"),
        pytest.param(("stop", "stops", "stopped", "stopping"), id="doubled-consonant"),
        pytest.param(("run", "runs", "ran", "running"), id="irregular"),
        pytest.param(("movie", "movies"), id="ie-plural"),
        pytest.param(("child", "children", "kids"), id="irregular-plural"),
    ],
)
def test_en_lemma_joins_the_forms_of_one_word(forms: tuple[str, ...]) -> None:
    assert len({en_lemma(f) for f in forms}) == 1


def test_en_lemma_drops_a_possessive() -> None:
    assert en_lemma("user's") == en_lemma("user")
