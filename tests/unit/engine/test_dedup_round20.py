"""Dedup's twentieth round, on probes of our own ("Noa" / ノア): a frequency turned round, a rank
prefix, a word denied by 不, a verb said in the past, a status ended or pending said with
new words and a dislike said as a fear keep a pair
apart; a quantity in another unit, a part of an hour in words, a month and year in digits,
"one day a week" and the humble おりまして are read alike, while a different value stays
different."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation, status_changed
from omoide.engine.classify.dedup_degree import degree_change
from omoide.engine.classify.dedup_quantity import same_quantities


def _apart(first: str, second: str) -> bool:
    a, b = pair_notation(first, second)
    return find_dedup_change(a, b) is not None or status_changed(a, b)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # a frequency turned round (both sides name one)
        ("ノアはいつも自転車で通勤する。", "ノアはときどき自転車で通勤する。"),
        ("ノアはたいてい家で昼食をとる。", "ノアはたまに家で昼食をとる。"),
        ("Noa usually cooks on Sundays.", "Noa occasionally cooks on Sundays."),
        ("Noa always walks to work.", "Noa sometimes walks to work."),
        # a rank prefix on one side
        ("Noa is captain of the hockey team.", "Noa is vice-captain of the hockey team."),
        ("Noa is head of the science department.", "Noa is deputy head of the science department."),
        ("Noa is the store manager.", "Noa is the assistant manager."),
        ("ノアは漢検2級に合格した。", "ノアは漢検準2級に合格した。"),
        ("ノアは町内会の会長を務めている。", "ノアは町内会の副会長を務めている。"),
        # a status ended or pending, in words the families did not hold
        (
            "Noa chairs the residents' association.",
            "Noa chaired the residents' association but stepped down in May.",
        ),
        (
            "Noa will move to the Leeds office in June.",
            "Noa's request to move to the Leeds office in June was turned down.",
        ),
        (
            "Noa has been given a council flat in Leith.",
            "Noa is on the waiting list for a council flat in Leith.",
        ),
        (
            "Noa was elected to the parish council.",
            "Noa is standing for election to the parish council.",
        ),
        # a word denied by 不; a state said in the past, word for word
        ("ノアは去年、漢検2級に合格した。", "ノアは去年、漢検2級を受けたが不合格だった。"),
        (
            "Noa works at the bakery and lives above it.",
            "Noa worked at the bakery and lived above it.",
        ),
        # a dislike said as a fear, against a liking
        ("ノアは犬が好きだ。", "ノアは犬が怖い。"),
        # a quantity in another unit with another value
        ("Noa runs 5 km before work.", "Noa runs 5 miles before work."),
        ("Noa weighs 70 kg.", "Noa weighs 11 lb."),
        ("Noa keeps the flat at 20°C.", "Noa keeps the flat at 75°F."),
        ("ノアは毎日2キロ歩く。", "ノアは毎日3000メートル歩く。"),
        # a part of an hour, a month in digits, a rate: a different value
        ("Noa walks the dog for an hour.", "Noa walks the dog for half an hour."),
        ("Noa moved to York in March 2025.", "Noa moved to York in 04/2025."),
        ("Noa has a lesson one day a week.", "Noa has a lesson 2 days a week."),
    ],
)
def test_a_changed_degree_status_or_value_keeps_the_pair_apart(first: str, second: str) -> None:
    assert _apart(first, second)
    assert _apart(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa runs 5 km before work.", "Noa runs 3 miles before work."),
        ("Noa is training for a 100-mile race.", "Noa is training for a 160 km race."),
        ("Noa weighs 70 kg.", "Noa weighs 11 stone."),
        ("Noa weighs 70 kg.", "Noa weighs 154 lb."),
        ("Noa keeps the flat at 20°C.", "Noa keeps the flat at 68°F."),
        ("ノアは毎日2キロ歩く。", "ノアは毎日2000メートル歩く。"),
        ("Noa charges £40 for 45 minutes.", "Noa charges £40 for three-quarters of an hour."),
        ("Noa naps for 30 minutes after lunch.", "Noa naps for half an hour after lunch."),
        ("Noa moved to York in March 2025.", "Noa moved to York in 03/2025."),
        ("Noa has a lesson one day a week.", "Noa has a lesson 1 day a week."),
        (
            "ノアは図書館で働いていて、絵本を担当している。",
            "ノアは図書館で働いておりまして、絵本を担当しております。",
        ),
        ("ノアは来年の春に卒業する。", "ノアは来年の春に卒業いたします。"),
        ("ノアはクモが怖い。", "ノアはクモが苦手だ。"),
        ("Noa is scared of heights.", "Noa is afraid of heights."),
        ("ノアはときどき映画館に行く。", "ノアはたまに映画館に行く。"),
        ("ノアはいつも0時ごろに寝る。", "ノアはたいてい0時ごろに寝る。"),
        ("Noa usually cycles to work.", "Noa normally cycles to work."),
        ("Noa moved to Leeds and started a new job.", "Noa moved to Leeds and started a new job."),
    ],
)
def test_one_value_said_another_way_reads_alike(first: str, second: str) -> None:
    assert not _apart(first, second)
    assert not _apart(second, first)


def test_a_frequency_on_one_side_only_is_left_to_the_judge() -> None:
    assert degree_change("Noa cycles to work.", "Noa usually cycles to work.") is None
    assert degree_change("ノアは電車で本を読む。", "ノアはいつも電車で本を読む。") is None


def test_a_word_denied_by_fu_is_left_alone_against_a_text_that_denies() -> None:
    assert degree_change("ノアは不眠に悩んでいる。", "ノアは眠れない夜が続いている。") is None
    assert degree_change("ノアは採用された。", "ノアは不採用だった。") is not None


def test_a_rank_word_is_read_only_in_the_same_place() -> None:
    # "assistant" as a noun before "job", not a rank of the job
    assert (
        degree_change(
            "Noa is leaving the accounts assistant job in June.",
            "Noa is leaving the job as an accounts assistant in June.",
        )
        is None
    )
    assert degree_change("Noa is head of year.", "Noa is deputy head of year.") is not None


def test_a_quantity_is_rewritten_only_when_the_other_text_holds_the_same_value() -> None:
    assert same_quantities("Noa runs 5 km.", "Noa runs 3 miles.") == "Noa runs 5 km."
    assert same_quantities("Noa runs 5 km.", "Noa runs 5 miles.") == "Noa runs 5 miles."
    assert same_quantities("Noa paid £5 for it.", "Noa paid £5m for it.") == "Noa paid £5m for it."


def test_an_hour_on_the_twelve_hour_clock_is_not_read_as_the_twenty_four_hour_one() -> None:
    # tried and taken back: a text on the 24-hour clock writes 10:15 for the morning
    assert _apart("Noa's flight leaves at 10:15.", "Noa's flight leaves at 22:15.")
