"""Dedup's prefix rule (round 23b), on probes of our own: a word on one side that stands on
the other negated by a prefix (不, 未, 非, 無, 没; 有 / 無 and 既 / 未; un-, non-, and in- or dis-
before a listed stem) is never a duplicate; the fact said twice (the plain side negated), a
word whose prefix is no negation, a one-kanji stem and an unlisted closed-prefix word are not
read."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation
from omoide.engine.classify.dedup_polarity import polarity_changed
from omoide.engine.classify.dedup_prefix import prefix_negated


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは運転免許の試験に合格した。", "ノアは運転免許の試験を受けたが不合格だった。"),
        ("ユーザーは家賃を払った。", "ユーザーは家賃が未払いだ。"),
        ("ユーザーは図書館の常勤の職員だ。", "ユーザーは図書館の非常勤の職員だ。"),
        ("ユーザーはこの仕事は経験者だ。", "ユーザーはこの仕事は未経験だ。"),
        ("ユーザーの収入は安定している。", "ユーザーの収入は不安定だ。"),
        ("ユーザーは農薬を使った野菜を買う。", "ユーザーは無農薬の野菜を買う。"),
        ("市民プールは有料だ。", "市民プールは無料だ。"),
        ("ユーザーは既婚だ。", "ユーザーは未婚だ。"),
        ("Noa has a paid internship at a museum.", "Noa has an unpaid internship at a museum."),
        ("Noa is employed at the bakery.", "Noa is unemployed since the bakery closed."),
        ("Noa is a member of the chess club.", "Noa is a non-member of the chess club."),
        ("Noa's notes are complete.", "Noa's notes are incomplete."),
        ("Noa is honest with the landlord.", "Noa is dishonest with the landlord."),
        (
            "Parking in the town centre is legal on Sundays.",
            "Parking in the town centre is illegal on Sundays.",
        ),
    ],
)
def test_a_word_negated_by_a_prefix_is_never_a_duplicate(first: str, second: str) -> None:
    assert prefix_negated(first, second) and prefix_negated(second, first)
    a, b = pair_notation(first, second)
    assert polarity_changed(a, b)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # the plain side negated: one fact said twice
        ("ノアは試験に合格しなかった。", "ノアは試験に不合格だった。"),
        ("ユーザーは家賃をまだ払っていない。", "ユーザーは家賃が未払いだ。"),
        ("市民プールは有料ではない。", "市民プールは無料だ。"),
        ("Noa is not paid for the internship.", "Noa's internship is unpaid."),
        # a prefix that is no negation, or a one-kanji stem
        ("ユーザーは不動産会社に勤めている。", "ユーザーは動産の保険を扱っている。"),
        ("ユーザーは非常に忙しい。", "ユーザーは常に忙しい。"),
        ("ユーザーは是非参加したい。", "ユーザーは参加したい。"),
        ("ユーザーは未来に日本に住みたい。", "ユーザーは日本に来た。"),
        ("ユーザーは不安だ。", "ユーザーは安い店を探す。"),
        ("Noa wears a uniform at work.", "Noa fills in a form at work."),
        ("Noa will invest in a fund.", "Noa wears a vest."),
        ("Noa wants to discover the coast.", "Noa wants to cover the coast."),
        ("Noa swims unless it rains.", "Noa swims less when it rains."),
        ("Noa works part-time.", "Noa works full-time."),
        # both words on one side
        ("ノアは合格か不合格かをまだ知らない。", "ノアは合格した。"),
    ],
)
def test_the_fact_said_twice_or_no_negating_prefix_is_not_read(first: str, second: str) -> None:
    assert not prefix_negated(first, second) and not prefix_negated(second, first)
