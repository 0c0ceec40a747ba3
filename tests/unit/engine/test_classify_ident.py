"""Round 19b's veto: two things of one kind named by identifiers in the subject ("order #1 has
shipped" / "order #2 has shipped") are never one changed thing; an identifier that is the
value ("the user's flight is AB12") fills one slot and may change. Probes written for these
tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.ident import subject_identifiers, two_identified_things
from omoide.engine.classify.learned import VETO_FEATURES, VETO_ONLY, vetoed
from omoide.engine.classify.text import parse


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user's order #5521 has shipped.", "The user's order #7730 has shipped."),
        ("Ticket OPS-88 is waiting for the vendor.", "Ticket OPS-91 is waiting for the vendor."),
        ("Case No. 14 was settled out of court.", "Case No. 19 was settled out of court."),
        (
            "Room 210 is reserved for the user's parents.",
            "Room 318 is reserved for the user's parents.",
        ),
        ("Bus 42 runs late on weekdays.", "Bus 17 runs late on weekdays."),
        ("ユーザーの注文#5521は発送された。", "ユーザーの注文#7730は発送された。"),
        ("第3号の請求書はまだ支払われていない。", "第8号の請求書はまだ支払われていない。"),
        ("5番のロッカーは壊れている。", "9番のロッカーは壊れている。"),
        ("チケットOPS-88は保留中だ。", "チケットOPS-91は保留中だ。"),
    ],
)
def test_identifiers_in_the_subject_name_two_things(old, new) -> None:
    assert two_identified_things(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the identifier is the value: one slot, which may change
        ("The user's flight is KL642.", "The user's flight is KL648."),
        ("The user is staying in room 210.", "The user is staying in room 318."),
        ("The user's member number is No. 4471.", "The user's member number is No. 4480."),
        ("ユーザーは210号室に泊まっている。", "ユーザーは318号室に泊まっている。"),
        ("ユーザーの会員番号はAB-4471だ。", "ユーザーの会員番号はAB-4480だ。"),
        ("ユーザーの背番号は10番だ。", "ユーザーの背番号は7番だ。"),
        # the same thing, however written: its state may change
        ("The user's order #5521 has shipped.", "Order 5521 was returned by the user."),
        ("ユーザーの注文#5521は発送された。", "注文＃５５２１はキャンセルされた。"),
        # an identifier on one side only, or none
        ("The user's order #5521 has shipped.", "The user's order has been cancelled."),
        ("The user's phone number is 090-1111-2222.", "The user's phone number is 080-3333-4444."),
        # a number that measures, not one that names
        ("Flight 3 hours late annoyed the user.", "Flight 5 hours late annoyed the user."),
        ("ユーザーは3番目の候補を選んだ。", "ユーザーは5番目の候補を選んだ。"),
    ],
)
def test_no_two_things_when_the_identifier_is_a_value_or_the_same(old, new) -> None:
    assert not two_identified_things(parse(old), parse(new))


def test_an_identifier_is_keyed_by_its_number() -> None:
    assert subject_identifiers(parse("Order #5521 has shipped.")) == frozenset({"5521"})
    assert subject_identifiers(parse("注文＃５５２１は発送された。")) == frozenset({"5521"})
    assert subject_identifiers(parse("The user ordered item 5521.")) == frozenset()


def test_a_veto_the_judge_does_not_weigh() -> None:
    assert "two_identified_things" in VETO_FEATURES
    assert "two_identified_things" in VETO_ONLY
    text = read_pair("The user's order #5521 has shipped.", "The user's order #7730 has shipped.")
    assert dict(zip(TEXT_FEATURES, text.features, strict=True))["two_identified_things"] == 1.0
    assert vetoed(text)


_CHARS = list("Order #12 No. 3 ab-45 room 6 is was shipped の注文＃第号番室はが。")


@given(st.text(st.sampled_from(_CHARS), max_size=30), st.text(st.sampled_from(_CHARS), max_size=30))
def test_the_signal_is_total(old, new) -> None:
    for lang in ("en", "ja"):
        assert isinstance(two_identified_things(parse(old, lang), parse(new, lang)), bool)
