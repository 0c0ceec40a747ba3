"""How a named memory block is shown in a prompt, measured and cut (pure): the one rule behind
``get_context``'s blocks section (``engine/context.py``, with ``context_include_blocks`` on)
and the chat proxy's system prompt (``engine/chat_prompt.py``), so that a block at its limit
reads the same in both.

A block is shown as its name's heading and its content, stripped and cut to the block's own
``max_tokens`` by :func:`omoide.engine.tokens.truncate_to_tokens` (a blank block is not
shown). Whether the line then fits the prompt's room is the caller's (``tokens.fitting``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from omoide.engine.context_model import BlockText
from omoide.engine.tokens import truncate_to_tokens
from omoide.model import Block

__all__ = ["block_line", "block_text", "shown_blocks"]


def block_text(block: Block) -> BlockText:
    """What a prompt needs of a stored block: its name, content, priority and limit."""
    return BlockText(block.block_name, block.content, block.priority, block.max_tokens)


def shown_blocks(blocks: Iterable[BlockText]) -> list[BlockText]:
    """The blocks, in their order, as a prompt shows them: each one's content stripped and cut
    to its ``max_tokens``; a blank one left out."""
    return [
        replace(b, content=truncate_to_tokens(b.content.strip(), b.max_tokens))
        for b in blocks
        if b.content.strip()
    ]


def block_line(block: BlockText) -> str:
    """A shown block (:func:`shown_blocks`) as one item of a prompt: ``### name`` and its
    content."""
    return f"### {block.name}\n{block.content}"
