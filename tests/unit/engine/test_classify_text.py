"""Reading one memory for the offline classifier: owner, stance, past occasions, language."""

from __future__ import annotations

import pytest

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.text import USER, cue, parse
from omoide.engine.lang import detect_lang


@pytest.mark.parametrize(
    ("text", "owner"),
    [
        pytest.param("User's younger sister, Emma, is a nurse.", "younger sister", id="en-sister"),
        pytest.param("My cousin works in Denver.", "cousin", id="en-my-cousin"),
        pytest.param("Haru said its favorite season is autumn.", "haru", id="en-persona-name"),
        pytest.param("Lately User has been reading novels.", USER, id="en-adverb-first"),
        pytest.param("User's electric bike is red.", USER, id="en-users-thing"),
        pytest.param("ユーザーの父は元教師", "父", id="ja-father"),
        pytest.param("ハルはユーザーを名前で呼ぶ", "ハル", id="ja-persona-name"),
        pytest.param("最近のユーザーは特にジャズが好き", USER, id="ja-user-after-modifier"),
        pytest.param("ユーザーのハムスターはジャンガリアン", "ハムスター", id="ja-pet"),
        pytest.param("ユーザーの夫の母は料理の先生", "夫の母", id="ja-chain"),
        pytest.param("User's father-in-law likes fishing.", "father-in-law", id="en-in-law"),
        pytest.param("User's husband's mother is a chef.", "husband's mother", id="en-chain"),
        pytest.param("User's car is a red Toyota.", USER, id="en-users-car"),
        pytest.param("私の実家では犬を飼っている", "実家", id="ja-family-home"),
    ],
)
def test_parse_finds_whose_fact_it_is(text: str, owner: str) -> None:
    assert parse(text).owner == owner


@pytest.mark.parametrize(
    ("text", "negative"),
    [
        pytest.param("User doesn't like horror movies.", True, id="en-doesnt-like"),
        pytest.param("User can't stand olives.", True, id="en-cant-stand"),
        pytest.param("User loves olives.", False, id="en-loves"),
        pytest.param("ユーザーは運動が苦手", True, id="ja-nigate"),
        pytest.param("ユーザーは甘いお菓子にも目がない", False, id="ja-me-ga-nai-idiom"),
        pytest.param("私はもうタバコは吸っていない", True, id="ja-nai"),
    ],
)
def test_parse_reads_the_stance(text: str, negative: bool) -> None:
    assert parse(text).negative is negative


@pytest.mark.parametrize(
    ("text", "past"),
    [
        pytest.param("User ran the Chicago Marathon in 2022.", True, id="en-race"),
        pytest.param("User's first car was a Corolla.", True, id="en-first-car"),
        pytest.param("User asked Haru to speak casually.", False, id="en-standing-request"),
        pytest.param("User adopted a second cat.", False, id="en-lasting-result"),
        pytest.param("ユーザーは去年京都で紅葉を見た", True, id="ja-trip"),
        pytest.param("ユーザーは社交ダンスを始めた", False, id="ja-started"),
    ],
)
def test_parse_marks_finished_past_occasions(text: str, past: bool) -> None:
    assert parse(text).past_occasion is past


def test_detect_lang_uses_the_script() -> None:
    assert (detect_lang("User likes tea."), detect_lang("ユーザーはお茶が好き")) == ("en", "ja")


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("契約を解消した。", True),
        ("会社を退職した。", True),
        ("旅行は中止。", True),
        ("卒業後に上京した。", True),  # after graduating: the graduation happened
        ("ダンスはストレス解消法だ。", False),  # a method, not an ending
        ("卒業式に出た。", False),  # a ceremony
        ("退職金で車を買った。", False),  # a payment
    ],
)
def test_a_japanese_end_noun_heading_a_compound_is_no_end_cue(text: str, ends: bool) -> None:
    assert cue(lex.STOPPED, parse(text, "ja")) is ends
