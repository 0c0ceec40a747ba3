"""Dedup's added-information veto (``engine.classify.dedup_added``): the new memory states
content the old one lacks — an extension restated in another sentence shape — so the judge's
drop is vetoed; a paraphrase states nothing new and is not. Both texts are read in dedup's
notation first, as ``service.dedup.DedupDecider`` reads them. Invented sentences."""

from __future__ import annotations

import pytest

from omoide.engine.classify import added_information, pair_notation
from omoide.engine.classify.dedup_added import added_words
from omoide.service.dedup import kanji_readings

ADDED = [
    # the old memory's thing made the head of the sentence, with a detail told of it
    (
        "The user keeps a sourdough starter in the fridge.",
        "The sourdough starter the user keeps in the fridge is fed with rye flour every Sunday.",
    ),
    (
        "Mira has a vegetable patch behind her flat.",
        "The vegetable patch behind Mira's flat has six raised beds.",
    ),
    (
        "The user plays the cello in an orchestra.",
        "The orchestra the user plays the cello in rehearses in a church hall on Tuesdays.",
    ),
    # a reason added
    (
        "The user cycles to the office.",
        "The user cycles to the office because the train fare went up in spring.",
    ),
    # Japanese: the old fact made a relative clause, with a detail; a cleft reason
    (
        "ユーザーは毎朝ベランダで植物に水をやっている。",
        "ユーザーが毎朝水をやるベランダの植物は、祖母から譲られた盆栽だ。",
    ),
    (
        "兄は古い腕時計を集めている。",
        "兄が集めている古い腕時計は、ほとんどが父の形見のスイス製だ。",
    ),
    (
        "ユーザーは週末に図書館で勉強している。",
        "ユーザーが週末に図書館で勉強するのは、自宅だと弟がうるさいからだ。",
    ),
]

PARAPHRASES = [
    # word order, voice, spelling, number format, synonyms the notation knows
    ("The user's favourite food is ramen.", "Ramen is the user's favorite food."),
    ("The user adopted a cat from the shelter.", "A cat was adopted from the shelter by the user."),
    ("The user has two children.", "The user has 2 kids."),
    ("The user walks the dog every morning.", "Every morning the user takes the dog for a walk."),
    ("The user started learning Spanish last year.", "Last year the user began to learn Spanish."),
    ("The user's sister lives in Glasgow.", "The user has a sister who lives in Glasgow."),
    ("The user's son Tom is 8.", "Tom, the user's 8-year-old son."),
    # particles, politeness, number formats, word order, a synonym
    ("ユーザーの出身地は大阪だ。", "ユーザーは大阪出身です。"),
    ("ユーザーは毎朝コーヒーを飲む。", "毎朝、ユーザーはコーヒーを飲んでいます。"),
    ("ユーザーは猫を二匹飼っている。", "ユーザーは2匹の猫を飼っています。"),
    ("ユーザーは週末に図書館で勉強している。", "週末、ユーザーは図書館で勉強をしています。"),
    ("ユーザーは中学校の先生だ。", "ユーザーは中学校で教師をしている。"),
]


def _read(old: str, new: str) -> str | None:
    a, b = pair_notation(old, new, kanji=kanji_readings())
    return added_information(a, b, (old, new))


@pytest.mark.parametrize(("old", "new"), ADDED)
def test_an_extension_restated_in_another_shape_is_added_information(old: str, new: str) -> None:
    assert _read(old, new)


@pytest.mark.parametrize(("old", "new"), PARAPHRASES)
def test_a_paraphrase_adds_no_information(old: str, new: str) -> None:
    assert _read(old, new) is None


def test_the_same_text_adds_nothing() -> None:
    assert added_information("The user cycles to work.", "The user cycles to work.") is None
    same = "ユーザーは自転車で通勤している。"
    assert added_information(same, same) is None


def test_english_words_are_compared_by_lemma_and_stem() -> None:
    added, removed = added_words("Leo goes bouldering on Fridays.", "Leo boulders on Friday.")
    assert added == [] and removed == ["goes"]


def test_japanese_words_are_runs_new_to_the_old_memory() -> None:
    added, _ = added_words("父は窓を拭いている。", "父は窓を新聞紙で拭いている。")
    assert added == ["新聞紙"]


def test_a_number_or_a_reason_needs_fewer_words() -> None:
    old = "The user rents a flat in the city centre."
    assert added_information(old, "The user rents a flat in the city centre for 900 pounds.")
    assert added_information(old, "The user rents a flat in the city centre for a while.") is None


def test_a_cleft_reason_in_both_is_no_addition() -> None:
    old = "ユーザーが歩いて通勤するのは、健康のためだからだ。"
    new = "ユーザーが徒歩で通勤するのは、健康のためだからだ。"
    assert added_information(old, new) is None
