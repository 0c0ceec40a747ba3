"""Dedup's seventeenth round, on probes of our own: one word swapped for its converse or for
another step of one scale (never a duplicate), a name in Latin letters replaced inside
Japanese text (never a duplicate), and the synonyms and rewordings that stay with the judge."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation, polarity_changed
from omoide.engine.classify.dedup_contrast import contrast_swapped, swapped_words
from omoide.engine.classify.dedup_judge import notation_tokens
from omoide.engine.classify.dedup_katakana import latin_swapped


def _read(first: str, second: str) -> tuple[str, str]:
    return pair_notation(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Noor is learning the violin at a music school.",
            "Noor is teaching the violin at a music school.",
        ),
        ("Noor bought a flat in Lyon in 2020.", "Noor has rented a flat in Lyon since 2020."),
        ("Noor has a mild nut allergy.", "Noor has a severe nut allergy."),
        ("Noor is a beginner at climbing.", "Noor is an advanced climber."),
        (
            "Noor's loan has a fixed rate until 2030.",
            "Noor's loan is on a variable rate until 2030.",
        ),
        ("Noor is vegetarian.", "Noor is vegan."),
        ("Noor swims on most mornings.", "Noor swims every morning."),
        ("Noor always takes the bus.", "Noor sometimes takes the bus."),
        ("Noor's team won the final.", "Noor's team lost the final."),
        ("Noor works as a vet in Leeds.", "Noor works as a veterinary assistant in Leeds."),
        ("Noor is a junior designer at a studio.", "Noor is a senior designer at a studio."),
        ("ノアは書道を習っている。", "ノアは書道を教えている。"),
        ("ノアは軽い喘息がある。", "ノアは重い喘息がある。"),
        ("ノアはフランス語を流暢に話す。", "ノアはフランス語を少し話せる。"),
        ("ノアは人前で話すのが得意だ。", "ノアは人前で話すのが苦手だ。"),
        ("ノアの体重は3キロ増えた。", "ノアの体重は3キロ減った。"),
    ],
)
def test_a_word_swapped_for_its_converse_or_another_step_is_never_a_duplicate(
    first: str, second: str
) -> None:
    assert contrast_swapped(*_read(first, second))
    assert contrast_swapped(*_read(second, first))
    assert polarity_changed(*_read(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noor is learning the violin.", "Noor is studying the violin."),  # one class
        ("Noor likes jazz.", "Noor loves jazz."),  # one class: a degree the judge weighs
        ("Noor teaches the violin.", "Noor teaches the violin."),
        ("Noor is vegetarian but eats fish.", "Noor is a pescatarian."),  # no set holds it
        (
            "Noor is learning Welsh at an evening class.",  # the converse, but more words changed
            "Noor has been teaching at a school in Cardiff for years, mostly Welsh.",
        ),
        ("Noor's pharmacy closes at 7 pm.", "Noor's pharmacy is open until 7 pm."),
        ("Noor is doing a plumbing apprenticeship.", "Noor is an apprentice plumber."),
        (
            "ノアはジャズピアノを独学で弾いている。",
            "ノアはジャズピアノを先生につかずに弾いている。",
        ),
    ],
)
def test_a_synonym_a_degree_or_a_rewording_is_left_to_the_judge(first: str, second: str) -> None:
    assert not contrast_swapped(*_read(first, second))


def test_the_swap_is_one_place_of_content_words() -> None:
    x, y, _ = notation_tokens("Noor has a mild nut allergy.", "Noor has a severe nut allergy.")
    assert swapped_words(x, y, japanese=False) == (["mild"], ["severe"])
    # content added in another place: not one swap
    x, y, _ = notation_tokens("Noor has a mild allergy.", "Noor has a severe allergy to nuts.")
    assert swapped_words(x, y, japanese=False) is None
    # function words aside ("has a" / "is on a")
    x, y, _ = notation_tokens("The loan has a fixed rate.", "The loan is on a variable rate.")
    assert swapped_words(x, y, japanese=False) == (["fixed"], ["variable"])


@pytest.mark.parametrize(
    ("first", "second", "swapped"),
    [
        ("ノアはPythonとGoを使う。", "ノアはPythonとRustを使う。", True),
        ("ノアのスマホはiPhoneだ。", "ノアのスマホはPixelだ。", True),
        ("ノアのスマホはiPhoneだ。", "ノアのスマホはiphoneだ。", False),  # case only
        ("ノアのスマホはiPhoneだ。", "ノアのスマホはiPhoneです。", False),  # no name changed
        ("ノアはGoを使う。", "ノアはRustを毎日使う。", False),  # something else changed too
    ],
)
def test_a_latin_name_replaced_inside_japanese_text(first: str, second: str, swapped: bool) -> None:
    assert latin_swapped(first, second) is swapped
