"""Named memory blocks through the service on a real SQLite file (spec §Named Memory Blocks)."""

from __future__ import annotations

import pytest

from omoide.clock import FixedClock
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.wiring import Omoide


def test_write_creates_a_block_with_defaults(app: Omoide, persona: str, clock: FixedClock) -> None:
    block = app.blocks.write_block(persona, block_name="user_model", content="Likes tea.")
    assert (
        block.block_name,
        block.content,
        block.block_type,
        block.max_tokens,
        block.priority,
        block.metadata,
    ) == ("user_model", "Likes tea.", "custom", 500, 0, {})
    assert block.created_at == block.updated_at == clock.now()
    assert app.blocks.get_block(persona, "user_model") == block


def test_writing_an_existing_name_updates_it_and_keeps_created_at(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    created = app.blocks.write_block(
        persona,
        block_name="active_context",
        content="A",
        block_type="context",
        max_tokens=50,
        priority=7,
        metadata={"source": "dashboard"},
    )
    clock.advance(hours=2)
    updated = app.blocks.write_block(persona, block_name="active_context", content="B")
    assert updated.created_at == created.created_at
    assert updated.updated_at == clock.now()
    # Fields not given keep their stored values.
    assert (
        updated.content,
        updated.block_type,
        updated.max_tokens,
        updated.priority,
        updated.metadata,
    ) == ("B", "context", 50, 7, {"source": "dashboard"})
    assert len(app.blocks.list_blocks(persona)) == 1


def test_list_is_priority_descending_then_by_name(app: Omoide, persona: str) -> None:
    for name, priority in [("b", 1), ("a", 1), ("top", 9), ("low", -2)]:
        app.blocks.write_block(persona, block_name=name, content=name, priority=priority)
    assert [b.block_name for b in app.blocks.list_blocks(persona)] == ["top", "a", "b", "low"]


def test_content_over_max_tokens_is_refused_with_both_numbers(app: Omoide, persona: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        app.blocks.write_block(
            persona, block_name="user_model", content="word " * 30, max_tokens=10
        )
    assert caught.value.message == (
        "block 'user_model': content is about 30 tokens, over its "
        "max_tokens of 10; shorten it or raise max_tokens"
    )
    assert caught.value.fields["tokens"] == 30 and caught.value.fields["max_tokens"] == 10
    assert app.blocks.list_blocks(persona) == []


def test_update_content_is_checked_against_the_stored_max_tokens(app: Omoide, persona: str) -> None:
    app.blocks.write_block(persona, block_name="notes", content="short", max_tokens=5)
    with pytest.raises(Conflict, match="over its max_tokens of 5"):  # the stored limit: 409
        app.blocks.write_block(persona, block_name="notes", content="word " * 6)
    assert app.blocks.get_block(persona, "notes").content == "short"


def test_lowering_max_tokens_below_the_content_is_refused(app: Omoide, persona: str) -> None:
    app.blocks.write_block(persona, block_name="notes", content="word " * 20)
    with pytest.raises(InvalidInput, match="content is about 20 tokens, over its max_tokens of 19"):
        app.blocks.write_block(persona, block_name="notes", content="word " * 20, max_tokens=19)
    assert app.blocks.get_block(persona, "notes").max_tokens == 500


def test_japanese_content_counts_one_token_per_character(app: Omoide, persona: str) -> None:
    app.blocks.write_block(persona, block_name="user_model", content="緑茶" * 5, max_tokens=10)
    with pytest.raises(Conflict, match="about 11 tokens"):
        app.blocks.write_block(persona, block_name="user_model", content="緑茶" * 5 + "が")


def test_delete_removes_the_block_and_404s_when_absent(app: Omoide, persona: str) -> None:
    app.blocks.write_block(persona, block_name="user_model", content="x")
    app.blocks.delete_block(persona, "user_model")
    assert app.blocks.list_blocks(persona) == []
    with pytest.raises(NotFound, match="no block 'user_model' for persona 'rin'"):
        app.blocks.delete_block(persona, "user_model")
    with pytest.raises(NotFound):
        app.blocks.get_block(persona, "user_model")


def test_blocks_are_per_persona(app: Omoide, persona: str) -> None:
    app.auth.create_persona("kai")
    app.blocks.write_block(persona, block_name="user_model", content="Rin's")
    app.blocks.write_block("kai", block_name="user_model", content="Kai's")
    assert [b.content for b in app.blocks.list_blocks(persona)] == ["Rin's"]
    app.blocks.delete_block("kai", "user_model")
    assert [b.content for b in app.blocks.list_blocks(persona)] == ["Rin's"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({"block_name": ""}, "block_name '' is invalid", id="empty-name"),
        pytest.param({"block_name": "a/b"}, "block_name 'a/b' is invalid", id="slash"),
        pytest.param({"block_name": "x" * 65}, "use 1-64 ASCII letters", id="long-name"),
        pytest.param({"content": None}, "content must be a string", id="null-content"),
        pytest.param(
            {"max_tokens": 0}, "max_tokens must be an integer from 1 to 100,000", id="zero"
        ),
        pytest.param({"max_tokens": 100_001}, "from 1 to 100,000, got 100001", id="huge"),
        pytest.param({"max_tokens": "50"}, "max_tokens must be an integer", id="text-tokens"),
        pytest.param({"max_tokens": 1.5}, "max_tokens must be an integer", id="float-tokens"),
        pytest.param({"priority": True}, "priority must be an integer", id="bool-priority"),
        pytest.param({"block_type": "a b"}, 'block_type "a b" is invalid', id="bad-type"),
        pytest.param({"metadata": []}, "metadata must be a JSON object", id="list-metadata"),
    ],
)
def test_write_refuses_bad_fields(
    app: Omoide, persona: str, fields: dict[str, object], message: str
) -> None:
    args: dict[str, object] = {"block_name": "notes", "content": "x", **fields}
    with pytest.raises(InvalidInput, match=message):
        app.blocks.write_block(persona, **args)  # type: ignore[arg-type]
