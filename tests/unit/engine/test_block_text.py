"""A memory block is measured and cut by one rule (``engine/block_text.py``) in both prompts
that show it: ``get_context``'s blocks section and the chat proxy's system prompt."""

from __future__ import annotations

import pytest

from omoide.engine.block_text import block_line, shown_blocks
from omoide.engine.chat_prompt import assemble_chat_prompt
from omoide.engine.context import BlockText, ContextInput, assemble_context
from omoide.engine.lang import Lang
from omoide.engine.tokens import ELLIPSIS, estimate_tokens

LIMIT = 10


def _both(block: BlockText) -> tuple[str, str]:
    """The block's text as get_context shows it and as the chat prompt does."""
    context = assemble_context(
        ContextInput(persona="rin", language=Lang.EN, since_last_session=None, blocks=[block]),
        budget_tokens=2000,
    )
    chat = assemble_chat_prompt(
        persona="rin",
        lang=Lang.EN,
        budget_tokens=2000,
        persona_state={},
        user_state={},
        blocks=[block],
        memories=[],
    )
    assert [b.name for b in context.blocks] == list(chat.blocks) == ["notes"]
    shown = context.blocks[0].content
    assert block_line(context.blocks[0]) in context.text
    assert block_line(context.blocks[0]) in chat.text  # the same line, cut the same way
    return shown, chat.text


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("bread " * LIMIT, id="english-at-the-limit"),
        pytest.param("あ" * LIMIT, id="japanese-at-the-limit"),
        pytest.param("  padded by blanks  ", id="stripped"),
    ],
)
def test_a_block_at_its_limit_is_shown_whole_in_both_prompts(content: str) -> None:
    assert estimate_tokens(content) <= LIMIT
    shown, _ = _both(BlockText("notes", content, 5, LIMIT))
    assert shown == content.strip()


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("bread " * (LIMIT + 1), id="english-one-over"),
        pytest.param("あ" * (LIMIT + 1), id="japanese-one-over"),
    ],
)
def test_a_block_one_token_over_its_limit_is_cut_alike_in_both_prompts(content: str) -> None:
    assert estimate_tokens(content.strip()) == LIMIT + 1
    shown, _ = _both(BlockText("notes", content, 5, LIMIT))
    assert shown.endswith(ELLIPSIS) and estimate_tokens(shown) <= LIMIT
    assert content.strip().startswith(shown.removesuffix(ELLIPSIS))


def test_a_blank_block_is_shown_in_neither() -> None:
    assert shown_blocks([BlockText("notes", " \n ", 5, LIMIT)]) == []
