"""Session 45: Japanese caps on the judge's close (``ja_told``): one occasion counted once beside
a present fact, a thing nearly done, how or when the old fact began, since when the old state
has held, the old plan dated, the old thing told bought, and the user's relative's own doing,
with examples written for these tests. A change told with the same words (an end, a new value,
a count made a rule, a new thing bought, a date moved, the relative named in the old memory)
is not read, and no cap reads English."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.ja_told import (
    JA_TOLD_FEATURES,
    ja_bought_kept_thing,
    ja_duration_of_old_state,
    ja_near_miss,
    ja_occasion_beside_fact,
    ja_origin_of_old_fact,
    ja_plan_dated,
    ja_relatives_doing,
)
from omoide.engine.classify.judge_signals import JUDGE_CAPS
from omoide.engine.classify.learned import judge_capped
from omoide.engine.classify.text import Sentence, parse

Cap = Callable[[Sentence, Sentence], bool]

FIRES: list[tuple[Cap, str, str]] = [
    # a no in the reason clause, one occasion in the main one
    (
        ja_occasion_beside_fact,
        "ユーザーは駅前でパン屋を営んでいる。",
        "ユーザーは、店の鍵が見つからなかったので、一度店を早く閉めた。",
    ),
    # もう before a count: one more
    (
        ja_occasion_beside_fact,
        "浩二さんは週末にいつも釣りに出かけている。",
        "浩二さんは一度、船が遅れて港でもう一晩泊まった。",
    ),
    (
        ja_near_miss,
        "ユーザーは毎朝、電車で隣町の職場に通っている。",
        "ユーザーは雪の日に、駅の階段で足を滑らせて落ちそうになった。",
    ),
    (
        ja_near_miss,
        "千尋さんは赤い手帳に予定を書いている。",
        "千尋さんは先日、赤い手帳をカフェに置き忘れかけた。",
    ),
    (
        ja_origin_of_old_fact,
        "ユーザーは市民プールで水泳教室に通っている。",
        "ユーザーは友人に誘われて、水泳教室に通うようになった。",
    ),
    (
        ja_origin_of_old_fact,
        "ユーザーは腰痛で整体に通っている。（2030年5月2日）",
        "ユーザーが腰痛になったのは、引っ越しで重い荷物を運んだころだ。（2030年9月1日）",
    ),
    (
        ja_duration_of_old_state,
        "ユーザーは毎朝ヨガをしている。",
        "ユーザーは三年前から、毎朝ヨガをしている。",
    ),
    (
        ja_plan_dated,
        "ユーザーは歯医者で定期検診を受ける予定だ。",
        "ユーザーは来月の五日に、歯医者で定期検診を受ける。",
    ),
    (
        ja_bought_kept_thing,
        "ユーザーは青い自転車で通学している。",
        "ユーザーは青い自転車を、入学祝いに去年の春に買った。",
    ),
    (
        ja_relatives_doing,
        "ユーザーは週に一度、陶芸教室に通っている。",
        "ユーザーの兄は、古いカメラを修理に出した。",
    ),
]

REFUSED: list[tuple[Cap, str, str]] = [
    # a count made a rule: a change
    (
        ja_occasion_beside_fact,
        "ユーザーは月に二回、実家に電話している。",
        "ユーザーは忙しくなったので、実家への電話を月に一回にした。",
    ),
    # the main clause's own no
    (
        ja_occasion_beside_fact,
        "ユーザーは駅前でパン屋を営んでいる。",
        "ユーザーは、体調を崩したので、一度も店を開けていない。",
    ),
    # no occasion named
    (
        ja_near_miss,
        "ユーザーは毎朝、電車で隣町の職場に通っている。",
        "ユーザーは仕事を辞めそうになった。",
    ),
    # a new value begun: the cause tells a change
    (
        ja_origin_of_old_fact,
        "ユーザーは市民プールで水泳教室に通っている。",
        "ユーザーは引っ越したので、隣町のジムに通うようになった。",
    ),
    # a new amount
    (
        ja_origin_of_old_fact,
        "ユーザーは週に二日、水泳教室に通っている。",
        "ユーザーは大会を見て、水泳教室に週に四日通うようになった。",
    ),
    # another amount since then
    (
        ja_duration_of_old_state,
        "ユーザーは毎朝ヨガを二十分している。",
        "ユーザーは三年前から、毎朝ヨガを一時間している。",
    ),
    # a clock time is no "since"
    (
        ja_duration_of_old_state,
        "ユーザーは毎朝六時から散歩をしている。",
        "ユーザーは毎晩九時から散歩をしている。",
    ),
    # the old plan already dated: another date is a move
    (
        ja_plan_dated,
        "ユーザーは来週の月曜日に歯医者で検診を受ける予定だ。",
        "ユーザーは来週の金曜日に、歯医者で検診を受ける。",
    ),
    (
        ja_plan_dated,
        "ユーザーは歯医者で定期検診を受ける予定だ。",
        "ユーザーは来月、歯医者の定期検診を延期する。",
    ),
    # another thing bought, or the old one replaced
    (
        ja_bought_kept_thing,
        "ユーザーは青い自転車で通学している。",
        "ユーザーは青い自転車を売って、赤いバイクを買った。",
    ),
    (
        ja_bought_kept_thing,
        "ユーザーは青い自転車で通学している。",
        "ユーザーは新しい青い自転車を買った。",
    ),
    # the relative named in the old memory
    (
        ja_relatives_doing,
        "ユーザーは兄と二人で暮らしている。",
        "ユーザーの兄は、大阪に部屋を借りた。",
    ),
    # the user named again in the new memory
    (
        ja_relatives_doing,
        "ユーザーは週に一度、陶芸教室に通っている。",
        "ユーザーの兄は、ユーザーの陶芸教室の作品を棚に飾った。",
    ),
]


@pytest.mark.parametrize(("cap", "old", "new"), FIRES)
def test_a_japanese_retelling_caps_the_judge(cap: Cap, old: str, new: str) -> None:
    assert cap(parse(old, "ja"), parse(new, "ja"))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(("cap", "old", "new"), REFUSED)
def test_a_japanese_change_is_not_read(cap: Cap, old: str, new: str) -> None:
    assert not cap(parse(old, "ja"), parse(new, "ja"))


def test_english_is_not_read() -> None:
    old = parse("The user rows on the canal every Sunday.", "en")
    new = parse("Three years ago the user started rowing on the canal every Sunday.", "en")
    caps = (
        ja_occasion_beside_fact,
        ja_near_miss,
        ja_origin_of_old_fact,
        ja_duration_of_old_state,
        ja_plan_dated,
        ja_bought_kept_thing,
        ja_relatives_doing,
    )
    assert not any(cap(old, new) for cap in caps)


def test_every_japanese_cap_is_a_judge_cap() -> None:
    assert set(JA_TOLD_FEATURES) <= set(JUDGE_CAPS)
