"""A note about the user's kin or friend closes what an older memory said of them by name or as
the user's one-of-a-kind kin; a home said as a country is narrowed, not moved, by a town in it;
a year is no place (``note_cues_en``, ``note_close_ja``, ``note_claim.wide``)."""

from __future__ import annotations

import pytest

from omoide.engine.classify import Relation, note_closes

CLOSES = [
    (
        "The user's friend Oona teaches pilates at a gym in Hove.",
        "Oona has stopped teaching pilates, her back went.",
        "en",
    ),
    (
        "The user's brother Tiago lives in a flat above a pub in Margate.",
        "Tiago has moved out of the flat above the pub.",
        "en",
    ),
    (
        "The user's mum plays bridge at the golf club.",
        "The user's mother has given up bridge, the club moved it to evenings.",
        "en",
    ),
    (
        "The user's dad, 81, still keeps bees at the allotment.",
        "The user's dad has given up the bees, his knees are bad.",
        "en",
    ),
    (
        "The user's cousin Rhiannon lives in Canada.",
        "Rhiannon has moved back from Canada to Swansea.",
        "en",
    ),
    ("ユーザーの友達の早紀は書道を習っている。", "早紀は書道をやめて、今は陶芸をしてる。", "ja"),
    (
        "ユーザーの父親は趣味で将棋を指している。",
        "ユーザーのお父さんは将棋をやめたんだって。",
        "ja",
    ),
]

STAYS = [
    # someone else's, or another one of several
    (
        "The user's friend Oona teaches pilates at a gym in Hove.",
        "Oona's sister has stopped teaching pilates.",
        "en",
    ),
    (
        "The user's sister lives in a flat in Leeds.",
        "The user's sister has moved out of the flat in Leeds.",
        "en",
    ),
    ("The user's mum plays bridge at the golf club.", "The user's dad has given up bridge.", "en"),
    ("ユーザーの兄は札幌で消防士をしている。", "ユーザーの兄は消防士をやめた。", "ja"),
    ("ユーザーの友達の早紀は書道を習っている。", "ユーザーの母は書道をやめた。", "ja"),
    # a country narrowed to a town in it
    (
        "The user's cousin Rhiannon lives in Canada.",
        "Rhiannon lives in Winnipeg and works for a bank.",
        "en",
    ),
    ("Sven lives in Australia.", "Sven has got a flat of his own in Perth.", "en"),
    ("由紀はアメリカに住んでいる。", "由紀はシアトルに住んでる。", "ja"),
    # a year is no place
    (
        "瑞穂は東京から長野に移住して、一人暮らしをしている。",
        "瑞穂は二〇二三年に移住して、古い家を借りてる。",
        "ja",
    ),
]


@pytest.mark.parametrize(("old", "new", "lang"), CLOSES)
def test_a_note_about_kin_closes_what_was_said_of_them(old: str, new: str, lang: str) -> None:
    found = note_closes(old, new, lang)
    assert found is not None and found.relation is Relation.CONTRADICTORY, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), STAYS)
def test_another_person_a_town_in_a_country_or_a_year_does_not_close(
    old: str, new: str, lang: str
) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


# Round 22's other readings: a Japanese no turned round said of the thing whole (甘いもの, 犬),
# ずっと is no negation, a deed in a year said outright is back-story, "also rents" a second.
MORE_CLOSES = [
    (
        "詩織は、辛いものが大の苦手なんだって。",
        "詩織は、最近辛いものが大好きになったらしい。",
        "ja",
    ),
    ("大地は、猫が苦手なんだ。", "大地は、すっかり猫好きになって、二匹飼ってる。", "ja"),
    (
        "蓮は、週末はずっと庭で盆栽をいじってるんだって。",
        "蓮は、盆栽はもう卒業して、今は釣りばかり。",
        "ja",
    ),
    # a count of a phrase's head noun, a Japanese count a week in days
    ("Bryn keeps about forty Jacob sheep on the common.", "Bryn is down to ten sheep now.", "en"),
    ("早紀は週に四日ヨガに通ってる。", "早紀はヨガを週一回に減らしたんだって。", "ja"),
]
MORE_STAYS = [
    (
        "Bryn keeps about forty Jacob sheep on the common.",
        "Bryn is down to about forty sheep.",
        "en",
    ),
    ("Bryn keeps forty sheep and two dogs.", "Bryn is down to one sheepdog now.", "en"),
    ("早紀は週に四日ヨガに通ってる。", "早紀は英会話を週一回に減らしたんだって。", "ja"),
    ("大地は、猫が苦手なんだ。", "大地は、猫カフェの隣の店が大好きになったらしい。", "ja"),
    ("大地は、猫が苦手なんだ。", "大地は、やっぱり猫好きにはなれないって。", "ja"),
    (
        "Ines plans to run the Great Eastern Run in May.",
        "Ines ran the Great Eastern Run in 2019 as well.",
        "en",
    ),
    (
        "Ines rents a studio flat in Hythe.",
        "Ines also rents a garage in Folkestone for the bike.",
        "en",
    ),
]


