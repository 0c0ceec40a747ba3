"""Session 35's name signals: a name or form of address said again with another value
(``name_swap.name_swapped``) or told changed (``name_change.name_changed_to``), both sure
closes (``learned.SURE_ONLY``), and the old name told about again (``name_told.old_name_told``,
``EXTEND_ONLY``). Probes written for these tests, in English and Japanese."""

from __future__ import annotations

import pytest

from omoide.engine.classify import names_differ, read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import EXTEND_ONLY, SURE_ONLY, extends, sure_close
from omoide.engine.classify.name_change import name_changed_to
from omoide.engine.classify.name_swap import name_swapped
from omoide.engine.classify.name_told import old_name_told
from omoide.engine.classify.text import parse


def _swapped(old: str, new: str) -> bool:
    return name_swapped(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user's nephews call her Auntie Bee.", "The user's nephews call her Aunt Rosa."),
        ("Marcus wants to be called Marc at school.", "Marcus wants to be called Mack at school."),
        ("The user's surname is spelled Thomson.", "The user's surname is spelled Tomsen."),
        ("Ravi goes by Ravi-ji at the temple.", "Ravi goes by Uncle at the temple."),
        ("教え子たちは僕を「ヤマ先生」と呼ぶ。", "教え子たちは僕を「山田さん」と呼ぶ。"),
        (
            "ユーザーの名字「東海林」は「しょうじ」と読む。",
            "ユーザーの名字「東海林」は「とうかいりん」と読む。",
        ),
        ("メモ：娘のあだ名は「ぴょん」。", "メモ：娘のあだ名は「ぴょんた」。"),
        (
            "ユーザーは名前の表記を「真理」にしている。",
            "ユーザーは名前の表記を「まり」にしている。",
        ),
    ],
)
def test_a_name_said_again_with_another_closes(old: str, new: str) -> None:
    assert _swapped(old, new)
    assert sure_close(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a context, not the name, differs: two facts
        ("The user is called Jules at work.", "The user is called Julie at home."),
        # an addition, or a name made longer with a second word
        ("Friends call him Sandy.", "Friends also call him Sands."),
        ("The grandchildren call her Gran.", "The grandchildren call her Gran Maggie."),
        # one name written apart
        ("The user is called Anne-Marie at work.", "The user is called Anne Marie at work."),
        # another person
        ("妹は「みっこ」と呼ばれている。", "弟は「みっくん」と呼ばれている。"),
        # one spoken name in another script, with nothing about how it is written
        ("娘の名前は「あかり」だ。", "娘の名前は「明里」だ。"),
        ("兄は「タク」と呼ばれている。", "兄は「たく」と呼ばれている。"),
        # an occasion, an addition
        ("先生は私を「ユミ」と呼んだ。", "先生は私を「ユミコ」と呼んだ。"),
        ("祖母は私を「お嬢」と呼ぶ。", "祖母は私を「お嬢」とも「姫」とも呼ぶ。"),
    ],
)
def test_not_a_name_swap(old: str, new: str) -> None:
    assert not _swapped(old, new)


def test_a_respelt_name_is_a_value_changed() -> None:
    # every run of two characters is shared, yet the name differs: not "wording only"
    old, new = "メモ：ローマ字は「SHOUJI」。", "メモ：ローマ字は「SHOJI」。"
    assert sure_close(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user's niece calls him Uncle Bob.",
            "The user's niece has started calling him Bobby.",
        ),
        ("The user's hamster is named Peanut.", "The user renamed the hamster Cashew."),
        ("Dana goes by Dee at the club.", "Dana now goes by Danielle at the club."),
        (
            "生徒たちは私を「まっちゃん」と呼ぶ。",
            "生徒たちが最近、私を「松本先生」と呼ぶようになった。",
        ),
        (
            "ユーザーはブログでは「ころ」と名乗っている。",
            "ユーザーはブログの名前を「ころすけ」に変えた。",
        ),
    ],
)
def test_a_name_told_changed(old: str, new: str) -> None:
    assert name_changed_to(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a person the old memory does not name
        ("The grandchildren call her Nana.", "The neighbour's boy has started calling her Auntie."),
        ("孫たちは私を「ばあば」と呼ぶ。", "近所の子が私を「おばちゃん」と呼ぶようになった。"),
        # the value is the old one, or a plan, or said as well
        ("Dana goes by Dee at the club.", "Dana now goes by Dee at work too."),
        ("母は旧姓の「上田」に戻すつもりだ。", "母は旧姓の「上田」に戻したいと言っている。"),
    ],
)
def test_not_a_name_told_changed(old: str, new: str) -> None:
    assert not name_changed_to(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new", "told"),
    [
        (
            'The user\'s brother calls her "Moth".',
            "The nickname Moth comes from her night shifts.",
            True,
        ),
        (
            "孫たちは私を「ばあば」と呼ぶ。",
            "「ばあば」と呼ばれるのは、孫が最初にそう言ったからだ。",
            True,
        ),
        # another person who has the same name: another fact
        ("息子は「タケ」と呼ばれている。", "甥も「タケ」と呼ばれている。", False),
        (
            "The user's dog is called Pepper.",
            "The user's neighbour's dog is called Pepper as well.",
            False,
        ),
    ],
)
def test_the_old_name_told_again(old: str, new: str, told: bool) -> None:
    assert old_name_told(parse(old), parse(new)) is told


def test_the_signals_are_wired() -> None:
    for name in ("name_swapped", "name_changed_to"):
        assert name in SURE_ONLY and name in TEXT_FEATURES
    assert "old_name_told" in EXTEND_ONLY and "old_name_told" in TEXT_FEATURES
    text = read_pair(
        "孫たちは私を「ばあば」と呼ぶ。", "「ばあば」と呼ばれるのは、孫が最初にそう言ったからだ。"
    )
    assert extends(text)


@pytest.mark.parametrize(
    ("first", "second", "differ"),
    [
        # dedup reads the texts as written: a respelt name is no paraphrase
        ("The user's married name is Fairley.", "The user's married name is Fairleigh.", True),
        (
            "ユーザーは店の屋号を「こもれび」にしている。",
            "ユーザーは屋号を「こもれび」から「ひだまり」に変えた。",
            True,
        ),
        # one spoken name in another script, or a plain paraphrase: dedup decides as before
        ("娘の名前は「あかり」だ。", "娘の名前は「明里」だ。", False),
        ("The user's friends call her Bea.", "Her friends call the user Bea.", False),
    ],
)
def test_names_differ_for_dedup(first: str, second: str, differ: bool) -> None:
    assert names_differ(first, second) is differ
    assert names_differ(second, first) is differ


def test_a_name_told_now_written_in_another_script() -> None:
    old, new = (
        "ユーザーの名前は「真理」だ。",
        "ユーザーは名前を「まり」とひらがなで書くようになった。",
    )
    assert name_changed_to(parse(old), parse(new))
    assert names_differ(old, new)
