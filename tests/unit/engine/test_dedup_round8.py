"""The eighth dedup round's notation rules: one reading for numerals, clocks, particles,
acronyms, hyphens and fillers; the part of the day read as a word of its own."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation
from omoide.engine.classify.dedup_number_notation import one_notation
from omoide.engine.classify.dedup_scope import scope_changed
from omoide.engine.classify.dedup_status import status_families


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("犬を三匹と十歳の猫", "犬を3匹と10歳の猫", id="kanji-counts"),
        pytest.param("毎日七キロ泳ぐ", "毎日7キロ泳ぐ", id="kilo"),
        pytest.param("四月九日", "4月9日", id="month"),
        pytest.param("十分に寝た", "十分に寝た", id="enough-is-no-ten-minutes"),
        pytest.param("一時的に休む", "一時的に休む", id="ichiji-is-a-while"),
        pytest.param("午後4時に帰る", "16時に帰る", id="gogo"),
        pytest.param("朝七時に出る", "7時に出る", id="asa"),
        pytest.param("友達が一人もいない", "友達がいない", id="not-a-single-one"),
        pytest.param("on the fifteenth floor", "on the 15th floor", id="ordinal"),
        pytest.param("her thirty-second birthday", "her 32nd birthday", id="compound-ordinal"),
        pytest.param("a second-hand bike", "a used bike", id="second-hand-is-used"),
        pytest.param("leaves at 7:20 pm", "leaves at 19:20", id="pm"),
        pytest.param("up at five in the morning", "up at 5", id="in-the-morning"),
        pytest.param("home by eleven at night", "home by 23", id="at-night"),
        pytest.param("lunch at half past two", "lunch at 2:30", id="half-past"),
        pytest.param("has not once flown", "has never flown", id="not-once"),
        pytest.param("swims 4x a week", "swims 4 times a week", id="times"),
        pytest.param("takes the 7.45 ferry", "takes the 7:45 ferry", id="dotted-clock"),
        pytest.param("rose by 2.50 dollars", "rose by 2.50 dollars", id="a-decimal-stays"),
        pytest.param("moved in Sept 2021", "moved in September 2021", id="month-before-year"),
        pytest.param("毎朝6時に起きる", "毎朝6時に起きる", id="every-morning-keeps-asa"),
        pytest.param("夜10時に寝る", "22時に寝る", id="yoru"),
    ],
)
def test_one_notation_reads_numbers_and_clocks_one_way(text: str, expected: str) -> None:
    assert one_notation(text) == expected


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user gets up at 7 a.m.", "The user wakes at seven in the morning."),
        ("The train leaves at 8:10 pm.", "The train leaves at 20:10."),
        ("ユーザーには兄弟がいない。", "ユーザーには兄弟が一人もいない。"),
        ("The user has never skied.", "The user has not once skied."),
        ("The user lives on the 9th floor.", "The user lives on the ninth floor."),
    ],
)
def test_the_same_value_written_otherwise_is_no_value_change(first: str, second: str) -> None:
    change = find_dedup_change(*pair_notation(first, second))
    assert change is None or change.kind.value not in ("number", "time")


def test_a_clock_in_the_other_half_of_the_day_still_changes() -> None:
    change = find_dedup_change(*pair_notation("The user jogs at 6 am.", "The user jogs at 6 pm."))
    assert change is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param("ユーザーはピアノが弾ける。", "ユーザーはピアノを弾ける。", id="ga-wo"),
        pytest.param("ユーザーの兄が来月結婚する。", "ユーザーの兄は来月結婚する。", id="ga-wa"),
        pytest.param("ユーザーは花粉症がある。", "ユーザーには花粉症がある。", id="niwa-wa"),
        pytest.param(
            "The user works for the WHO.",
            "The user works for the World Health Organization.",
            id="acronym",
        ),
        pytest.param(
            "The user studies computer science.", "The user studies CS.", id="acronym-lower"
        ),
        pytest.param(
            "The user is a part-time barista.",
            "The user is a parttime barista.",
            id="hyphen-joined",
        ),
        pytest.param("The user is left-handed.", "The user is left handed.", id="hyphen-spaced"),
        pytest.param("The user keeps bees.", "Basically, the user keeps bees.", id="filler"),
        pytest.param(
            "The user is learning Welsh.", "The user is currently learning Welsh.", id="currently"
        ),
        pytest.param("ユーザーは蕎麦が好きだ。", "実は、ユーザーは蕎麦が好きだ。", id="jitsuwa"),
        pytest.param(
            "The user grew up in St. Albans.", "The user grew up in Saint Albans.", id="saint"
        ),
        pytest.param("ユーザーは毎週20キロ歩く。", "ユーザーは毎週20km歩く。", id="kilo-as-km"),
        pytest.param("ユーザーは3キロ痩せた。", "ユーザーは3kg痩せた。", id="kilo-as-kg"),
    ],
)
def test_pair_notation_reads_one_statement_one_way(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a == b


def test_kilo_stays_when_the_other_text_holds_another_number() -> None:
    _, b = pair_notation("ユーザーは3kg痩せた。", "ユーザーは5キロ痩せた。")
    assert "キロ" in b


def test_two_particle_swaps_that_trade_roles_stay_apart() -> None:
    a, b = pair_notation("兄が弟を起こした。", "兄を弟が起こした。")
    assert a != b


def test_an_acronym_that_the_other_side_does_not_spell_stays() -> None:
    a, b = pair_notation("The user works for the WHO.", "The user works for a hospital.")
    assert "WHO" in a and "WHO" not in b


@pytest.mark.parametrize(
    ("first", "second", "changed"),
    [
        pytest.param("ユーザーは朝食を抜く", "ユーザーは抜く", False, id="breakfast-is-a-meal"),
        pytest.param("ユーザーは今夜出かける", "ユーザーは出かける", False, id="tonight-is-a-date"),
        pytest.param("ユーザーは夕刊を読む", "ユーザーは新聞を読む", False, id="evening-paper"),
        pytest.param("ユーザーは夜は走らない", "ユーザーは走らない", True, id="at-night"),
        pytest.param("ユーザーは毎朝泳ぐ", "ユーザーは泳ぐ", True, id="every-morning"),
    ],
)
def test_a_part_of_the_day_is_a_word_of_its_own(first: str, second: str, changed: bool) -> None:
    assert scope_changed(first, second) is changed


@pytest.mark.parametrize(
    ("text", "ended"),
    [
        ("The user quit the choir.", True),
        ("The user is not going to quit the choir.", False),
        ("The user's concert was postponed.", True),
        ("The user will not postpone the concert.", False),
    ],
)
def test_status_reads_the_end_cues_once(text: str, ended: bool) -> None:
    assert ("ended" in status_families(text)) is ended


def test_a_filler_word_used_as_a_content_word_stays() -> None:
    a, b = pair_notation("ユーザーは正直な人だ。", "ユーザーは誠実な人だ。")
    assert "正直" in a
    a, b = pair_notation("正直、ユーザーは辛い物が苦手だ。", "ユーザーは辛い物が苦手だ。")
    assert a == b
