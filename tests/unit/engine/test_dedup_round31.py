"""Dedup's thirty-first round, on probes of our own: in Japanese, a comma or a topic は after a
case particle, an auxiliary verb after て and a formal noun written in kana or kanji, a half of
the day said once before a clock range; a month named before 月に is not a rate. Another value
stays apart."""

from __future__ import annotations

import pytest

from omoide.engine.classify import changed_parts, pair_notation, status_changed
from omoide.engine.classify.dedup_notation import text_notation
from omoide.engine.classify.dedup_spans import topic_marked
from omoide.engine.classify.dedup_tense import tense_turned


def _alike(first: str, second: str) -> bool:
    """Nothing differs once both are read in dedup's notation."""
    return all(
        changed_parts(*pair_notation(x, y)) == ("", "")
        for x, y in ((first, second), (second, first))
    )


def _equal(first: str, second: str) -> bool:
    """The two read texts are the same string (the write path's first test)."""
    a, b = pair_notation(first, second)
    return a == b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("私は週末に図書館で本を読む。", "私は週末には図書館で本を読む。"),
        ("私は公民館で、将棋を教えている。", "私は、公民館では将棋を教えている。"),
        ("私は毎朝、川沿いを走っている。", "私は毎朝川沿いを走っている。"),
        ("健太さんは友人と釣りに行く。", "健太さんは友人とは釣りに行く。"),
    ],
)
def test_a_comma_or_a_topic_particle_after_a_case_particle_reads_alike(
    first: str, second: str
) -> None:
    assert _equal(first, second)
    assert _equal(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("私は夜は走らない。", "私は夜しか走らない。"),  # a limit, not a topic
        ("私は家で晩酌をしない。", "私は家は晩酌をしない。"),  # で replaced, not kept
        ("私は週末に図書館で本を読む。", "私は週末にも図書館で本を読む。"),  # も adds a case
        ("私は週末に図書館で本を読む。", "私は週末は図書館で本を読む。"),
    ],
)
def test_other_particles_stay_apart(first: str, second: str) -> None:
    assert not _equal(first, second)


def test_topic_marked_leaves_other_differences() -> None:
    assert topic_marked("私は東京に住む。", "私は大阪には住む。") == "私は大阪には住む。"
    assert topic_marked("私は東京に住む。", "私は東京には住む。") == "私は東京に住む。"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("私は毎週お弁当を持って行く。", "私は毎週お弁当を持っていく。"),
        ("私は帰りにパンを買って来た。", "私は帰りにパンを買ってきた。"),
        ("私は新しい料理を作って見る。", "私は新しい料理を作ってみる。"),
        ("私は前の日に服を選んで置く。", "私は前の日に服を選んでおく。"),
        ("私は夕食の後、犬の散歩に出る。", "私は夕食のあと、犬の散歩に出る。"),
        ("私は出かける前に必ず窓を閉める。", "私は出かける前にかならず窓を閉める。"),
    ],
)
def test_an_auxiliary_verb_or_a_formal_noun_in_kana_reads_alike(first: str, second: str) -> None:
    assert _alike(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("私は毎週お弁当を持って行く。", "私は毎週お弁当を持って来る。"),
        ("私は高齢者の方を担当している。", "私は高齢者のほうを担当している。"),  # 方: a person
        ("私は午後から行く。", "私は午前から行く。"),
    ],
)
def test_another_word_stays_apart(first: str, second: str) -> None:
    assert not _alike(first, second)


def test_a_half_of_the_day_covers_a_clock_range() -> None:
    assert _alike("受付は平日の午後1時から5時までだ。", "受付は平日の13時から17時までだ。")
    assert not _alike("受付は平日の午後1時から5時までだ。", "受付は平日の13時から18時までだ。")
    # a range that crosses midnight or an hour already past noon is left as it is
    assert text_notation("夜10時から2時まで") == "22時から2時まで"
    assert text_notation("午後1時から13時まで") == "13時から13時まで"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("息子は正月に三人で初詣に行った。", "私の息子は正月に3人で初詣に行った。"),
        ("私は先月に2回病院へ行った。", "私は先月に2回病院へ行った。"),
        ("私は月に二回ジムに行く。", "私は毎月2回ジムに行く。"),
    ],
)
def test_a_named_month_before_ni_is_not_a_rate(text: str, read: str) -> None:
    assert text_notation(text) == read


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("私の叔父は以前は市役所の職員だった。", "私の叔父は今も市役所の職員だ。"),
        (
            "健太さんは野球が好きで、昔は巨人のファンでした。",
            "健太さんは野球が好きで、今は巨人のファンです。",
        ),
    ],
)
def test_a_noun_predicate_turned_past_with_a_word_added_is_a_status(
    first: str, second: str
) -> None:
    a, b = pair_notation(first, second)
    assert tense_turned(a, b)
    assert status_changed(a, b)


def test_a_noun_predicate_at_one_tense_is_no_turn() -> None:
    a, b = pair_notation("私の叔父は市役所の職員だった。", "私の叔父は以前、市役所の職員だった。")
    assert not tense_turned(a, b)
    a, b = pair_notation("私の叔父は市役所の職員だ。", "私の叔父は今、市役所の職員だ。")
    assert not tense_turned(a, b)
