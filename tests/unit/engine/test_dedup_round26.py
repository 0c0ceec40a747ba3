"""Dedup's twenty-sixth round (round 23), on probes of our own ("Noa" / ノア, "リサ"): a person
named beside the user's relation in another Japanese frame, an everyday verb, noun or adverb
written in kanji or in hiragana, and 今は / 現在 with a topic は on one side only, read alike;
another relation, another name, another verb or word, and a kanji compound stay apart; how
often said with words of another meaning is never a duplicate, one meaning in two wordings or
a frequency on one side only is not read."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation
from omoide.engine.classify.dedup_frequency import frequency_changed
from omoide.engine.classify.dedup_ja_frames import ja_frames
from omoide.engine.classify.dedup_polarity import polarity_changed


def _alike(first: str, second: str) -> bool:
    a, b = pair_notation(first, second)
    c, d = pair_notation(second, first)
    return a == b and c == d


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーの妹のリサさんは司書だ。", "リサさんはユーザーの妹で、司書だ。"),
        ("ユーザーの妹のリサさんは司書だ。", "リサさん(ユーザーの妹)は司書だ。"),
        ("私の上司の森課長は、締め切りに厳しい。", "森課長は私の上司で、締め切りに厳しい。"),
        ("私の息子の陸は高校の二年生だ。", "陸は私の息子で、高校の二年生だ。"),
        ("私の犬のモモは十歳だ。", "モモ（私の犬）は十歳だ。"),
    ],
)
def test_a_person_named_beside_the_relation_reads_alike(first: str, second: str) -> None:
    assert _alike(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーの妹のリサさんは司書だ。", "リサさんはユーザーの姉で、司書だ。"),
        ("ユーザーの妹のリサさんは司書だ。", "ミナさんはユーザーの妹で、司書だ。"),
        ("私の息子の陸は高校の二年生だ。", "陸は私の息子で、高校の三年生だ。"),
    ],
)
def test_another_relation_name_or_value_stays_apart(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a != b and find_dedup_change(a, b) is not None


def test_the_frame_is_read_only_where_it_opens_the_text() -> None:
    text = "昨日、リサさんは私の妹で、と話した。"
    assert ja_frames(text) == text
    assert ja_frames("私は私の妹で、") == "私は私の妹で、"  # 私 is not a name
    assert ja_frames("リサさんは私の担当で、来る。") == "リサさんは私の担当で、来る。"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは毎朝ビタミン剤を一錠飲んでいる。", "ノアは毎朝ビタミン剤を一錠のんでいる。"),
        ("ノアは週末に木の椅子を作っている。", "ノアは週末に木の椅子をつくっている。"),
        ("ノアは寝る前に歯を磨く。", "ノアはねる前に歯をみがく。"),
        ("ノアは日曜に部屋の掃除をする。", "ノアは日曜に部屋のそうじをする。"),
        ("ノアは主に週末に働いている。", "ノアはおもに週末に働いている。"),
        ("ノアは冬は薬が手放せない。", "ノアは冬はくすりが手放せない。"),
        ("ノアは料理の時は手袋をする。", "ノアは料理のときは手ぶくろをする。"),
    ],
)
def test_an_everyday_word_in_kanji_or_kana_reads_alike(first: str, second: str) -> None:
    assert _alike(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは作家として働いている。", "ノアはつくりてとして働いている。"),  # 作家 is not 作る
        ("ノアは点鼻薬を使っている。", "ノアはくすりを使っている。"),  # a compound, not 薬
        ("ノアは毎朝7時に起きる。", "ノアは毎朝ときどき起きる。"),  # 7時 is a clock
        ("ノアは毎朝ビタミン剤を一錠飲んでいる。", "ノアは毎朝ビタミン剤を一錠もらっている。"),
    ],
)
def test_another_word_or_a_compound_stays_apart(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a != b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは町内会の役員で、今は二期目だ。", "ノアは町内会の役員で、現在二期目だ。"),
        ("ノアは今は横浜に住んでいる。", "ノアは現在横浜に住んでいる。"),
    ],
)
def test_now_with_or_without_a_topic_reads_alike(first: str, second: str) -> None:
    assert _alike(first, second)


def test_another_time_word_stays_apart() -> None:
    a, b = pair_notation("ノアは今は横浜に住んでいる。", "ノアは以前横浜に住んでいた。")
    assert a != b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa works night shifts on alternate weekends.", "Noa works night shifts every weekend."),
        ("Noa sometimes walks to the office.", "Noa usually walks to the office."),
        ("Noa visits the market every week.", "Noa visits the market every month."),
        ("ノアは仕事で島に渡ることもある。", "ノアは仕事で島に毎日渡っている。"),
        ("ノアは大会のたびに受付を手伝っている。", "ノアは前回の大会で初めて受付を手伝った。"),
        ("ノアはいつも駅まで歩く。", "ノアはたまに駅まで歩く。"),
    ],
)
def test_how_often_said_with_another_meaning_is_never_a_duplicate(first: str, second: str) -> None:
    assert frequency_changed(first, second) and frequency_changed(second, first)
    assert polarity_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa always takes the stairs.", "Noa takes the stairs every time."),  # one meaning
        ("Noa never drives at night.", "Noa always takes a taxi at night."),  # the polarity's
        ("Noa swims every day, and sometimes twice.", "Noa swims every day."),  # one side adds
        ("Noa swims every day.", "Noa swims before work."),  # one side only
        ("ノアは毎年三月一日に必ず山に行く。", "ノアは三月一日には毎年欠かさず山に行く。"),
        ("ノアは毎朝コーヒーを飲む。", "ノアは毎日朝にコーヒーを飲む。"),
        ("ノアはよく眠れる。", "ノアはときどき眠れない。"),  # よく is not read
    ],
)
def test_one_frequency_or_a_frequency_on_one_side_is_not_read(first: str, second: str) -> None:
    assert not frequency_changed(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは危険物取扱者の乙種を持っている。", "ノアは危険物取扱者の乙種を取得している。"),
        ("ノアは市の合唱団に入っている。", "ノアは市の合唱団に所属している。"),
        ("ノアは毎月、町内の清掃に参加している。", "ノアは毎月、町内の清掃に出ている。"),
        ("ノアは去年、銀行を退職した。", "ノアは去年、銀行を辞めた。"),
    ],
)
def test_a_held_licence_membership_attendance_or_leaving_said_otherwise_reads_alike(
    first: str, second: str
) -> None:
    assert _alike(first, second)


def test_another_group_or_year_stays_apart_after_the_synonyms() -> None:
    a, b = pair_notation("ノアは市の合唱団に入っている。", "ノアは県の合唱団に所属している。")
    assert a != b and find_dedup_change(a, b) is not None
    a, b = pair_notation("ノアは去年、銀行を退職した。", "ノアは今年、銀行を辞めた。")
    assert a != b
