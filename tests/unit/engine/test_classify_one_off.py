"""Round 25b: two precision mends. (a) One past occasion told beside a habit caps the judge's
close (``one_off.one_off_beside_habit``, ``learned.JUDGE_CAPS``); an occasion that ends or
changes the habit, or a "never" turned round, stays open to a close. (b) An end of something
the old memory already says is absent is no sure close (``ended_negated.negated_in_old`` in the
note reader and ``habit_end``); an end of what the old memory says holds still is. Probes in
English and Japanese, written for these tests."""

from __future__ import annotations

import pytest
from judge_fakes import sure_of_change

from omoide.engine.classify import Relation, read_pair
from omoide.engine.classify.ended_negated import negated_in_old
from omoide.engine.classify.learned import (
    judge,
    judge_capped,
    sentence_score,
    sure_close,
)
from omoide.engine.classify.note_close import note_closes
from omoide.engine.classify.one_off import one_off_beside_habit
from omoide.engine.classify.text import parse

_ONE_OFF = [
    (
        "The user plays chess online every evening.",
        "The user once played in a club tournament in Leeds and lost in the second round.",
    ),
    (
        "The user swims at the leisure centre every Saturday morning.",
        "The user swam in the sea at Whitby last summer.",
    ),
    (
        "Tom walks the dog along the canal every morning.",
        "Tom walked the dog through the park the other day.",
    ),
    (
        "私は格闘ゲームが好きで、週末はオンライン対戦ばかりしています。",
        "私は去年、初めて格闘ゲームのオフライン大会に出て、二回戦で負けました。",
    ),
    (
        "ユーザーは毎朝、息子を保育園に送ってから出社している。",
        "ユーザーは一度、息子を保育園に送った後で着替えを忘れたのに気づいて、取りに戻った。",
    ),
    ("ユーザーは毎週土曜日に市民プールで泳いでいる。", "ユーザーは先月、海で泳ぎました。"),
]


@pytest.mark.parametrize(("old", "new"), _ONE_OFF)
def test_one_occasion_beside_a_habit_caps_the_judge(old: str, new: str) -> None:
    assert one_off_beside_habit(parse(old), parse(new))
    text = read_pair(old, new)
    assert judge_capped(text)
    model = sure_of_change()
    assert judge(text, None, model).relation is not Relation.CONTRADICTORY
    assert sentence_score(text, None, model) == 0.0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the occasion ends or changes the habit
        (
            "The user plays chess online every evening.",
            "Last month the user stopped playing chess online.",
        ),
        (
            "The user swims at the leisure centre every Saturday.",
            "The user swam once last year and has not swum since.",
        ),
        (
            "The user runs five kilometres every morning.",
            "Last year the user switched to cycling to work instead.",
        ),
        ("ユーザーは毎朝ジョギングしている。", "ユーザーは去年、ジョギングをやめた。"),
        ("ユーザーは毎月一万円を奨学金の返済にあてている。", "ユーザーは先月、奨学金を完済した。"),
        (
            "ユーザーは毎週土曜日に市民プールで泳いでいる。",
            "ユーザーは去年泳いで、それ以来プールには行っていない。",
        ),
        # a "never" turned round by one occasion is a change
        ("The user has never flown.", "The user flew to Osaka once last year."),
        ("ユーザーは一度も海外に行ったことがない。", "ユーザーは去年、一度台湾に行った。"),
        # a present state with no habit: a past event may end it
        ("The user lives in a rented flat.", "The user moved into a new house last month."),
        ("祖母は市民病院に入院している。", "祖母は昨日、市民病院を退院した。"),
        # a habit said again, no single occasion
        ("The user plays chess online every evening.", "The user plays chess online most nights."),
    ],
)
def test_an_occasion_that_ends_or_turns_it_is_not_capped(old: str, new: str) -> None:
    assert not one_off_beside_habit(parse(old), parse(new))
    assert not judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user drinks no coffee, only green tea.",
            "The user gave up coffee after palpitations and has drunk only green tea since.",
        ),
        (
            "The user doesn't drink coffee and gets through the night shift on green tea.",
            "The user gave up coffee after it set off heart palpitations in his first year of "
            "nights.",
        ),
        ("Ken never smokes.", "Ken quit smoking after his father's heart attack."),
        (
            "ユーザーはコーヒーを飲まず、緑茶だけ飲んでいる。",
            "ユーザーは動悸がしてコーヒーをやめた。",
        ),
        ("ユーザーはお酒を飲まない。", "ユーザーは健康診断の結果を見てお酒をやめた。"),
    ],
)
def test_an_end_of_what_the_old_memory_says_is_absent_is_no_sure_close(old: str, new: str) -> None:
    assert note_closes(old, new) is None
    assert not sure_close(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user drinks coffee every morning.", "The user gave up coffee after palpitations."),
        ("The user drinks two cups of coffee a day.", "The user quit coffee last month."),
        ("ユーザーは毎朝コーヒーを飲んでいる。", "ユーザーはコーヒーをやめた。"),
        ("剛は、お酒は日本酒しか飲まない。", "剛は、最近は日本酒をやめてハイボールばかりだ。"),
    ],
)
def test_an_end_of_what_the_old_memory_says_holds_still_closes(old: str, new: str) -> None:
    assert note_closes(old, new) is not None
    assert sure_close(read_pair(old, new))


def test_negated_in_old_reads_the_no_in_the_things_own_clause() -> None:
    assert negated_in_old({"coffe"}, "The user drinks no coffee, only green tea.", "en")
    assert not negated_in_old({"coffe"}, "The user drinks coffee, not tea.", "en")
    assert not negated_in_old({"coffe"}, "The user drinks tea.", "en")  # not said at all
    assert negated_in_old({"コーヒー"}, "ユーザーはコーヒーを飲まない。", "ja")
    assert not negated_in_old({"日本酒"}, "剛は日本酒しか飲まない。", "ja")  # only X
