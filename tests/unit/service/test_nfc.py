"""validate.nfc: the one form user text is kept in (Unicode NFC), keys included."""

from __future__ import annotations

import unicodedata

import pytest

from omoide.errors import InvalidInput
from omoide.service.validate import nfc

NFD = unicodedata.normalize("NFD", "café")


def test_every_string_of_a_json_value_is_put_in_nfc() -> None:
    value = {"content": NFD, NFD: [NFD, {"x": NFD}], "n": 1.5, "ok": True, "none": None}
    assert nfc(value) == {
        "content": "café",
        "café": ["café", {"x": "café"}],
        "n": 1.5,
        "ok": True,
        "none": None,
    }
    assert nfc(NFD) == "café" and nfc(("a", NFD)) == ("a", "café")


def test_text_already_in_nfc_is_returned_as_is() -> None:
    text = "Zoë 猫 ガ"
    assert nfc(text) is text


def test_two_keys_that_become_one_are_refused_naming_where() -> None:
    with pytest.raises(InvalidInput) as caught:
        nfc({"metadata": {"café": 1, NFD: 2}})
    assert "twice" in caught.value.message and caught.value.fields["field"] == "metadata.café"
