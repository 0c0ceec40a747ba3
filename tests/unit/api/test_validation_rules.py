"""The shared validation rules (service/validate.py) read the same in Python and in the OpenAPI
document: whole-string matches, one definition used by services and request models."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from omoide.api.http.json_body import JsonRefused, strict_json
from omoide.errors import InvalidInput
from omoide.service.validate import (
    NAME_PATTERN,
    SESSION_ID_PATTERN,
    TAG_PATTERN,
    check_metadata,
    check_tags,
    check_timestamp,
    matches,
)


@pytest.mark.parametrize(
    ("pattern", "value", "ok"),
    [
        pytest.param(NAME_PATTERN, "rin", True, id="name"),
        pytest.param(NAME_PATTERN, "ab\n", False, id="name-trailing-newline"),
        pytest.param(NAME_PATTERN, "a" * 65, False, id="name-too-long"),
        pytest.param(SESSION_ID_PATTERN, "conv-26:session_1@x.y", True, id="session"),
        pytest.param(SESSION_ID_PATTERN, "a/b", False, id="session-slash"),
        pytest.param(SESSION_ID_PATTERN, "../../x", False, id="session-dots-slash"),
        pytest.param(TAG_PATTERN, "  travel  ", True, id="tag-trimmed"),
        pytest.param(TAG_PATTERN, "a,b", False, id="tag-comma"),
        pytest.param(TAG_PATTERN, "\u3000", False, id="tag-blank"),
    ],
)
def test_patterns_match_whole_strings(pattern: str, value: str, ok: bool) -> None:
    assert matches(pattern, value) is ok


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("2026-03-01", datetime(2026, 3, 1, tzinfo=UTC), id="date"),
        pytest.param(
            "2026-03-01T09:30:00+09:00", datetime(2026, 3, 1, 0, 30, tzinfo=UTC), id="offset"
        ),
        pytest.param("1900-01-01T01:00:00+01:00", datetime(1900, 1, 1, tzinfo=UTC), id="lowest"),
        pytest.param(
            "9999-12-31T23:59:59Z", datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC), id="highest"
        ),
    ],
)
def test_timestamps_in_range_are_read_as_utc(text: str, expected: datetime) -> None:
    assert check_timestamp(text, "t") == expected


@pytest.mark.parametrize(
    "text",
    [
        "9999-12-31T23:59:59-14:00",
        "0001-01-01T00:00:00+14:00",
        "1899-12-31",
        "1900-01-01T00:00:00+01:00",
        "2026-02-30",
        "2026-03-01T24:00",
        "20260301",
        "2026-W09-1",
        "yesterday",
    ],
)
def test_timestamps_out_of_range_or_shape_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        check_timestamp(text, "t")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2016-12-31T23:59:60Z", datetime(2016, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        ("2016-12-31T23:59:60.5z", datetime(2016, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        ("2017-01-01T08:59:60+09:00", datetime(2016, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        ("2015-07-01T05:29:60+05:30", datetime(2015, 6, 30, 23, 59, 59, 999999, tzinfo=UTC)),
    ],
)
def test_a_leap_second_is_read_as_the_last_microsecond_before_it(
    text: str, expected: datetime
) -> None:
    """RFC 3339 allows ``:60`` for a leap second (logs of a clock that keeps them); it was
    refused as 'no such day or time'. Python cannot hold it: it is kept as 23:59:59.999999
    UTC, after every other time of that second and before the next day."""
    assert check_timestamp(text, "t") == expected


@pytest.mark.parametrize("text", ["2016-12-31T12:30:60Z", "2016-12-31T23:59:60+09:00"])
def test_a_second_60_that_is_no_leap_second_is_refused_saying_so(text: str) -> None:
    with pytest.raises(InvalidInput, match="leap second") as refused:
        check_timestamp(text, "t")
    assert "23:59:60 UTC" in refused.value.message


@pytest.mark.parametrize(
    "text", ["2026-12-06T10:00:00 09:00", "2026-12-06 10:00 09:00", "2026-12-06T10:00:00.5 05:30 "]
)
def test_an_offsets_plus_read_as_a_space_is_named(text: str) -> None:
    """``?valid_at=2026-12-06T10:00:00+09:00`` sent unencoded arrives with a space for the
    '+': the message says so and how to send it, not only that the value is no timestamp."""
    with pytest.raises(InvalidInput, match="%2B") as refused:
        check_timestamp(text, "valid_at")
    assert refused.value.fields == {"field": "valid_at"}


@pytest.mark.parametrize("text", ["yesterday", "2026-12-06 x", "2026-12-06T10:00:00 9"])
def test_other_bad_times_keep_the_example(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"e\.g\. 2026-03-01 or") as refused:
        check_timestamp(text, "t")
    assert "%2B" not in refused.value.message


def test_tags_are_trimmed_deduplicated_and_bounded() -> None:
    assert check_tags([" a ", "a", "b"]) == ("a", "b")
    with pytest.raises(InvalidInput):
        check_tags([str(i) for i in range(21)])


@pytest.mark.parametrize(
    "metadata",
    [
        pytest.param({"x": float("nan")}, id="nan"),
        pytest.param({"x": "\ud800"}, id="lone-surrogate"),
        pytest.param({"x": "y" * 10_001}, id="too-large"),
        pytest.param(
            {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1}}}}}}}}}, id="too-deep"
        ),
    ],
)
def test_metadata_limits(metadata: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        check_metadata(metadata)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"x": NaN}',
        b'{"x": -Infinity}',
        b'{"x": 1e999}',
        b'{"x": 9007199254740992}',
        b'{"x": "\\ud800"}',
        b'{"\\udc00": 1}',
        b"[" * 50 + b"]" * 50,
        b"[" * 100_000,
        b'{"x": "\xed\xa0\x80"}',
        b'{"x": ' + b"1" * 4301 + b"}",
    ],
)
def test_strict_json_refuses_what_no_route_should_see(raw: bytes) -> None:
    with pytest.raises(JsonRefused):
        strict_json(raw)


def test_strict_json_reads_ordinary_json() -> None:
    assert strict_json(b'{"a": [1, 2.5, "\\ud83d\\ude00", null, true]}') == {
        "a": [1, 2.5, "😀", None, True]
    }
