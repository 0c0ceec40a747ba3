"""Session 48: the user's own people said with or without 私の / うちの read alike (dedup's
Japanese notation, ``dedup_ja_frames``)."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation
from omoide.engine.classify.dedup_ja_frames import ja_frames


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("兄の和也はマラソンに出た。", "私の兄の和也はマラソンに出た。"),
        ("うちの祖母はブラジル生まれだ。", "祖母はブラジル生まれだ。"),
        ("父は定年後に尺八を始めた。", "私の父は定年後に尺八を始めた。"),
        ("娘はうちの犬と遊ぶ。", "娘は私の犬と遊ぶ。"),
    ],
)
def test_the_users_own_people_with_or_without_an_owner_read_alike(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a == b or a.rstrip("。") == b.rstrip("。")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("義母は孫が来ると菓子を買う。", "夫の母は孫が来ると菓子を買う。"),  # another owner
        ("母の日にタルトを注文した。", "私の母の日にタルトを注文した。"),  # a day
        ("リサの妹は走る。", "私の妹は走る。"),  # another owner
        ("彼女は走る。", "私の彼女は走る。"),  # she, not the user's
    ],
)
def test_another_owner_or_not_a_person_stays_apart(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a != b


def test_own_people_written_with_the_user() -> None:
    assert ja_frames("妹のリサは、来る。") == "私の妹のリサは来る。"
    assert ja_frames("彼氏の悠斗は寝言が多い") == "私の彼氏の悠斗は寝言が多い"
    assert ja_frames("義母は来る") == "私の義母は来る"  # not 義 + 母
    assert ja_frames("祖母、ブラジル生まれ") == "私の祖母、ブラジル生まれ"
    assert ja_frames("母校の大学") == "母校の大学"
