"""Dedup's veto: a near-copy that adds or changes a value is kept; a restatement is dropped.

None of these sentences is in the dedup sets under ``bench/data``; ``bench/dedup.py`` measures
the veto there, these tests pin its behaviour case by case and its properties.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import ChangeKind, find_dedup_change, find_value_change


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "The user plays tennis with Marco.",
            "Marco and the user play tennis together.",
            id="en-word-order",
        ),
        pytest.param(
            "The user's rent is 1,250 euros a month.",
            "The user pays €1250 in rent every month.",
            id="en-number-notation",
        ),
        pytest.param(
            "The user's gym class starts at 18:00.",
            "The user's gym class starts at 6 pm.",
            id="en-clock-notation",
        ),
        pytest.param(
            "The user has known Dana for a decade.",
            "The user has known Dana for 10 years.",
            id="en-decade",
        ),
        pytest.param(
            "Vet appointment on 9 Mar.",
            "The vet appointment is on March 9.",
            id="en-short-month-after-day",
        ),
        pytest.param(
            "The user wants to pay no more than $50 for the lamp.",
            "The user's budget for the lamp is $50 at most.",
            id="en-bound-in-other-words",
        ),
        pytest.param(
            "The user studied at MIT.",
            "The user studied at the Massachusetts Institute of Technology.",
            id="en-acronym-spelled-out",
        ),
        pytest.param(
            "ユーザーの家賃は月7万2千円", "ユーザーの家賃は毎月72,000円だ", id="ja-man-sen-and-rate"
        ),
        pytest.param(
            "ユーザーは週4回プールに通う", "ユーザーは毎週4回プールに通っている", id="ja-week-rate"
        ),
        pytest.param(
            "ユーザーは平成30年に結婚した", "ユーザーは2018年に結婚した", id="ja-era-year"
        ),
        pytest.param(
            "ユーザーは毎晩10時半に寝る", "ユーザーは毎晩10:30に寝ます", id="ja-half-past"
        ),
        pytest.param(
            "ユーザーは東京に住んでいる", "ユーザーは東京に住んでいます", id="ja-politeness"
        ),
        pytest.param("ユーザーはりんごが好き", "ユーザーはリンゴが好き", id="ja-kana-spelling"),
        pytest.param(
            "ユーザーは子供と公園に行く",
            "ユーザーは子どもと公園に行く",
            id="ja-one-kanji-respelled-in-kana",
        ),
    ],
)
def test_a_restatement_is_a_duplicate(old: str, new: str) -> None:
    assert find_dedup_change(old, new) is None
    assert find_dedup_change(new, old) is None


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        pytest.param(
            "The user bought a new bike.",
            "The user bought a new bike for $600.",
            ChangeKind.NUMBER,
            id="en-adds-a-price",
        ),
        pytest.param(
            "The user walks the dog every evening.",
            "The user walks the dog every Sunday evening.",
            ChangeKind.TIME,
            id="en-adds-a-weekday",
        ),
        pytest.param(
            "The user sleeps at least seven hours.",
            "The user sleeps at most seven hours.",
            ChangeKind.NUMBER,
            id="en-bound-flipped",
        ),
        pytest.param(
            "The user's flight leaves at 7:15 am.",
            "The user's flight leaves at 7:15 pm.",
            ChangeKind.NUMBER,
            id="en-am-pm",
        ),
        pytest.param(
            "The user waters the plants daily.",
            "The user waters the plants every other day.",
            ChangeKind.NUMBER,
            id="en-every-other-day",
        ),
        pytest.param(
            "The user orders an oat latte.",
            "The user orders a soy latte.",
            ChangeKind.NAME,
            id="en-article-follows-the-swapped-word",
        ),
        pytest.param(
            "ユーザーの家賃は月7万2千円",
            "ユーザーの家賃は月7万円",
            ChangeKind.NUMBER,
            id="ja-man-sen-changed",
        ),
        pytest.param(
            "ユーザーは毎朝卵を一個食べる",
            "ユーザーは毎朝卵を二個食べる",
            ChangeKind.NUMBER,
            id="ja-kanji-counter",
        ),
        pytest.param(
            "ユーザーは週末に一斤焼く",
            "ユーザーは週末に三斤焼く",
            ChangeKind.NUMBER,
            id="ja-unlisted-counter",
        ),
        pytest.param(
            "ユーザーの図書館は夜9時まで",
            "ユーザーの図書館は夜9時から",
            ChangeKind.NUMBER,
            id="ja-until-from",
        ),
        pytest.param(
            "ユーザーの担当医は田中先生",
            "ユーザーの担当医は田村先生",
            ChangeKind.NAME,
            id="ja-one-kanji-of-a-surname",
        ),
        pytest.param(
            "ユーザーは朝食にみかんを食べる",
            "ユーザーは朝食にキウイを食べる",
            ChangeKind.NAME,
            id="ja-kana-word-swapped",
        ),
        pytest.param(
            "ユーザーは昼にうどんを食べる",
            "ユーザーは昼に蕎麦を食べる",
            ChangeKind.NAME,
            id="ja-word-swapped-across-scripts",
        ),
        pytest.param(
            "ユーザーの引っ越しは来週",
            "ユーザーの引っ越しは再来週",
            ChangeKind.NUMBER,
            id="ja-week-after-next",
        ),
        pytest.param(
            "The user has two cats.",
            "The user has three cats.",
            ChangeKind.NUMBER,
            id="replaced-value-as-the-classifier-reads-it",
        ),
    ],
)
def test_a_near_copy_with_a_value_is_kept(old: str, new: str, kind: ChangeKind) -> None:
    change = find_dedup_change(old, new)
    assert change is not None and change.kind is kind
    assert find_dedup_change(new, old) is not None


_SENTENCES = st.sampled_from(
    [
        "The user has 2 dogs.",
        "The user has two dogs.",
        "The user has 3 dogs.",
        "The user runs at least 5 km.",
        "The user runs at most 5 km.",
        "The user runs 5 km.",
        "ユーザーは月8万円払う",
        "ユーザーは毎月80,000円払う",
        "ユーザーは月8万5千円払う",
        "ユーザーの先生は山田さん",
        "ユーザーの先生は山本さん",
        "ユーザーは9時から働く",
        "ユーザーは9時まで働く",
        "The user leaves at 8 am.",
        "The user leaves at 8 pm.",
    ]
)


@given(_SENTENCES, _SENTENCES)
def test_the_veto_is_symmetric(first: str, second: str) -> None:
    assert (find_dedup_change(first, second) is None) == (find_dedup_change(second, first) is None)


@pytest.mark.parametrize("numeral", ["1" * 400 + "万", "一" * 400 + "人", "9" * 400])
def test_a_numeral_too_long_for_a_float_is_no_number(numeral: str) -> None:
    text = f"ユーザーのメモは{numeral}だ"
    assert find_dedup_change(text, text + "。") is None
    assert find_value_change(text, text + "。") is None


@given(st.text(max_size=60))
def test_a_statement_is_a_duplicate_of_itself(text: str) -> None:
    assert find_dedup_change(text, text) is None
