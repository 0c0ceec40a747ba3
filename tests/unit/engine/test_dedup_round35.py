"""Dedup's thirty-fifth round, on probes of our own: a verb said as not yet done on one side
and as done on the other, a copula turned to the past, the holder of a fact moved to a person
of the user's, two short parts traded, the same words denied on one side only (English); a
denial counted without 必ず's ず or しか's ない, and 前は as a former state (Japanese). Each is
never a duplicate; the paraphrases beside them stay open to the judge."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation, polarity_changed, status_changed
from omoide.engine.classify.dedup_aspect import aspect_turned, verb_bases
from omoide.engine.classify.dedup_en_turns import en_turned


def _kept(first: str, second: str) -> bool:
    """A never-duplicate rule finds the pair, both ways, once read in dedup's notation."""
    return all(
        status_changed(*pair_notation(x, y)) or polarity_changed(*pair_notation(x, y))
        for x, y in ((first, second), (second, first))
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user is repainting the garden shed.", "The user has repainted the garden shed."),
        ("The user is writing a novel about sailors.", "The user wrote a novel about sailors."),
        (
            "The user's neighbour has promised to mend the fence by May.",
            "The user's neighbour mended the fence in May.",
        ),
        ("The user might sell the old piano.", "The user has sold the old piano."),
        ("The user wants to paint the kitchen blue.", "The user painted the kitchen blue."),
        ("The user's best friend is Omar.", "The user's best friend was Omar."),
    ],
)
def test_aspect_turned(first: str, second: str) -> None:
    assert aspect_turned(*pair_notation(first, second))
    assert _kept(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user is repainting the garden shed.", "The user is giving the shed new paint."),
        ("The user has repainted the shed.", "The user repainted the shed."),
        ("The user plans to sell the piano.", "The user is going to sell the piano."),
        ("The user is booked on a flight to Rome.", "The user is flying to Rome."),
        (
            "The user has a car, paid for by their employer.",
            "The user's employer is paying for their car.",
        ),
    ],
)
def test_aspect_kept_alike(first: str, second: str) -> None:
    assert not aspect_turned(*pair_notation(first, second))


def test_verb_bases_meet() -> None:
    assert verb_bases("converting") & verb_bases("converted")
    assert verb_bases("singing") & verb_bases("sang")
    assert verb_bases("studying") & verb_bases("studied")
    assert not verb_bases("teaching") & verb_bases("learned")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user plays chess every Sunday.", "The user's brother plays chess every Sunday."),
        (
            "The user sits at the front of the bus and their son at the back.",
            "The user sits at the back of the bus and their son at the front.",
        ),
        (
            "The user cycles to work in summer and takes the bus in winter.",
            "The user takes the bus to work in summer and cycles in winter.",
        ),
        (
            "The user tells colleagues not to call after six.",
            "The user does not tell colleagues to call after six.",
        ),
        ("The user is shy and never sings in public.", "The user is not shy and sings in public."),
        ("The user does not eat pork.", "The user eats pork."),
    ],
)
def test_en_turned(first: str, second: str) -> None:
    assert _kept(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user does not have any pets.", "The user has no pets."),
        (
            "The user's dog, a collie called Bran, is 4.",
            "The user has a 4-year-old collie called Bran.",
        ),
        (
            "Every June the user swims in the lake with friends.",
            "With friends, the user swims in the lake every June.",
        ),
        ("The user likes tea, coffee and cocoa.", "The user likes cocoa, coffee and tea."),
        ("The user reads little French.", "The user does not read much French."),
    ],
)
def test_en_alike_stay_open(first: str, second: str) -> None:
    assert not en_turned(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーは会議の前に必ずコーヒーを飲む。", "ユーザーは会議の前にコーヒーを飲まない。"),
        (
            "ユーザーは虫が怖くて、庭では長袖しか着ない。",
            "ユーザーは虫が怖くないので、庭では半袖を着る。",
        ),
        ("ユーザーは朝はパンを食べる。", "ユーザーは前は朝はパンを食べていた。"),
    ],
)
def test_japanese_kept(first: str, second: str) -> None:
    assert _kept(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーは駅の前は通らない。", "ユーザーは駅の前の道を通らない。"),
        ("ユーザーは必ず朝食をとる。", "ユーザーは朝食を欠かさない。"),
    ],
)
def test_japanese_alike_stay_open(first: str, second: str) -> None:
    assert not status_changed(*pair_notation(first, second))
    assert not polarity_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second", "kept"),
    [
        (
            "ユーザーは猫アレルギーなので、猫は飼えない。",
            "ユーザーは猫アレルギーではないが、猫は飼えない。",
            True,
        ),
        ("ユーザーはジムの会員だ。", "ユーザーはジムの会員ではない。", True),
        ("ユーザーはジムの会員ではない。", "ユーザーはジムの会員じゃない。", False),
        ("ユーザーは料理が得意ではない。", "ユーザーは料理が得意でない。", False),
    ],
)
def test_japanese_noun_denied(first: str, second: str, kept: bool) -> None:
    assert polarity_changed(*pair_notation(first, second)) is kept
    assert polarity_changed(*pair_notation(second, first)) is kept
