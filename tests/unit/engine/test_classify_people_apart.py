"""Two people's own facts: a change told of one person never closes the other's fact."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import TEXT_FEATURES, read_pair
from omoide.engine.classify.judge_signals import VETO_FEATURES, VETO_ONLY, vetoed
from omoide.engine.classify.subject import two_people_apart
from omoide.engine.classify.text import parse


def _apart(old: str, new: str) -> bool:
    return two_people_apart(old, new, parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Priya avoids dairy and never eats cheese.", "Marco has started eating cheese again."),
        ("The user drives a blue Corolla to work.", "Dev sold his Corolla and cycles now."),
        ("Anita runs the Saturday book club.", "The user has stopped going to book clubs."),
        ("健太さんは毎朝、川沿いを走っている。", "真理さんは走るのをやめた。"),
        ("ユーザーは毎朝、川沿いを走っている。", "真理さんは走るのをやめた。"),
    ],
)
def test_two_people_named_apart(old: str, new: str) -> None:
    assert _apart(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the same person
        ("Priya avoids dairy.", "Priya eats cheese again."),
        ("The user drives a Corolla.", "The user sold the Corolla."),
        # the new memory names the old one's person, or the user
        ("Anna plays tennis on Fridays.", "Ben stopped playing tennis with Anna."),
        ("The user walks the dog at six.", "Kai walks my dog in the mornings now."),
        ("The user walks the dog at six.", "Kai walks the user's dog now."),
        # a note with no subject opens with its verb, not a name
        ("Uses Poetry for every project.", "Migrated every repo to uv last sprint."),
        ("Been seeing Alex for a month.", "Single again since June."),
        ("Rafferty owns a skate shop.", "Sad news from Rafferty: the shop has closed."),
        # a relation of the user is not one person alone
        ("The user's sister lives in Leeds.", "Tom moved to York."),
        # Japanese: a first clause joined to the next is not the memory's subject
        (
            "ユーザーは毎朝、息子を駅まで送っている。",
            "陽介さんが免許を取ったので、送りは終わった。",
        ),
        ("ユーザーは毎朝走っている。", "真理さんとユーザーは走るのをやめた。"),
    ],
)
def test_not_two_people_apart(old: str, new: str) -> None:
    assert not _apart(old, new)


def test_a_veto_the_judge_does_not_weigh() -> None:
    assert "two_people_apart" in VETO_FEATURES
    assert "two_people_apart" in VETO_ONLY
    text = read_pair("Sophie is vegetarian.", "Tom eats meat again.")
    assert dict(zip(TEXT_FEATURES, text.features, strict=True))["two_people_apart"] == 1.0
    assert vetoed(text)


_WORDS = ["The", "user", "Tom", "Anna", "'s", "sister", "stopped", "runs", "I", "my", "."]
_JA = list("ユーザー健太さん真理はがのでて、やめた走る。")


@given(
    st.lists(st.sampled_from(_WORDS), max_size=8),
    st.lists(st.sampled_from(_WORDS), max_size=8),
    st.text(st.sampled_from(_JA), max_size=20),
)
def test_the_signal_is_total_and_symmetric_in_names(old, new, ja) -> None:
    o, n = " ".join(old), " ".join(new)
    assert isinstance(_apart(o, n), bool)
    assert not _apart(o, o)
    assert isinstance(two_people_apart(ja, ja[::-1], parse(ja, "ja"), parse(ja[::-1], "ja")), bool)
