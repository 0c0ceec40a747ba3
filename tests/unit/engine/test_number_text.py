"""``engine.number_text``: the one reader of a number typed as text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.errors import ParameterError
from omoide.engine.json_text import JsonTextError
from omoide.engine.number_text import read_integer, read_number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("5", 5),
        ("-1", -1),
        (" 7\t", 7),
        ("0.25", 0.25),
        ("1e3", 1000.0),
        ("-0", 0),
        ("３０", 30),
        ("－１", -1),
        ("０．５", 0.5),
        ("　１２　", 12),
    ],
)
def test_json_numbers_and_their_full_width_forms_are_read(text: str, value: float) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "1_0",
        "１_０",
        "+5",
        ".5",
        "5.",
        "nan",
        "inf",
        "Infinity",
        "٣",
        "१०",
        "0x10",
        "07",
        "1 0",
        "",
        " ",
        "1e",
        "--1",
        "5\u200b",
        "5\x00",
    ],
)
def test_what_python_reads_but_json_does_not_write_is_refused(text: str) -> None:
    with pytest.raises(ParameterError, match="digits 0-9") as refused:
        read_number(text, kind=int, name="top_k")
    assert refused.value.field == "top_k"
    assert "an integer" in refused.value.message


def test_a_number_out_of_jsons_exact_range_is_the_json_readers_refusal() -> None:
    for text in ("1e400", "9007199254740993"):
        with pytest.raises(JsonTextError, match="outside"):
            read_number(text)


@given(st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1))
def test_every_safe_integer_reads_back(number: int) -> None:
    assert read_number(str(number)) == number
    if abs(number) >= 1000:  # Python writes digit separators; the reader refuses them
        with pytest.raises(ParameterError):
            read_number(f"{number:_}")


@pytest.mark.parametrize(("text", "value"), [("7", 7), ("7.0", 7), ("1e1", 10), ("－３", -3)])
def test_a_whole_number_is_read_as_an_int(text: str, value: int) -> None:
    read = read_integer(text)
    assert read == value and type(read) is int


@pytest.mark.parametrize("text", ["7.5", "1e-1", "1_0", "nan"])
def test_a_fraction_or_no_number_is_refused_as_an_integer(text: str) -> None:
    with pytest.raises(
        ParameterError, match="must be an integer written with the digits 0-9"
    ) as refused:
        read_integer(text, name="priority")
    shown = json.dumps(text, ensure_ascii=False)
    assert refused.value.field == "priority" and shown in refused.value.message
