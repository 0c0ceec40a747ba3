"""Session 25: a typed value (a date, a number, a switch) is folded one way, ``half_width``:
``validate.times`` used NFKC, which also read superscript and circled digits as a date."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from omoide.engine.width import half_width
from omoide.errors import InvalidInput
from omoide.service.validate.times import check_timestamp


def test_full_width_dates_and_times_are_read_as_ascii() -> None:
    assert check_timestamp("２０２６－０３－０１", "valid_at") == datetime(2026, 3, 1, tzinfo=UTC)
    wide = "２０２６－０３－０１Ｔ０９：００：００＋０９：００"
    assert check_timestamp(wide, "at") == datetime(2026, 3, 1, 0, 0, tzinfo=UTC)
    assert check_timestamp(wide, "at") == check_timestamp(half_width(wide), "at")


@pytest.mark.parametrize("text", ["²⁰²⁶-03-01", "2026-0③-01", "２０２６ー０３－０１"])
def test_compatibility_forms_no_one_types_as_a_date_stay_refused(text: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        check_timestamp(text, "valid_at")
    assert refused.value.fields["field"] == "valid_at"
