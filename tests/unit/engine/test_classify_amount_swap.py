"""Session 26's sure close: the old statement said again with its one amount changed
(``amount_swap.amount_swapped``, in ``learned.SURE_ONLY``): a number swapped in the old frame
(with a reason or a time after it), or the amount told changed to a new value ("went up to",
…に増えた). Positive probes and negatives (two things of a kind, another owner, an occasion,
a date, a bound filled in, an addition) in English and Japanese, written for these tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.amount_swap import amount_swapped
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import SURE_ONLY, sure_close
from omoide.engine.classify.text import parse


def _closes(old: str, new: str) -> bool:
    return sure_close(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a dose, days worked, a count kept, a rota, a tail that tells why, a rate
        (
            "The user takes prednisolone 20 mg every morning.",
            "The user takes prednisolone 10 mg every morning.",
        ),
        (
            "The user works four days a week at the county archive.",
            "The user works three days a week at the county archive.",
        ),
        (
            "The user keeps twelve beehives on the allotment.",
            "The user keeps twenty beehives on the allotment since the spring split.",
        ),
        (
            "The user is a ferry engineer on a one-week-on, one-week-off rota.",
            "The user is a ferry engineer on a two-week-on, two-week-off rota.",
        ),
        (
            "The user swims twice a week at the lido.",
            "The user swims four times a week at the lido.",
        ),
        (
            "The user's allotment rent is £40 a year.",
            "The user's allotment rent has gone up to £55 a year.",
        ),
        (
            "ユーザーは毎朝四時に起きてパンを焼いている",
            "ユーザーは毎朝六時に起きてパンを焼いている",
        ),
        ("ユーザーは週三日、図書館で働いている", "ユーザーは週五日、図書館で働いている"),
        ("ユーザーの家賃は月七万円だ", "ユーザーの家賃は月八万円になった"),
        ("ユーザーは血圧の薬を一錠飲んでいる", "ユーザーの血圧の薬は一錠から二錠に増えた"),
    ],
)
def test_one_amount_changed_closes(old: str, new: str) -> None:
    assert amount_swapped(parse(old), parse(new))
    assert _closes(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two things of a kind: another medicine, another lift, an addition
        (
            "The user takes prednisolone 20 mg every morning.",
            "The user also takes omeprazole 20 mg every morning.",
        ),
        ("The user's best squat is 120 kg.", "The user's best deadlift is 150 kg."),
        # another owner
        (
            "The user works four days a week at the county archive.",
            "The user's sister works three days a week at the county archive.",
        ),
        # an occasion: a past event, a birthday, a date
        ("The user bought 3 tickets for the match.", "The user bought 5 tickets for the match."),
        (
            "The user celebrated her 30th birthday in Porto.",
            "The user celebrated her 31st birthday in Porto.",
        ),
        (
            "The user's dentist appointment is on 4 March.",
            "The user's dentist appointment is on 9 March.",
        ),
        # a rough amount within a quarter, a bound the new value fills in
        ("The user reads about 30 books a year.", "The user reads about 33 books a year."),
        ("The user has more than 20 houseplants.", "The user has 26 houseplants now."),
        # the same number said again
        ("The user swims twice a week at the lido.", "The user swims 2 times a week at the lido."),
        # Japanese: a date, an experience, a topic that differs, another person
        ("ユーザーは三月四日に歯医者の予約がある", "ユーザーは三月九日に歯医者の予約がある"),
        (
            "ユーザーの家の電気代は月一万円くらい",
            "ユーザーの家は去年の冬、電気代が月二万円になったことがある",
        ),
        ("ユーザーは毎朝四時に起きている", "ユーザーの兄は毎朝六時に起きている"),
    ],
)
def test_not_one_amount_changed(old: str, new: str) -> None:
    assert not amount_swapped(parse(old), parse(new))


def test_a_negated_statement_is_left_alone() -> None:
    assert not amount_swapped(
        parse("The user does not work four days a week."),
        parse("The user does not work three days a week."),
    )


def test_amount_swapped_is_a_sure_only_text_feature() -> None:
    assert "amount_swapped" in SURE_ONLY
    assert "amount_swapped" in TEXT_FEATURES


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user owns canoe number 4.", "The user owns canoe number 7."),
        ("The user has allotment plot no. 12.", "The user has allotment plot no. 15."),
        ("ユーザーは3号機のドローンを持っている。", "ユーザーは5号機のドローンを持っている。"),
        ("ユーザーは7番の鳩を飼っている。", "ユーザーは9番の鳩を飼っている。"),
    ],
)
def test_a_held_thing_named_by_another_number_is_a_second_thing(old: str, new: str) -> None:
    # One may own both: the number names the thing (an identifier), it does not count it.
    assert not amount_swapped(parse(old), parse(new))
    assert not _closes(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an identifier as a copula's value still swaps; a held count still swaps
        (
            "The user's locker at the pool is number 31.",
            "The user's locker at the pool is number 58 since the refit.",
        ),
        ("The user keeps twelve hens.", "The user keeps fifteen hens."),
        ("ユーザーはインコを二羽飼っている。", "ユーザーはインコを三羽飼っている。"),
    ],
)
def test_an_identifier_slot_or_a_held_count_still_swaps(old: str, new: str) -> None:
    assert amount_swapped(parse(old), parse(new))
