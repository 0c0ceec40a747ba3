"""Round 26: precision guards by kind. Four judge caps (``learned.JUDGE_CAPS``): one occasion
counted once beside a present fact, an occasion years back beside a present fact or plan
(``one_off``), one more of a kind told as an addition (``addition``), the old fact said again
with a reason (``reason_told``); a veto (``learned.VETO_ONLY``): the old memory's negated act
told only of another person (``others_act``); and a guard in the note reader's "a no turned
round": one thing not held and another of its kind held is no turn (``another_kind``). Each
shape is capped, and the change it resembles is not. Probes in English and Japanese, written
for these tests."""

from __future__ import annotations

import pytest
from judge_fakes import sure_of_change

from omoide.engine.classify import Relation, read_pair
from omoide.engine.classify.addition import another_added
from omoide.engine.classify.another_kind import en_compounds, ja_head, ja_other_of_kind
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import (
    JUDGE_CAPS,
    judge,
    judge_capped,
    sure_close,
    vetoed,
)
from omoide.engine.classify.note_close import note_closes
from omoide.engine.classify.one_off import long_ago_beside_present, once_beside_state
from omoide.engine.classify.others_act import negated_act_of_other
from omoide.engine.classify.reason_told import duration_of_old_state, reason_for_old_fact
from omoide.engine.classify.text import parse


def _capped_by(old: str, new: str) -> set[str]:
    text = read_pair(old, new)
    return {name for name in JUDGE_CAPS if text.features[TEXT_FEATURES.index(name)]}


_CAPPED = [
    # one occasion counted once beside a present fact said without a frequency word
    (
        "once_beside_state",
        "The user has Saturdays off.",
        "The user worked one Saturday last month, just once, to cover a stocktake.",
    ),
    (
        "once_beside_state",
        "The user cycles to the depot.",
        "The user drove the van to the depot once last week.",
    ),
    ("once_beside_state", "ユーザーは土曜は休みだ。", "ユーザーは先週、土曜に一度だけ出勤した。"),
    (
        "once_beside_state",
        "ユーザーは自転車で配達している。",
        "ユーザーは先週、親戚の転居の手伝いでバンを一日だけ運転した。",
    ),
    # an occasion years back beside a present fact or a plan
    (
        "long_ago_beside_present",
        "The user plans a trip to Lisbon in the spring.",
        "The user went to Lisbon on a school exchange twenty years ago.",
    ),
    (
        "long_ago_beside_present",
        "ユーザーは北海道へ旅行する予定だ。",
        "ユーザーは十年前に卒業旅行で北海道に行った。",
    ),
    # one more of a kind, told as an addition
    (
        "another_added",
        "The user takes a statin every morning.",
        "The user has also started taking iron tablets.",
    ),
    (
        "another_added",
        "The user keeps hens in the back garden.",
        "The user keeps two ducks as well.",
    ),
    ("another_added", "ユーザーは胃の薬を飲んでいる。", "ユーザーは目の薬も飲み始めた。"),
    # how long the old state has held
    (
        "duration_of_old_state",
        "The user is a vegan and cooks for a café.",
        "The user has been vegan for nine years.",
    ),
    (
        "duration_of_old_state",
        "ユーザーは茶道を習っていて、着物も自分で着る。",
        "ユーザーは茶道を始めて以来、十年になる。",
    ),
    # the old fact said again with a reason
    (
        "reason_for_old_fact",
        "The user is a teacher and walks to school every day.",
        "The user walks to school because the bus company stopped the route.",
    ),
]