@pytest.mark.parametrize(("old", "new", "lang"), MORE_CLOSES)
def test_round_22_readings_close(old: str, new: str, lang: str) -> None:
    found = note_closes(old, new, lang)
    assert found is not None and found.relation is Relation.CONTRADICTORY, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), MORE_STAYS)
def test_round_22_readings_stay(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


# Two people as one subject: what they do together is the first one's too; a split is not.
TWO_CLOSES = [
    (
        "Wilhelmina and Wilhelmina's husband Ivo live in a flat in Hove.",
        "Wilhelmina and Ivo have moved to a cottage in Lewes.",
        "en",
    ),
    (
        "Wilhelmina and Ivo are planning a trip to Orkney in June.",
        "Wilhelmina and Ivo have called off Orkney, the ferry was cancelled.",
        "en",
    ),
]
TWO_STAYS = [
    ("Wilhelmina lives in a flat in Hove.", "Ivo and Wilhelmina's sister moved to Lewes.", "en"),
    (
        "Rafe is building a skate ramp with Rafe's mate Sonny.",
        "Rafe and Sonny finished painting Sonny's bedroom.",
        "en",
    ),
]


@pytest.mark.parametrize(("old", "new", "lang"), TWO_CLOSES)
def test_two_people_as_one_subject_close(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is not None, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), TWO_STAYS)
def test_another_pair_or_an_owner_named_does_not_close(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


# A when moved: a clock time is a time of day, an owner's thing moved, a Japanese も inside a
# word is no "also"; the days or the times must be said on both sides to be moved.
WHEN_CLOSES = [
    (
        "Anselm swims at the baths at 6am every weekday.",
        "Anselm swims at the baths in the evenings now.",
        "en",
    ),
    (
        "Anselm plays darts at the Crown on Tuesday nights.",
        "Anselm's darts has moved to Friday nights.",
        "en",
    ),
    (
        "彩は毎週土曜の朝、子ども食堂で手伝いをしてる。",
        "彩の子ども食堂の手伝いは日曜の夕方に変わった。",
        "ja",
    ),
    ("彩は毎週水曜日の夜にバドミントンをしてる。", "彩のバドミントンが金曜の夜に変わった。", "ja"),
]
WHEN_STAYS = [
    ("Anselm plays darts on Tuesdays.", "Anselm plays darts in the evenings now.", "en"),
    (
        "Anselm plays darts at the Crown on Tuesday nights.",
        "Anselm's brother's darts has moved to Friday nights.",
        "en",
    ),
    ("彩は毎週水曜日の夜にバドミントンをしてる。", "彩のバドミントンが金曜の夜にも増えた。", "ja"),
    (
        "彩は毎週水曜日の夜にバドミントンをしてる。",
        "彩の兄が金曜の夜にバドミントンを始めた。",
        "ja",
    ),
]


@pytest.mark.parametrize(("old", "new", "lang"), WHEN_CLOSES)
def test_a_when_moved_closes(old: str, new: str, lang: str) -> None:
    found = note_closes(old, new, lang)
    assert found is not None and "when now" in found.reason, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), WHEN_STAYS)
def test_a_when_on_another_axis_also_or_of_another_does_not_close(
    old: str, new: str, lang: str
) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


