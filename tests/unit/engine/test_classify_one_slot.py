"""One slot of a statement filled again: which frame the two memories share decides."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import Relation, read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.offline import classify_pair
from omoide.engine.classify.one_slot import (
    ONE_SLOT_FEATURES,
    one_slot,
    one_slot_features,
    state_replaced,
)
from omoide.engine.classify.text import parse

EN_WORDS = st.sampled_from(
    [
        "the",
        "user",
        "lives",
        "in",
        "Tokyo",
        "Osaka",
        "visited",
        "also",
        "sister's",
        "works",
        "at",
        "a",
        "is",
        ":",
        "never",
        "plans",
        "to",
    ]
)
JA_CHARS = st.sampled_from(list("ユーザーは東京大阪に住んでいる行った予定の姉兄もだ。：5歳"))
SENTENCES = st.one_of(
    st.lists(EN_WORDS, min_size=1, max_size=8).map(lambda w: " ".join(w) + "."),
    st.text(JA_CHARS, min_size=1, max_size=16),
)


def _features(old: str, new: str, lang: str) -> dict[str, float]:
    values = one_slot_features(parse(old, lang), parse(new, lang))
    return dict(zip(ONE_SLOT_FEATURES, values, strict=True))


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("The user lives in Tokyo.", "The user lives in Osaka.", "en"),
        ("The user works at Google.", "The user works at Microsoft.", "en"),
        ("The user drives a Toyota.", "The user drives a Honda.", "en"),
        ("Mei is married to Daniel.", "Mei is married to Tomas.", "en"),
        ("Ravi's dentist is Dr Park.", "Ravi's dentist is Dr Lowe.", "en"),
        ("ユーザーは東京に住んでいる。", "ユーザーは大阪に住んでいる。", "ja"),
        ("ユーザーはグーグルに勤めている。", "ユーザーはマイクロソフトに勤めている。", "ja"),
        ("ユーザーはトヨタに乗っている。", "ユーザーはホンダに乗っている。", "ja"),
        ("弟は横浜の高校に通っている。", "弟は川崎の高校に通っている。", "ja"),
    ],
)
def test_a_single_valued_state_with_its_value_replaced(old: str, new: str, lang: str) -> None:
    got = _features(old, new, lang)
    assert got["slot_value_replaced"] == 1.0
    assert got["slot_state_replaced"] == 1.0
    assert got["slot_event_replaced"] == got["slot_subject_replaced"] == 0.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("The user visited Tokyo.", "The user visited Osaka.", "en"),
        ("The user plans to visit Tokyo in May.", "The user plans to visit Osaka in May.", "en"),
        ("The user bought a Toyota.", "The user bought a Honda.", "en"),
        (
            "The user also has an account with Monzo.",
            "The user also has an account with Revolut.",
            "en",
        ),
        ("ユーザーは東京に行った。", "ユーザーは大阪に行った。", "ja"),
        ("ユーザーは来月東京に行く予定だ。", "ユーザーは来月大阪に行く予定だ。", "ja"),
    ],
)
def test_an_event_a_plan_or_an_addition_holds_for_many_values(
    old: str, new: str, lang: str
) -> None:
    got = _features(old, new, lang)
    assert got["slot_event_replaced"] == 1.0
    assert got["slot_value_replaced"] == got["slot_state_replaced"] == 0.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("The user's sister lives in Tokyo.", "The user's brother lives in Tokyo.", "en"),
        ("Ken: resting heart rate 62.", "Ken's wife: resting heart rate 62.", "en"),
        ("ユーザーの姉は東京に住んでいる。", "ユーザーの兄は東京に住んでいる。", "ja"),
        ("ユーザーの犬は5歳だ。", "ユーザーの猫は5歳だ。", "ja"),
    ],
)
def test_a_differing_subject_is_two_facts(old: str, new: str, lang: str) -> None:
    got = _features(old, new, lang)
    assert got["slot_subject_replaced"] == 1.0
    assert got["slot_value_replaced"] == got["slot_state_replaced"] == 0.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("The user's sister lives abroad.", "The user's sister lives in Montreal.", "en"),
        ("The agency has more than 20 staff.", "The agency has 34 staff.", "en"),
        ("The user lives in Osaka.", "The user lives in north Osaka.", "en"),
        ("ユーザーの妹は海外に住んでいる。", "ユーザーの妹はシンガポールに住んでいる。", "ja"),
        ("寺の檀家は100軒以上。", "寺の檀家は150軒。", "ja"),
    ],
)
def test_a_vague_or_bounded_value_made_precise(old: str, new: str, lang: str) -> None:
    got = _features(old, new, lang)
    assert got["slot_value_precised"] == 1.0
    assert got["slot_value_replaced"] == 0.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("The user doesn't eat meat.", "The user doesn't eat fish.", "en"),  # negation's scope
        ("Tom takes group classes.", "Tom has stopped the group classes.", "en"),  # the verb
        ("The user lives in Tokyo.", "The user lives in Tokyo.", "en"),  # nothing differs
        ("The user lives in Tokyo.", "Her brother bought a new bike in Kyoto last spring.", "en"),
        ("悠はお酒を飲まない。", "悠はピアスを開けていない。", "ja"),  # the predicate differs
    ],
)
def test_more_than_one_value_or_none_is_not_the_shape(old: str, new: str, lang: str) -> None:
    got = _features(old, new, lang)
    assert got["slot_value_replaced"] == got["slot_state_replaced"] == 0.0


def test_japanese_spans_are_whole_script_runs() -> None:
    slot = one_slot(
        parse("ユーザーは東京に住んでいる。", "ja"), parse("ユーザーは東北に住んでいる。", "ja")
    )
    assert slot is not None and (slot.old_span, slot.new_span) == ("東京", "東北")


def test_the_features_sit_in_the_judges_row() -> None:
    text = read_pair("The user lives in Tokyo.", "The user lives in Osaka.")
    row = dict(zip(TEXT_FEATURES, text.features, strict=True))
    assert row["slot_state_replaced"] == 1.0 and row["slot_value_replaced"] == 1.0


@given(SENTENCES, SENTENCES)
def test_any_pair_gives_one_kind_at_most_in_zero_one(old: str, new: str) -> None:
    values = one_slot_features(parse(old), parse(new))
    assert len(values) == len(ONE_SLOT_FEATURES)
    assert all(v in (0.0, 1.0) for v in values)
    value, state, event, subject, precised = values
    assert state <= value  # a state replaced is a value replaced
    assert value + event + subject + precised <= 1.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("The user lives in Tokyo.", "The user lives in Osaka.", "en"),
        ("The user works at Google.", "The user works at Microsoft.", "en"),
        ("The user drives a Toyota.", "The user drives a Honda.", "en"),
        ("ユーザーは東京に住んでいる。", "ユーザーは大阪に住んでいる。", "ja"),
        ("ユーザーはグーグルに勤めている。", "ユーザーはマイクロソフトに勤めている。", "ja"),
        ("ユーザーはトヨタに乗っている。", "ユーザーはホンダに乗っている。", "ja"),
    ],
)
def test_the_rules_close_a_state_whose_one_value_is_replaced(old: str, new: str, lang: str) -> None:
    relation, _, reason = classify_pair(old, new, lang=lang)
    assert relation is Relation.CONTRADICTORY and reason.startswith("one value of a state")
    assert state_replaced(parse(old, lang), parse(new, lang)) is not None


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("The user visited Tokyo.", "The user visited Osaka.", "en"),
        ("The user's sister lives in Tokyo.", "The user's brother lives in Tokyo.", "en"),
        ("Oskar is a nurse in Minneapolis.", "Oskar is a keen Vikings fan.", "en"),  # two values
        # a class made precise by a name
        ("ユーザーはバイクに乗っている。", "ユーザーはヤマハのSR400に乗っている。", "ja"),
        ("ユーザーは東京に行った。", "ユーザーは大阪に行った。", "ja"),
    ],
)
def test_no_state_replaced_signal(old: str, new: str, lang: str) -> None:
    assert state_replaced(parse(old, lang), parse(new, lang)) is None