@pytest.mark.parametrize(("cap", "old", "new"), _CAPPED)
def test_each_shape_caps_the_judge(cap: str, old: str, new: str) -> None:
    assert cap in _capped_by(old, new)
    text = read_pair(old, new)
    assert judge_capped(text)
    assert judge(text, None, sure_of_change()).relation is not Relation.CONTRADICTORY


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a count that is a frequency, a round, or a never turned round
        ("The user has Saturdays off.", "The user now works once a week on Saturdays."),
        ("ユーザーは整骨院に月に二回通っている。", "ユーザーは整骨院を月一回にした。"),
        ("ユーザーは試合に出ている。", "ユーザーは県大会の一回戦で負けた。"),
        ("The user has never flown.", "The user flew to Madrid once last year."),
        ("ユーザーは一度も海外に行ったことがない。", "ユーザーは去年、一度台湾に行った。"),
        # an occasion that ends or changes the state
        ("The user lives in a rented flat.", "The user moved into a house last month."),
        ("The user works at the bakery.", "The user left the bakery once and for all last week."),
        # a plan carried out recently, not years back
        ("The user plans a trip to Lisbon.", "The user went to Lisbon last month."),
    ],
)
def test_occasions_that_may_change_the_fact_are_not_capped(old: str, new: str) -> None:
    assert not once_beside_state(parse(old), parse(new))
    assert not long_ago_beside_present(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ユーザーはお酒を飲まない。", "ユーザーはお酒を飲む友人のために居酒屋を予約した。"),
        ("The user does not smoke.", "The user set up a shelter for a colleague who smokes."),
    ],
)
def test_a_negated_act_told_of_another_person_is_vetoed(old: str, new: str) -> None:
    assert negated_act_of_other(parse(old), parse(new))
    text = read_pair(old, new)
    assert vetoed(text)
    assert judge(text, None, sure_of_change()).relation is not Relation.CONTRADICTORY


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an addition to what the old memory said was the only one
        ("The café opens on weekdays only.", "The café opens on Sundays too."),
        ("ユーザーは紅茶しか飲まない。", "ユーザーはコーヒーも飲むようになった。"),
        # the marked item is the old memory's own: another value of it
        ("The user swims at the pool on Mondays.", "The user is at the gym on Mondays too."),
        # a replacement, an end, a now
        ("The user takes a statin.", "The user takes iron tablets instead, and also vitamin D."),
        ("The user takes a statin.", "The user now also takes aspirin."),
        ("ユーザーは胃の薬を飲んでいる。", "ユーザーは胃の薬をやめ、目の薬も飲み始めた。"),
        # a time word with も, an act the old memory does not name
        ("ユーザーは土曜に練習している。", "ユーザーは日曜も練習に出るようになった。"),
        ("The user practises on Saturdays.", "The user practises on Sundays too."),
        ("ユーザーは監督を続けている。", "ユーザーは道具も後輩に譲った。"),
    ],
)
def test_a_change_told_with_an_additive_word_is_not_capped(old: str, new: str) -> None:
    assert not another_added(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the subject does the act itself, for someone else
        ("ユーザーはスマホを持っていない。", "ユーザーは孫との連絡のためにスマホを買った。"),
        ("The user does not drive.", "The user drives his mother to the clinic every week."),
        (
            "ユーザーはお酒を飲まない。",
            "ユーザーは友人と飲む機会が増えて、お酒を飲むようになった。",
        ),
    ],
)
def test_an_act_the_subject_does_itself_is_not_capped(old: str, new: str) -> None:
    assert not negated_act_of_other(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # "since" also tells a time: a change
        ("The user catches the 6:50 train.", "The user catches the 7:05 since his shift changed."),
        # a value of its own in the head, or an end, a now
        ("The user has two dogs.", "The user has three dogs because a neighbour moved abroad."),
        ("The user walks to work.", "The user no longer walks to work because of his knee."),
        ("The user walks to work.", "The user now cycles because the bus route closed."),
    ],
)
def test_a_change_with_a_reason_is_not_capped(old: str, new: str) -> None:
    assert not reason_for_old_fact(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user is a vegan.", "The user had been vegan for nine years but now eats fish."),
        (
            "ユーザーは菜食主義者だ。",
            "ユーザーは菜食主義者になってから五年たったが、今は魚も食べる。",
        ),
        ("The user is a vegan.", "The user's sister has been vegan for nine years."),
    ],
)
def test_a_duration_beside_a_change_is_not_capped(old: str, new: str) -> None:
    assert not duration_of_old_state(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("ユーザーは簿記の資格を持っていない。", "ユーザーは秘書検定の資格を持っている。", "ja"),
        ("The user does not have a driving licence.", "The user now has a forklift licence.", "en"),
    ],
)
def test_another_of_a_kind_held_is_no_sure_close(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None
    assert not sure_close(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("ユーザーは簿記の資格を持っていない。", "ユーザーは簿記の資格を持っている。", "ja"),
        ("ユーザーは簿記の資格を持っていない。", "ユーザーは先月、資格を取った。", "ja"),
        ("ユーザーは車の免許を持っていない。", "ユーザーは合宿で普通免許を取った。", "ja"),
        ("The user does not have a driving licence.", "The user has a driving licence now.", "en"),
        ("The user has never tried sushi.", "The user now eats sushi every Friday.", "en"),
    ],
)
def test_the_same_thing_turned_round_still_closes(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is not None


def test_another_kind_reads_modifiers() -> None:
    assert ja_head("簿記の資格") == ("簿記", "資格")
    assert ja_head("資格") == ("", "資格")
    assert ja_other_of_kind("簿記", "資格", "秘書検定の資格を持っている")
    assert not ja_other_of_kind("簿記", "資格", "資格を持っている")
    assert not ja_other_of_kind("", "資格", "秘書検定の資格を持っている")
    assert en_compounds("has a forklift licence", lambda w: {w}) == frozenset({"forklift licence"})
    assert en_compounds("tried sushi", lambda w: {w}) == frozenset()
