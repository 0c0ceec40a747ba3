"""The one JSON type rule of a request field (``engine.errors.of_json_type``) and its wording
(``wrong_type``), shared by the chat proxy's checks of every upstream
(``service.chat_messages``) and of the anthropic one (``llm.anthropic_fields``)."""

from __future__ import annotations

from typing import Any

import pytest

from omoide.engine.errors import of_json_type, wrong_type


@pytest.mark.parametrize(
    ("value", "kinds"),
    [
        ("0.5", {"string"}),
        (0.5, {"number"}),
        (1.0, {"number"}),  # no integer
        (3, {"number", "integer"}),
        (True, {"boolean"}),  # no number
        (None, set()),
        ([1], set()),
        ({"a": 1}, set()),
    ],
)
def test_a_value_is_of_the_json_types_it_reads_as(value: Any, kinds: set[str]) -> None:
    read = {k for k in ("string", "number", "integer", "boolean") if of_json_type(value, k)}
    assert read == kinds


def test_a_wrong_type_is_said_with_its_article_and_the_value_as_json() -> None:
    assert wrong_type("top_k", "integer", "5") == 'top_k must be an integer, got "5"'
    assert wrong_type("temperature", "number", True) == "temperature must be a number, got true"
