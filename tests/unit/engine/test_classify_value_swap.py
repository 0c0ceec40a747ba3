"""Round 25's sure close: the old statement said again with one single-valued slot's value
swapped (``value_swap.value_swapped``, in ``learned.SURE_ONLY``). Positive probes and
two-things-of-one-kind negatives in English and Japanese, written for these tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import SURE_ONLY, sure_close
from omoide.engine.classify.text import parse
from omoide.engine.classify.value_swap import value_swapped


def _closes(old: str, new: str) -> bool:
    return sure_close(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a medicine, a voice part, a supplier, a place of work, a brand, a weekday
        ("The user takes Keppra for her seizures.", "The user takes Lamictal for her seizures."),
        (
            "Iris plays viola in the county youth orchestra.",
            "Iris plays cello in the county youth orchestra.",
        ),
        (
            "The user buys his coffee beans from a roaster in Leith.",
            "The user buys his coffee beans from a cooperative in Huila.",
        ),
        (
            "The user is a paramedic at a station in Dundee.",
            "The user is a paramedic at a station in Perth.",
        ),
        ("The user commutes on a Brompton bike.", "The user commutes on a Giant e-bike."),
        (
            "Tom's choir rehearses on Tuesdays at the church hall.",
            "Tom's choir rehearses on Fridays at the church hall.",
        ),
        ("ユーザーは電気窯で陶器を焼いている", "ユーザーはガス窯で陶器を焼いている"),
        (
            "ユーザーは仙台の工場で溶接工として働いている",
            "ユーザーは郡山の工場で溶接工として働いている",
        ),
        ("ユーザーは自転車で駅まで通っている", "ユーザーはバスで駅まで通っている"),
        # a habit's frequency opening both spans is not part of the value (session 26)
        (
            "ユーザーは毎週火曜の夜に書道教室に通っている",
            "ユーザーは毎週木曜の夜に書道教室に通っている",
        ),
        ("ユーザーは毎朝電車で職場に向かう", "ユーザーは毎朝自転車で職場に向かう"),
        # a modifier on both sides: one kind of value replaced (session 26)
        ("ユーザーのかかりつけは駅前の青木医院だ", "ユーザーのかかりつけは港町の森下医院だ"),
        # a record's label before the value (session 26)
        ("Gym coach: Dana (Tuesdays)", "Gym coach: Omar (Tuesdays)"),
        ("The user's brother: plumber in Leeds.", "The user's brother: plumber in York."),
    ],
)
def test_one_value_swapped_closes(old: str, new: str) -> None:
    assert value_swapped(parse(old), parse(new))
    assert _closes(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two things of one kind: having, owning, reading, subscribing, meeting
        ("The user has a red scarf.", "The user has a green scarf."),
        ("The user owns a Honda motorbike.", "The user owns a Vespa scooter."),
        ("The user is reading a novel about Lisbon.", "The user is reading a novel about Prague."),
        ("The user is subscribed to Netflix.", "The user is subscribed to Disney+."),
        (
            "The user has a meeting with her dentist on Monday.",
            "The user has a meeting with her lawyer on Monday.",
        ),
        # an addition, an event, the subject swapped, a vague value made precise, an adjunct
        ("The user also plays tennis on Sundays.", "The user also plays squash on Sundays."),
        ("The user visited Porto in May.", "The user visited Seville in May."),
        ("The user's sister lives in Leeds.", "The user's cousin lives in Leeds."),
        ("The user reads several books a month.", "The user reads about six books a month."),
        (
            "The user works as a nurse at a clinic in town.",
            "The user works as a nurse at the clinic near the park.",
        ),
        ("Order #4821 shipped on Monday.", "Order #7710 shipped on Monday."),
        # a calendar date names an occasion: two gigs
        (
            "The user has a paid gig at the Blue Lantern on Saturday 4 March.",
            "The user has a paid gig at the Blue Lantern on Saturday 9 May.",
        ),
    ],
)
def test_two_things_of_one_kind_stay_open_en(old: str, new: str) -> None:
    assert not value_swapped(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two things of one kind: having, keeping a pet, reading about, subscribing
        ("ユーザーは赤い傘を持っている", "ユーザーは黒い傘を持っている"),
        ("ユーザーは柴犬を飼っている", "ユーザーはハムスターを飼っている"),
        ("ユーザーは京都についての本を読んでいる", "ユーザーは奈良についての本を読んでいる"),
        ("ユーザーは朝刊を購読している", "ユーザーは週刊誌を購読している"),
        # the topic swapped, two trips on two occasions, a value made precise
        ("ユーザーの職場は駅の北口にある", "ユーザーの実家は駅の北口にある"),
        ("ユーザーは来週名古屋に出張する", "ユーザーは再来週仙台に出張する"),
        ("ユーザーは3月4日に市民ホールで演奏する", "ユーザーは5月9日に市民ホールで演奏する"),
        ("ユーザーは二年生の担任だ", "ユーザーは二年三組の担任だ"),
        # the same frequency said with one more word is no other value
        ("ユーザーは毎週火曜に泳いでいる", "ユーザーは毎週火曜日に泳いでいる"),
        # a modifier on one side only makes the value precise
        ("ユーザーはバイクに乗っている", "ユーザーはホンダのバイクに乗っている"),
    ],
)
def test_two_things_of_one_kind_stay_open_ja(old: str, new: str) -> None:
    assert not value_swapped(parse(old), parse(new))


def test_a_record_naming_a_person_in_the_span_stays_open() -> None:
    # a label, then whose child: two children, not one value replaced
    assert not value_swapped(
        parse("Note: Ana, son Leo (6), swimming on Mondays."),
        parse("Note: Ana, daughter Mia (3), swimming on Mondays."),
    )


def test_another_persons_value_does_not_close() -> None:
    # one owner asked for: the brother's medicine is not the user's
    assert not _closes(
        "The user takes Keppra for her seizures.",
        "Her brother Sam takes Lamictal for his seizures.",
    )


def test_value_swapped_is_a_sure_only_text_feature() -> None:
    assert "value_swapped" in SURE_ONLY
    assert "value_swapped" in TEXT_FEATURES
