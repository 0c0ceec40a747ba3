"""Session 44: a blank text was refused in two wordings, ``NON_BLANK_RULE`` ("must not be
empty or whitespace, nor only invisible characters", a blank content or external id) and
"must not be empty (nor only whitespace or invisible characters)" (a state value, an emotion
label, a chat import's speaker name), for the same rule (``validate.is_blank``). And a chat
import's ``?user_name=`` (empty) was refused by the query's own length rule ("must not be
empty, got ''") while ``?user_name=%20`` was told the other way. One wording, from one
constant, on each."""

from __future__ import annotations

import httpx
import pytest

from omoide.engine.errors import quoted
from omoide.errors import InvalidInput
from omoide.service.validate import NON_BLANK_RULE
from omoide.wiring import Omoide


@pytest.mark.parametrize("field", ["user_name", "assistant_name"])
@pytest.mark.parametrize("name", ["", " ", "\u200b"], ids=["empty", "space", "invisible"])
def test_an_empty_or_blank_speaker_name_is_told_in_one_wording(
    rin: httpx.Client, field: str, name: str
) -> None:
    reply = rin.post(
        "/api/import/rin",
        params={"source": "chat", field: name},
        content=b'[{"role": "user", "content": "hi"}]',
        headers={"content-type": "application/json"},
    )
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"] == {
        "code": "invalid_input",
        "message": f"{field} {NON_BLANK_RULE}, got {quoted(name)}; leave it out for the "
        "default speaker name",
        "field": field,
    }


@pytest.mark.parametrize("blank", ["   ", "\u200b"], ids=["spaces", "invisible"])
def test_a_blank_state_value_is_told_as_any_blank_text(rin: httpx.Client, blank: str) -> None:
    reply = rin.put("/api/context/rin", json={"user_info": {"name": blank}})
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"]["message"] == f"user_info.name {NON_BLANK_RULE}"


@pytest.mark.parametrize("blank", ["   ", "\u200b"], ids=["spaces", "invisible"])
def test_a_blank_emotion_label_is_told_as_any_blank_text(app: Omoide, blank: str) -> None:
    """The service's words (MCP, CLI, import); HTTP's body schema refuses it first, in the same
    words (test_qa45_blank_words)."""
    with pytest.raises(InvalidInput) as refused:
        app.memories.build_new(content="Ken likes tea.", emotion_type=blank)
    assert refused.value.message == (
        f"emotion_type {NON_BLANK_RULE}, got {quoted(blank)}; leave it out or send null for no "
        "emotion"
    )
