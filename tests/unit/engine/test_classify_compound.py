"""Compound memories: the unchanged part of a contradicted memory survives."""

from __future__ import annotations

import pytest

from omoide.engine.classify import remainder, sentence_count, split_compound, statements


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        pytest.param(
            "The user lives in Tokyo with her two cats.",
            "The user moved from Tokyo to Osaka last month.",
            "The user lives with her two cats.",
            id="en-accompaniment",
        ),
        pytest.param(
            "User lives in Madrid and teaches English at a language school.",
            "User quit the language school and now works as a translator.",
            "User lives in Madrid.",
            id="en-second-clause",
        ),
        pytest.param(
            "ユーザーは名古屋に住んでいて、語学学校で英語を教えている",
            "ユーザーは語学学校を辞めて、今は翻訳の仕事をしている",
            "ユーザーは名古屋に住んでいる",
            id="ja-te-form",
        ),
        pytest.param(
            "Ken lives in Tokyo with Ken's two cats. (2 May 2026)",
            "Ken moved from Tokyo to Osaka last month.",
            "Ken lives with Ken's two cats. (2 May 2026)",
            id="en-note-with-name-suffix",
        ),
    ],
)
def test_remainder_keeps_the_part_the_new_memory_leaves_alone(
    old: str, new: str, kept: str
) -> None:
    assert remainder(old, new) == kept


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("User lives in Tokyo.", "User moved to Osaka.", id="one-fact"),
        pytest.param(
            "User's yoga class is at the community centre on Saturdays.",
            "User's yoga class is held online on Saturdays now.",
            id="attribute-not-fact",
        ),
        pytest.param(
            "User drives to work and listens to podcasts on the way.",
            "User drives to work and listens to podcasts on the train.",
            id="all-touched",
        ),
    ],
)
def test_no_remainder_when_nothing_separate_survives(old: str, new: str) -> None:
    assert remainder(old, new) is None


def test_cosines_pick_the_changed_part_when_no_word_is_shared() -> None:
    old = "ユーザーは結婚していて娘が1人いて、浦和に住んでいる"
    compound = split_compound(old)
    assert compound is not None and len(compound.parts) == 3
    assert remainder(old, "ユーザーは春に夫と離婚した") is None  # no shared word, no cosines
    kept = remainder(old, "ユーザーは春に夫と離婚した", part_similarities=[0.9, 0.5, 0.4])
    assert kept == "ユーザーは娘が1人いて、浦和に住んでいる"


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        pytest.param(
            "Mia adopted a beagle called Rusty. Mia works night shifts at the hospital. "
            "(3 May 2024)",
            "Mia quit the hospital and now works days at a clinic. (9 June 2024)",
            "Mia adopted a beagle called Rusty. (3 May 2024)",
            id="en-sentences-suffix",
        ),
        pytest.param(
            "健太さんは横浜に住んでいる。週末はサッカーのコーチをしている。",
            "健太さんは先月横浜から札幌に引っ越した。",
            "週末はサッカーのコーチをしている。",
            id="ja-sentences",
        ),
    ],
)
def test_a_note_of_several_sentences_keeps_its_untouched_sentences_whole(
    old: str, new: str, kept: str
) -> None:
    assert remainder(old, new) == kept


def test_a_sentence_that_points_back_stays_with_the_one_before() -> None:
    old = (
        "Mia adopted a beagle called Rusty. It sleeps on her bed. "
        "Mia works night shifts at the hospital."
    )
    compound = split_compound(old)
    assert compound is not None and compound.parts == (
        "Mia adopted a beagle called Rusty. It sleeps on her bed.",
        "Mia works night shifts at the hospital.",
    )
    assert remainder(old, "Mia gave Rusty to her sister.", part_similarities=[0.9, 0.1]) == (
        "Mia works night shifts at the hospital."
    )


@pytest.mark.parametrize(
    "old",
    [
        pytest.param(
            "Being around friends who back Sam up means a lot. "
            "(Sam shared a photo of people sitting on the grass with a dog)",
            id="seam-inside-brackets",
        ),
        pytest.param(
            'Sam said "I live in Leeds and work with my two brothers".', id="seam-in-quotes"
        ),
        pytest.param("This quote kept Sam going, and helps on bad days.", id="not-a-subject"),
        pytest.param(
            "Sam is doing well. It has been a busy month, and he moved flats.",
            id="joined-to-one-sentence",
        ),
        pytest.param("Sam likes tea and biscuits.", id="one-word-part"),
    ],
)
def test_no_split_where_a_part_would_be_a_fragment(old: str) -> None:
    assert split_compound(old, "en") is None


def test_a_bracketed_aside_goes_with_its_sentence_and_the_date_with_every_part() -> None:
    old = (
        "Sam's team won the league. (Sam shared a photo of a trophy with a glass globe on "
        "top) Sam coaches the under-12s on Sundays. (4 May 2024)"
    )
    compound = split_compound(old, "en")
    assert compound is not None
    assert compound.parts[0].endswith("glass globe on top)")
    assert compound.suffix == "(4 May 2024)"
    kept = remainder(old, "Sam's team lost the league final this year.", lang="en")
    assert kept == "Sam coaches the under-12s on Sundays. (4 May 2024)"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param("Ken works at a bank.", 1, id="one"),
        pytest.param("Ken works at a bank. (3 May 2026)", 1, id="dated-suffix"),
        pytest.param("Ken is well. (Ken shared a photo of a dog) (3 May 2026)", 1, id="aside"),
        pytest.param("Ken quit. He is a carpenter now! (3 May 2026)", 2, id="two"),
        pytest.param("健太は東京に住んでいる。猫が二匹いる。", 2, id="ja-two"),
        pytest.param("健太は「もう辞めた。次は大工だ」と言った", 1, id="ja-quoted"),
    ],
)
def test_sentence_count(text: str, count: int) -> None:
    assert sentence_count(text) == count


def test_statements_split_a_note_at_its_sentences_with_its_date() -> None:
    note = "Jon quit the bakery. It was hard. Gina keeps him going. (8 May 2023)"
    assert statements(note, "en") == (
        "Jon quit the bakery. It was hard. (8 May 2023)",
        "Gina keeps him going. (8 May 2023)",
    )
    assert statements("The user likes tea.", "en") == ("The user likes tea.",)
    assert statements("陽菜は陶芸を始めた。次は釉薬がけ。", "ja") == (
        "陽菜は陶芸を始めた。",
        "次は釉薬がけ。",
    )
