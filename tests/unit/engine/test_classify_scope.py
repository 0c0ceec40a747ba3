"""Head-versus-rest and negation-scope features for the learned judge."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify.features import TEXT_FEATURES, read_pair
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.scope import (
    SCOPE_FEATURES,
    head_and_rest,
    negation_scope,
    scope_features,
)
from omoide.engine.classify.text import parse

EN_WORDS = st.sampled_from(
    [
        "tea",
        "coffee",
        "drinks",
        "likes",
        "never",
        "not",
        "garden",
        "every",
        "morning",
        "the",
        "user",
        "sushi",
        "eats",
        "now",
    ]
)
JA_CHARS = st.sampled_from(list("ユーザーは寿司を食べないコーヒー毎朝飲むにでへジム通解約した、。"))
SENTENCES = st.one_of(
    st.lists(EN_WORDS, min_size=1, max_size=8).map(lambda w: " ".join(w).capitalize() + "."),
    st.text(JA_CHARS, min_size=1, max_size=16),
)


def _scope(old: str, new: str) -> dict[str, float]:
    values = dict(zip(TEXT_FEATURES, read_pair(old, new).features, strict=True))
    return {name: values[name] for name in SCOPE_FEATURES}


@given(SENTENCES, SENTENCES)
def test_every_feature_lies_in_the_unit_interval(old: str, new: str) -> None:
    row = scope_features(parse(old), parse(new))
    assert len(row) == len(SCOPE_FEATURES)
    assert all(0.0 <= v <= 1.0 for v in row)


@given(SENTENCES, SENTENCES)
def test_the_overlaps_are_symmetric(old: str, new: str) -> None:
    a, b = parse(old), parse(new)
    if a.lang != b.lang:
        return
    assert scope_features(a, b)[:3] == scope_features(b, a)[:3]


@given(SENTENCES)
def test_a_memory_against_itself_keeps_its_head_and_denies_nothing_new(text: str) -> None:
    s = parse(text)
    head, rest, changed, negated, missing = scope_features(s, s)
    old_head, old_rest = head_and_rest(s)
    assert head == (1.0 if old_head else 0.0) and rest == (1.0 if old_rest else 0.0)
    assert changed == negated == missing == 0.0  # no negation flip against itself


def test_another_predicate_on_the_same_things_is_head_changed_rest_kept() -> None:
    en = _scope("User has never tried sushi.", "User now eats sushi every week.")
    assert en["head_overlap"] == 0.0 and en["head_changed_rest_kept"] > 0.0
    ja = _scope("ユーザーはジムに通っている", "ユーザーはジムを解約した")
    assert ja["head_overlap"] == 0.0 and ja["rest_overlap"] >= 0.5
    assert ja["head_changed_rest_kept"] == ja["rest_overlap"]


def test_the_same_predicate_on_another_thing_keeps_the_head() -> None:
    found = _scope("User drinks coffee.", "User drinks tea.")
    assert found["head_overlap"] == 1.0 and found["head_changed_rest_kept"] == 0.0


def test_the_user_words_and_a_final_copula_are_no_part_of_a_japanese_head_or_rest() -> None:
    head, rest = head_and_rest(parse("ユーザーの歯医者は駅前の山田歯科です"))
    assert {"山田", "歯科"} <= head and "科で" not in head
    assert not any("ユー" in u or "ザー" in u for u in head | rest)


def test_a_negation_denies_the_words_it_governs() -> None:
    denied = negation_scope(parse("User doesn't drink coffee."))
    assert {en_lemma("drink"), en_lemma("coffee")} <= denied
    assert "飲ま" in negation_scope(parse("ユーザーはコーヒーを飲まない"))
    assert negation_scope(parse("User drinks coffee.")) == set()
    assert negation_scope(parse("ユーザーはチョコレートに目がない")) == set()  # an idiom


def test_a_flip_on_the_denied_words_is_shared_and_on_other_words_less() -> None:
    same = _scope("User doesn't drink coffee.", "User drinks coffee every morning.")
    other = _scope("User doesn't drink coffee.", "User drinks tea every morning.")
    assert same["neg_scope_shared"] == 1.0 > other["neg_scope_shared"]
    ja_same = _scope("ユーザーはコーヒーを飲まない", "ユーザーは毎朝コーヒーを飲む")
    ja_other = _scope("ユーザーはコーヒーを飲まない", "ユーザーは毎朝紅茶を飲む")
    assert ja_same["neg_scope_shared"] > ja_other["neg_scope_shared"]
    # Without a flip (both negative) the feature stays silent.
    assert (
        _scope("User doesn't drink coffee.", "User never drinks coffee.")["neg_scope_shared"] == 0.0
    )
