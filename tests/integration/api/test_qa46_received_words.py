"""A value of another JSON type is told as sent, written as JSON (``engine.errors.quoted``), on
every path (qa46b): the API's schema checks (HTTP's and MCP's) and ``engine.errors.wrong_type``
said ``got "5"`` while ``validate.check_non_blank``, the tags, ``emotion_type`` and a state
value said ``got a number``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from omoide_testing import refused

from omoide.errors import InvalidInput
from omoide.service.validate import check_non_blank


@pytest.mark.parametrize(
    ("value", "said"),
    [
        pytest.param(5, "speaker must be a string, got 5", id="number"),
        pytest.param(True, "speaker must be a string, got true", id="bool"),
        pytest.param({"a": 1}, 'speaker must be a string, got {"a": 1}', id="object"),
    ],
)
def test_check_non_blank_tells_another_type_as_sent(value: Any, said: str) -> None:
    # HTTP's and MCP's schemas refuse such a turn first ("(got 5)"); the service's own check
    # is what a caller without them (the store's own callers, a future surface) meets
    with pytest.raises(InvalidInput) as caught:
        check_non_blank(value, "speaker")
    assert caught.value.message == said


def test_a_state_value_and_a_tag_of_another_type_are_told_as_sent(rin: httpx.Client) -> None:
    error = refused(rin.put("/api/context/rin", json={"user_info": {"city": [1, 2]}}), 422)
    assert error["message"].endswith("got [1, 2]"), error
    error = refused(rin.post("/api/memories/rin", json={"content": "tea", "tags": ["a", 5]}), 422)
    assert "got 5" in error["message"] and "got a number" not in error["message"], error
