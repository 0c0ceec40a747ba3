"""A fact turned by meaning: a preference turned, a plan carried out, a frame made current."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import read_pair
from omoide.engine.classify.base import Relation
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.offline import classify_pair
from omoide.engine.classify.text import parse
from omoide.engine.classify.turn import TURN_FEATURES, amount_moved, turn_features

EN_WORDS = st.sampled_from(
    [
        "now",
        "likes",
        "hates",
        "plans",
        "to",
        "ran",
        "the",
        "race",
        "tea",
        "came",
        "round",
        "also",
        "never",
        "currently",
        "works",
    ]
)
JA_CHARS = st.sampled_from(list("今は最近好き嫌い苦手予定走った紅茶もにハマってる。"))
SENTENCES = st.one_of(
    st.lists(EN_WORDS, min_size=1, max_size=8).map(lambda w: " ".join(w) + "."),
    st.text(JA_CHARS, min_size=1, max_size=16),
)


def _features(old: str, new: str, lang: str) -> dict[str, float]:
    return dict(zip(TURN_FEATURES, turn_features(parse(old, lang), parse(new, lang)), strict=True))


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("Mei can't stand okra.", "Mei has come round to okra and cooks it weekly.", "en"),
        ("Tariq loves jazz.", "Tariq got tired of jazz and listens to folk.", "en"),
        ("Ines dislikes board games.", "Ines loves board games since the winter.", "en"),
        ("ユーザーはゴーヤが苦手だ", "ユーザーは最近ゴーヤにハマっている", "ja"),
        ("ユーザーは将棋が大好きだ", "ユーザーは将棋に飽きてしまった", "ja"),
    ],
)
def test_a_preference_turned(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["preference_turned"] == 1.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("Mei can't stand okra.", "Mei's brother loves okra.", "en"),  # another person
        ("Tariq loves jazz.", "Tariq also loves folk music.", "en"),  # a second liking
        ("Tariq loves jazz.", "Tariq loves jazz on vinyl most of all.", "en"),  # the same way
        ("ユーザーはゴーヤが苦手だ", "ユーザーはトマトが大好きだ", "ja"),  # nothing shared
    ],
)
def test_no_preference_turned(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["preference_turned"] == 0.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        (
            "Noor plans to run the Lisbon half marathon in October.",
            "Noor ran the Lisbon half marathon in 1:52.",
            "en",
        ),
        ("Bram is applying for a Dutch passport.", "Bram's Dutch passport was approved.", "en"),
        (
            "ユーザーは秋に富士山に登る予定だ",
            "ユーザーは富士山に登って、山頂で日の出を見た。",
            "ja",
        ),
        ("ユーザーは老人ホームへの入居を検討中", "ユーザーは5月に老人ホームに入居済み", "ja"),
    ],
)
def test_a_plan_carried_out(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["plan_carried_out"] == 1.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        # a second plan, a plan still, a different thing, a negation
        (
            "Noor plans to run the Lisbon half marathon in October.",
            "Noor plans to run the Porto marathon next year.",
            "en",
        ),
        (
            "Noor plans to run the Lisbon half marathon in October.",
            "Noor also ran the Lisbon 10k again last week.",
            "en",
        ),
        ("Bram is applying for a Dutch passport.", "Bram baked bread.", "en"),
        ("ユーザーは秋に富士山に登る予定だ", "ユーザーは富士山には登らなかった", "ja"),
        ("ユーザーは秋に富士山に登る予定だ", "ユーザーは次は北岳に登る予定だ", "ja"),
    ],
)
def test_no_plan_carried_out(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["plan_carried_out"] == 0.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("Pavel works as a bus driver.", "Pavel now works as a driving instructor.", "en"),
        ("Odile commutes by car.", "These days Odile commutes by train.", "en"),
        ("ユーザーは自転車で通勤している", "ユーザーは今は電車で通勤している", "ja"),
        ("ユーザーは家で夕食を作っている", "ユーザーは最近、夕食を毎晩外で食べている", "ja"),
    ],
)
def test_the_frame_made_current(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["now_and_different"] == 1.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("Pavel works as a bus driver.", "Pavel's sister now works as a bus driver.", "en"),
        ("Odile now commutes by car.", "Odile now commutes by car, mostly.", "en"),
        ("Odile likes films.", "Odile now also likes documentaries about films.", "en"),
        ("ユーザーは自転車で通勤している", "ユーザーの妻は今は電車で通勤している", "ja"),
        ("ユーザーは落語が好きだ", "ユーザーは最近、特に新作落語を聴いている", "ja"),
    ],
)
def test_not_the_frame_made_current(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["now_and_different"] == 0.0


def test_the_features_are_in_the_judges_row() -> None:
    text = read_pair("Tariq loves jazz.", "Tariq got tired of jazz.", lang="en")
    row = dict(zip(TEXT_FEATURES, text.features, strict=True))
    assert row[TURN_FEATURES[0]] == 1.0


@given(SENTENCES, SENTENCES)
def test_total_and_binary(old: str, new: str) -> None:
    lang = "en" if old.isascii() and new.isascii() else "ja"
    if (lang == "ja") != (not old.isascii()) or (lang == "ja") != (not new.isascii()):
        return
    values = turn_features(parse(old, lang), parse(new, lang))
    assert len(values) == len(TURN_FEATURES)
    assert all(v in (0.0, 1.0) for v in values)


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("Oskar swims 3 km a week.", "Oskar cut his swimming to 2 km a week.", "en"),
        ("The flat's rent is $900 a month.", "The flat's rent went up to $975.", "en"),
        ("Ada's team has 12 engineers.", "Ada's team is down to 9 engineers.", "en"),
        ("ユーザーは週に3回ジムに行っている", "ユーザーのジム通いは週1回に減った", "ja"),
        ("ユーザーの家賃は月8万円だ", "ユーザーの家賃が月8万5千円に上がった", "ja"),
    ],
)
def test_an_amount_moved(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["quantity_moved_to"] == 1.0
    assert amount_moved(parse(old, lang), parse(new, lang)) is not None


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        # a bound kept, a range, no number before, once as an experience, another person
        (
            "Oskar keeps his coffee under 4 cups a day.",
            "Oskar is down to 2 cups a day, well under the 4 he allows.",
            "en",
        ),
        ("Oskar can lift up to 80 kg.", "Oskar lifts up to 80 kg on a good day.", "en"),
        ("Oskar swims every week.", "Oskar cut his swimming to 2 km a week.", "en"),
        ("Ada's team has 12 engineers.", "Ada's sister's team is down to 9 engineers.", "en"),
        (
            "ユーザーの電気代は月1万円くらい",
            "ユーザーの電気代は去年、月3万円になったことがある",
            "ja",
        ),
    ],
)
def test_no_amount_moved(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["quantity_moved_to"] == 0.0


def test_the_rule_decides_the_offline_verdict() -> None:
    relation, _, _ = classify_pair(
        "ユーザーは週に3回ジムに行っている", "ユーザーのジム通いは週1回に減った", lang="ja"
    )
    assert relation is Relation.CONTRADICTORY


def test_a_plan_and_a_long_past_occasion_are_two_occasions() -> None:
    assert (
        _features(
            "Noor plans to run the Lisbon half marathon in October.",
            "Noor ran the Lisbon half marathon years ago.",
            "en",
        )["plan_carried_out"]
        == 0.0
    )
    assert (
        _features("ユーザーは秋に富士山に登る予定だ", "ユーザーは去年、富士山に登った", "ja")[
            "plan_carried_out"
        ]
        == 0.0
    )


@pytest.mark.parametrize(
    ("old", "new", "lang", "expected"),
    [
        (
            "Jonas plays in a brass band.",
            "Jonas still plays in the brass band on Tuesdays.",
            "en",
            1.0,
        ),
        ("ユーザーは駅前のジムに通っている", "ユーザーは今も駅前のジムに通っている", "ja", 1.0),
        ("Jonas still plays in a brass band.", "Jonas still plays in the brass band.", "en", 0.0),
        ("Jonas plays in a brass band.", "Mina is still learning to swim.", "en", 0.0),
    ],
)
def test_still_holds(old: str, new: str, lang: str, expected: float) -> None:
    assert _features(old, new, lang)["still_holds"] == expected