# A value replaced: "from A to B" up to B's setting; 立川の消防署に異動 against 八王子の消防署
# (the same kind of place elsewhere); 秋田から長野の花火工場に移った.
VALUE_CLOSES = [
    (
        "Ilona sings alto in a chamber choir in Bath.",
        "Ilona has moved from alto to soprano in the choir.",
        "en",
    ),
    (
        "賢治は、消防士として府中の消防署に勤めてる。",
        "賢治は、四月から調布の消防署に異動になった。",
        "ja",
    ),
    ("賢治は、秋田の酒蔵で働いてる。", "賢治は、秋田から新潟の酒蔵に移ったんだって。", "ja"),
]
VALUE_STAYS = [
    (
        "Ilona sings alto in a chamber choir in Bath.",
        "Ilona has moved from the chamber choir to a bigger choir in Bath, still alto.",
        "en",
    ),
    ("賢治は、市役所で働いてる。", "賢治は、四月から財政課に異動になった。", "ja"),
    ("賢治は、府中の消防署に勤めてる。", "賢治は、府中の消防署の救助隊に異動になった。", "ja"),
]


@pytest.mark.parametrize(("old", "new", "lang"), VALUE_CLOSES)
def test_a_value_replaced_closes(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is not None, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), VALUE_STAYS)
def test_a_value_kept_or_a_part_of_it_does_not_close(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


# A never turned round in other words (a flight, swimming, a phone); "'s" + a verb in -ing
# with its object is "is"; an end after so many years is no back-story.
MORE_EN_CLOSES = [
    ("Dorcas has never been on an aeroplane.", "Dorcas flew to Malaga on Tuesday.", "en"),
    ("Dorcas can't swim.", "Dorcas swam two lengths at the baths on Sunday.", "en"),
    ("Dorcas doesn't own a TV.", "Dorcas caved and bought a TV for the lounge.", "en"),
    ("Dorcas's learning the ukulele from a book.", "Dorcas gave up on the ukulele.", "en"),
    (
        "Dorcas is a teacher and volunteers with the lifeboat crew.",
        "Dorcas stood down from the lifeboat crew after twelve years.",
        "en",
    ),
]
MORE_EN_STAYS = [
    ("Dorcas has never been on an aeroplane.", "Dorcas's sister flew to Malaga.", "en"),
    ("Dorcas can't swim.", "Dorcas still can't swim two lengths.", "en"),
    ("Dorcas's wedding ring is her gran's.", "Dorcas gave up on the ring.", "en"),
    ("Dorcas doesn't drink coffee.", "Dorcas gave up coffee years ago.", "en"),
]


@pytest.mark.parametrize(("old", "new", "lang"), MORE_EN_CLOSES)
def test_more_english_readings_close(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is not None, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), MORE_EN_STAYS)
def test_more_english_readings_stay(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


# A job said by name, begun or now, against the old one's: another job closes; the same job,
# a role of life or a second job does not.
JOB_CLOSES = [
    (
        "Leofric is a glazier at a firm in Hull.",
        "Leofric has started as a postman in Beverley.",
        "en",
    ),
    ("Leofric works as a porter at the infirmary.", "Leofric is a ward clerk now.", "en"),
]
JOB_STAYS = [
    ("Leofric is a glazier at a firm in Hull.", "Leofric is a dad now!", "en"),
    (
        "Leofric is a glazier at a firm in Hull.",
        "Leofric has started as a senior glazier at the same firm.",
        "en",
    ),
    (
        "Leofric is a glazier at a firm in Hull.",
        "Leofric has also started as a barman at weekends.",
        "en",
    ),
    (
        "Leofric is a glazier at a firm in Hull.",
        "Leofric's brother has started as a postman in Beverley.",
        "en",
    ),
]


@pytest.mark.parametrize(("old", "new", "lang"), JOB_CLOSES)
def test_another_job_closes(old: str, new: str, lang: str) -> None:
    found = note_closes(old, new, lang)
    assert found is not None and "works as" in found.reason, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), JOB_STAYS)
def test_the_same_job_a_role_of_life_or_a_second_job_stays(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


def test_b_decided_instead_of_a_closes_and_a_one_off_does_not() -> None:
    old = "Ottoline plays the oboe in the county youth orchestra."
    assert (
        note_closes(old, "Ottoline has decided on the clarinet instead of the oboe.", "en")
        is not None
    )
    assert (
        note_closes(old, "Ottoline played the clarinet instead of the oboe at the fair.", "en")
        is None
    )
