"""Dedup's Japanese polarity rule: a predicate denied on one side only, a denial widened or
narrowed, a favour turned around are changed facts; a negation said with another word, a
favour said in another voice and the same polarity in other endings are not."""

from __future__ import annotations

import pytest

from omoide.engine.classify import polarity_changed


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param("姉は週末は映画を見ない。", "姉は週末も映画を見る。", id="one-kanji-stem"),
        pytest.param(
            "父は夜は何も飲まないようにしている。",
            "父は夜もたまに飲むことがある。",
            id="godan-habit",
        ),
        pytest.param("兄は家では料理をしない。", "兄は家でも料理をする。", id="suru"),
        pytest.param("母は朝は起きられない。", "母は朝は起きられる。", id="potential"),
        pytest.param(
            "祖父は鶏肉は食べないが、卵は食べる。",
            "祖父は鶏肉も卵も食べない。",
            id="denial-widened",
        ),
        pytest.param(
            "弟はビールは飲まない（ワインは飲む）。",
            "弟はビールもワインも飲まない。",
            id="denial-widened-brackets",
        ),
        pytest.param(
            "私は友人に車を直してもらった。", "私は友人の車を直した。", id="favour-turned"
        ),
    ],
)
def test_a_changed_polarity_is_a_change(first: str, second: str) -> None:
    assert polarity_changed(first, second) and polarity_changed(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param("兄はお酒が飲めない。", "兄は下戸だ。", id="negation-said-by-a-word"),
        pytest.param("父はたばこを吸わない。", "父はたばこをやめた。", id="lexical-negation"),
        pytest.param("姉は映画を見ない。", "姉は映画を見ません。", id="politeness"),
        pytest.param(
            "祖母が私に裁縫を教えてくれた。",
            "私は祖母に裁縫を教わった。",
            id="favour-in-another-voice",
        ),
        pytest.param(
            "先輩が資料を送ってくれた。", "先輩に資料を送ってもらった。", id="favour-both-sides"
        ),
        pytest.param(
            "母は肉は食べないが、魚は食べる。",
            "母は魚は食べるが、肉は食べない。",
            id="contrast-both-sides",
        ),
        # (English "does not eat pork" / "eats pork" is a change since session 35:
        # dedup_en_turns, test_dedup_round35.py)
        pytest.param(
            "The user does not eat pork.", "The user never eats beef.", id="english-other-words"
        ),
    ],
)
def test_the_same_polarity_is_no_change(first: str, second: str) -> None:
    assert not polarity_changed(first, second) and not polarity_changed(second, first)
