"""Named memory blocks (spec §Named Memory Blocks): list, write (upsert), delete.

Blocks are for the HTTP API, the dashboard and the chat proxy's system prompt; they are not MCP
tools and reach get_context only when ``context_include_blocks`` is on. The rule enforced here
on every write: a block's content fits its ``max_tokens`` (``engine.tokens.estimate_tokens``),
checked on the merged row inside the write transaction, so lowering ``max_tokens`` below the
stored content is refused as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from omoide.clock import Clock
from omoide.engine.errors import named, quoted
from omoide.engine.tokens import estimate_tokens
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.model import UNSET, Block, BlockPatch, Unset
from omoide.service.validate import (
    MAX_METADATA_CHARS,
    check_metadata,
    check_name,
    check_text,
)
from omoide.store.port import Store

__all__ = [
    "BLOCK_TYPES",
    "MAX_BLOCK_TOKENS",
    "MAX_METADATA_CHARS",
    "MAX_PRIORITY",
    "STANDARD_BLOCKS",
    "BlockService",
    "check_block",
    "check_block_name",
]

# The standard names (docs/blocks.md); any other valid name is a custom block.
STANDARD_BLOCKS = ("persona_state", "user_model", "active_context")
MAX_BLOCK_TOKENS = 100_000
MAX_PRIORITY = 1_000_000
# A closed set (issue 13): what a block is for; the default is custom.
BLOCK_TYPES = ("custom", "persona", "user", "context", "instructions")


def check_block_name(name: Any) -> str:
    return check_name(name, "block_name", "block_name")


def _check_int(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(
            f"{name} must be an integer from {low:,} to {high:,}, got {quoted(value)}", field=name
        )
    return value


def _check_type(value: Any) -> str:
    if value not in BLOCK_TYPES:
        raise InvalidInput(
            f"block_type {quoted(value)} is invalid: use one of "
            f"{', '.join(BLOCK_TYPES)} (default custom)",
            field="block_type",
        )
    return str(value)


def _check_fits(block: Block | BlockPatch, *, stored_limit: bool = False) -> None:
    """422 when the request's own content and max_tokens disagree; 409 when the content does
    not fit the ``max_tokens`` already stored (the request alone is fine)."""
    if isinstance(block.max_tokens, Unset):  # the stored block's limit applies (upsert)
        return
    tokens = estimate_tokens(block.content)
    if tokens > block.max_tokens:
        raise (Conflict if stored_limit else InvalidInput)(
            f"block {named(block.block_name)}: content is about {tokens:,} tokens, over its "
            f"max_tokens of {block.max_tokens:,}; shorten it or raise max_tokens",
            field="content",
            block_name=block.block_name,
            tokens=tokens,
            max_tokens=block.max_tokens,
        )


def _patch(
    block_name: Any,
    content: Any,
    block_type: Any = UNSET,
    max_tokens: Any = UNSET,
    priority: Any = UNSET,
    metadata: Any = UNSET,
) -> BlockPatch:
    """The validated write: each given field checked by its rule."""
    if not isinstance(content, str):
        raise InvalidInput("content must be a string", field="content")
    check_text(content, "content")
    return BlockPatch(
        block_name=check_block_name(block_name),
        content=content,
        block_type=block_type if isinstance(block_type, Unset) else _check_type(block_type),
        max_tokens=max_tokens
        if isinstance(max_tokens, Unset)
        else _check_int(max_tokens, "max_tokens", 1, MAX_BLOCK_TOKENS),
        priority=priority
        if isinstance(priority, Unset)
        else _check_int(priority, "priority", -MAX_PRIORITY, MAX_PRIORITY),
        metadata=metadata if isinstance(metadata, Unset) else check_metadata(metadata),
    )


def check_block(record: Mapping[str, Any]) -> BlockPatch:
    """A whole block (an import's block record) as a write through the API must give it: the
    same checks and messages, every field given, its content within its own max_tokens."""
    patch = _patch(**{name: record[name] for name in _FIELDS})
    _check_fits(patch)
    return patch


_FIELDS = ("block_name", "content", "block_type", "max_tokens", "priority", "metadata")


class BlockService:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def list_blocks(self, persona: str) -> list[Block]:
        """Every block of the persona, priority descending, then by name."""
        return self.store.blocks(persona).list_blocks()

    def get_block(self, persona: str, block_name: Any) -> Block:
        return self.store.blocks(persona).get(check_block_name(block_name))

    def write_block(
        self,
        persona: str,
        *,
        block_name: Any,
        content: Any,
        block_type: Any = UNSET,
        max_tokens: Any = UNSET,
        priority: Any = UNSET,
        metadata: Any = UNSET,
    ) -> Block:
        """Create or update; fields not given keep their stored value (or the default)."""
        patch = _patch(block_name, content, block_type, max_tokens, priority, metadata)
        # The limit the content must fit comes from the stored block when none is given.
        stored_limit = isinstance(max_tokens, Unset) and self._exists(persona, patch.block_name)
        return self.store.blocks(persona).upsert(
            patch,
            now=self.clock.now(),
            check=lambda block: _check_fits(block, stored_limit=stored_limit),
        )

    def _exists(self, persona: str, block_name: str) -> bool:
        try:
            self.store.blocks(persona).get(block_name)
        except NotFound:
            return False
        return True

    def delete_block(self, persona: str, block_name: Any) -> None:
        """Remove the block (404 when there is none by that name)."""
        self.store.blocks(persona).delete(check_block_name(block_name))
