"""The sixteenth round's features: a reason or a date told about the old fact, another
person's own fact beside the old one, what a negation denies beyond its verb, and an amount
left as it was beside an added place or companion. Probes written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import read_pair
from omoide.engine.classify.backstory import BACKSTORY_FEATURES, backstory_features
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.quantity_compare import amount_untouched
from omoide.engine.classify.scope import SCOPE_FEATURES, negated_objects, scope_features
from omoide.engine.classify.subject import other_person_alone
from omoide.engine.classify.text import parse

SENTENCES = st.one_of(
    st.lists(
        st.sampled_from(
            [
                "tom",
                "moved",
                "to",
                "york",
                "in",
                "2019",
                "because",
                "his",
                "job",
                "never",
                "not",
                "but",
                "lives",
                "'s",
                "sister",
                "now",
            ]
        ),
        min_size=1,
        max_size=9,
    ).map(lambda w: " ".join(w) + "."),
    st.text(
        st.sampled_from(list("ユーザーの妹は札幌に住んだのは2018年春からだ。ない、を")),
        min_size=1,
        max_size=18,
    ),
)


def _row(old: str, new: str) -> dict[str, float]:
    values = dict(zip(TEXT_FEATURES, read_pair(old, new).features, strict=True))
    return {
        name: values[name]
        for name in (
            *BACKSTORY_FEATURES,
            "other_person_alone",
            "neg_object_missing",
            "amount_untouched",
        )
    }


# --- a reason or a date about the old fact ---------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "feature"),
    [
        (
            "Lena teaches piano at a music school.",
            "Lena teaches piano at a music school because her own teacher passed her the pupils.",
            "reason_about_old",
        ),
        (
            "ユーザーは名古屋でパン屋を営んでいる。",
            "ユーザーが名古屋でパン屋を開いたのは、祖母のレシピを残したかったからだ。",
            "reason_about_old",
        ),
        ("Tom owns a vintage Vespa.", "Tom bought his vintage Vespa in 2019.", "date_about_old"),
        (
            "ユーザーは札幌の大学で化学を教えている。",
            "ユーザーは2015年から札幌の大学で化学を教えている。",
            "date_about_old",
        ),
    ],
)
def test_a_reason_or_a_date_told_about_the_old_fact_is_read(old, new, feature) -> None:
    values = dict(zip(BACKSTORY_FEATURES, backstory_features(parse(old), parse(new)), strict=True))
    assert values[feature] >= 0.75


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the main clause tells an end, a new present or another number: a change, not backstory
        (
            "Lena teaches piano at a music school.",
            "Lena stopped teaching piano at the music school because her hands got worse.",
        ),
        ("Mia swims 3 times a week.", "Mia swims 5 times a week since the pool reopened."),
        ("Tom lives in Leeds.", "Tom now lives in York, since 2019."),
        ("ユーザーはタバコを吸っている。", "ユーザーは去年からタバコをやめている。"),
        ("ユーザーは毎朝走っている。", "ユーザーは膝を痛めたので、今はもう走っていない。"),
    ],
)
def test_a_change_with_a_reason_or_a_date_is_no_backstory(old, new) -> None:
    assert backstory_features(parse(old), parse(new)) == [0.0, 0.0, 0.0]


def test_the_old_memory_giving_its_own_reason_is_no_added_backstory() -> None:
    old = "Tom sold his car because parking got too expensive."
    new = "Tom sold his car because parking got expensive in the city."
    assert backstory_features(parse(old), parse(new))[0] == 0.0


# --- another person's own fact -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user runs a bakery in Porto.",
            "The user's former colleague runs a bakery in Lisbon.",
        ),
        ("Ines lives in Alfama.", "Ines's ex Joao lives in Belem now."),
        ("ユーザーは横浜で英語を教えている。", "ユーザーの元同僚は神戸で英語を教えている。"),
        ("木村さん：禁煙中。", "木村さんの奥さんも禁煙を始めた。"),
    ],
)
def test_another_persons_own_fact_beside_the_old_one_is_read(old, new) -> None:
    assert other_person_alone(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the other person acts on the old fact, or is someone the old memory names
        (
            "The user pays 800 euros a month for her flat.",
            "The user's landlord raised her rent to 900 euros.",
        ),
        ("The user has a dog and a parrot.", "The user's parrot died last week."),
        ("ユーザーは犬と猫を飼っている。", "ユーザーの猫が先週死んだ。"),
        ("ユーザーは一人暮らしだ。", "ユーザーの妹がユーザーと一緒に住み始めた。"),
        ("The user runs a bakery in Porto.", "The user runs a bakery in Lisbon now."),
    ],
)
def test_a_change_told_through_another_person_is_not_their_own_fact(old, new) -> None:
    assert not other_person_alone(parse(old), parse(new))


# --- what a negation denies beyond its verb ---------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user has never played a league match.",
            "The user has played several friendly games in Cork.",
        ),
        (
            "ユーザーは一人で飛行機に乗ったことがない。",
            "ユーザーは一人で新幹線に何度も乗っている。",
        ),
    ],
)
def test_a_negation_whose_object_the_other_memory_does_not_say(old, new) -> None:
    row = dict(zip(SCOPE_FEATURES, scope_features(parse(old), parse(new)), strict=True))
    assert row["neg_object_missing"] >= 0.5


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user doesn't drink coffee.", "The user drinks coffee every morning."),
        ("ユーザーはお酒を飲まない。", "ユーザーは毎晩お酒を飲んでいる。"),
        ("The user has never been to Peru.", "The user is in Lima this week."),  # no verb shared
    ],
)
def test_a_negation_of_what_the_other_memory_asserts_misses_nothing(old, new) -> None:
    row = dict(zip(SCOPE_FEATURES, scope_features(parse(old), parse(new)), strict=True))
    assert row["neg_object_missing"] == 0.0


def test_a_negation_denies_nothing_past_its_clause() -> None:
    old = parse("The user did not take the train, but drove to Bristol.")
    assert negated_objects(old) == [(en_lemma("take"), {"train"})]
    row = dict(
        zip(SCOPE_FEATURES, scope_features(old, parse("The user drives to Bristol.")), strict=True)
    )
    assert row["neg_scope_shared"] == 0.0


# --- an amount left as it was -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "untouched"),
    [
        ("Mia swims 3 times a week.", "Mia swims in the lake with her brother.", True),
        ("ミアは週に3回泳いでいる。", "ミアは兄と湖で泳いでいる。", True),
        ("Mia swims 3 times a week.", "Mia swims only on Sundays now.", False),
        ("ミアは週に3回泳いでいる。", "ミアは日曜日だけ泳いでいる。", False),
        ("Mia swims 3 times a week.", "Mia swims 5 times a week in the lake.", False),
        ("ミアは週に3回泳いでいる。", "ミアは泳ぐのをやめた。", False),
        # a second clause or sentence may tell what became of the amount: never read as left alone
        ("Mia swims 3 times a week.", "Mia swims in the lake since her pool shut.", False),
        ("ミアは週に3回泳いでいる。", "ミアは肩を痛めて、湖で泳いでいる。", False),
        ("ミアは週に3回泳いでいる。", "ミアは湖で泳いでいる。兄も一緒だ。", False),
    ],
)
def test_an_amount_is_left_as_it_was_beside_an_added_place(old, new, untouched) -> None:
    a, b = parse(old), parse(new)
    assert amount_untouched(a.text, b.text, a.quantities, b.quantities, a.lang) is untouched


def test_the_pair_features_carry_the_new_columns() -> None:
    row = _row("Tom owns a vintage Vespa.", "Tom bought his vintage Vespa in 2019.")
    assert row["date_about_old"] == 1.0 and row["other_person_alone"] == 0.0


@given(SENTENCES, SENTENCES)
def test_every_value_is_a_share(old: str, new: str) -> None:
    for value in _row(old, new).values():
        assert 0.0 <= value <= 1.0
