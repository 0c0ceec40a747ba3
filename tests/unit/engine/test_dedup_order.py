"""engine.classify.dedup_order: two parts that traded places around a word are a change."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import swapped_parts


@pytest.mark.parametrize(
    ("first", "second", "found"),
    [
        (
            "The user prefers tea to coffee.",
            "The user prefers coffee to tea.",
            ("tea", "to", "coffee"),
        ),
        (
            "Would rather swim indoors than outdoors",
            "Would rather swim outdoors than indoors",
            ("indoors", "than", "outdoors"),
        ),
        ("Commutes from Nagoya to Gifu", "Commutes from Gifu to Nagoya", ("nagoya", "to", "gifu")),
        ("Works 3 days on, 4 days off", "Works 4 days on, 3 days off", ("3", "days on", "4")),
        ("ユーザーは夏より冬が好き", "ユーザーは冬より夏が好き", ("夏", "より", "冬")),
        ("京都から奈良まで自転車で行く", "奈良から京都まで自転車で行く", ("京都", "から", "奈良")),
        ("紅茶より緑茶派", "緑茶より紅茶派", ("紅", "茶より", "緑")),
        ("兄が弟を駅まで送った", "弟が兄を駅まで送った", ("兄", "が", "弟")),  # roles stayed put
    ],
)
def test_parts_traded_around_a_word_are_found(
    first: str, second: str, found: tuple[str, str, str]
) -> None:
    assert swapped_parts(first, second) == found


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user likes tea and coffee.", "The user likes coffee and tea."),
        ("Drinks hot tea or iced tea", "Drinks iced tea or hot tea"),
        ("猫と犬を飼っている", "犬と猫を飼っている"),
        ("みかんやりんごが好き", "りんごやみかんが好き"),
        ("毎朝コーヒーを飲む", "コーヒーを毎朝飲む"),  # an adjunct moved: nothing between
        ("On weekends the user goes hiking", "The user goes hiking on weekends"),
        ("Raj's wife is Anjali.", "Anjali is Raj's wife."),  # a copula: identity is symmetric
        ("On weekends the user hikes in the hills", "In the hills the user hikes on weekends"),
        (
            "back home in Taipei my parents run a bakery",
            "my parents run a bakery in Taipei, back home",
        ),  # a phrase moved to the other end
        (
            "毎朝出勤前にユーザーは5キロ走る",
            "ユーザーは出勤前に毎朝5キロ走る",
        ),  # particles moved too
        ("The user lives in Osaka.", "The user lives in Osaka."),
        ("The user lives in Osaka.", "The user lives in Kyoto."),  # other words: not a trade
    ],
)
def test_lists_moved_adjuncts_and_other_words_are_not_a_trade(first: str, second: str) -> None:
    assert swapped_parts(first, second) is None


_WORD = st.sampled_from(["tea", "coffee", "juice", "milk", "water", "soda"])


@given(_WORD, _WORD, st.sampled_from(["to", "over", "than", "before"]))
def test_a_trade_is_found_both_ways_and_never_for_one_part(x: str, y: str, word: str) -> None:
    first, second = f"prefers {x} {word} {y}", f"prefers {y} {word} {x}"
    if x == y:
        assert swapped_parts(first, second) is None
    else:
        assert swapped_parts(first, second) == (x, word, y)
        assert swapped_parts(second, first) == (y, word, x)
