"""Named memory blocks (spec §Named Memory Blocks): list, write (upsert), delete.

Blocks are for the HTTP API, the dashboard and the chat proxy's system prompt; they are not MCP
tools and reach get_context only when ``context_include_blocks`` is on. The rule enforced here
on every write: a block's content fits its ``max_tokens`` (``engine.tokens.estimate_tokens``),
checked on the merged row inside the write transaction, so lowering ``max_tokens`` below the
stored content is refused as well.
"""

from __future__ import annotations

import json
import re
from typing import Any

from omoide.clock import Clock
from omoide.engine.tokens import estimate_tokens
from omoide.errors import InvalidInput
from omoide.model import UNSET, Block, BlockPatch, Unset
from omoide.store.port import Store

__all__ = [
    "MAX_BLOCK_TOKENS",
    "MAX_METADATA_CHARS",
    "STANDARD_BLOCKS",
    "BlockService",
    "check_block_name",
]

# The standard names (docs/blocks.md); any other valid name is a custom block.
STANDARD_BLOCKS = ("persona_state", "user_model", "active_context")
MAX_BLOCK_TOKENS = 100_000
MAX_METADATA_CHARS = 10_000
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_TYPE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def check_block_name(name: Any) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidInput(f"block_name {name!r} is invalid: use 1-64 letters, digits, '_' or "
                           "'-'", field="block_name")
    return name


def _check_int(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{name} must be an integer from {low:,} to {high:,}, got {value!r}",
                           field=name)
    return value


def _check_type(value: Any) -> str:
    if not isinstance(value, str) or not _TYPE.match(value):
        raise InvalidInput(f"block_type {value!r} is invalid: use 1-32 letters, digits, '_' or "
                           "'-' (default 'custom')", field="block_type")
    return value


def _check_metadata(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInput("metadata must be a JSON object", field="metadata")
    if len(json.dumps(value, ensure_ascii=False)) > MAX_METADATA_CHARS:
        raise InvalidInput(f"metadata is larger than {MAX_METADATA_CHARS:,} characters as JSON",
                           field="metadata")
    return value


def _check_fits(block: Block) -> None:
    tokens = estimate_tokens(block.content)
    if tokens > block.max_tokens:
        raise InvalidInput(
            f"block {block.block_name!r}: content is about {tokens:,} tokens, over its "
            f"max_tokens of {block.max_tokens:,}; shorten it or raise max_tokens",
            field="content", block_name=block.block_name, tokens=tokens,
            max_tokens=block.max_tokens)


class BlockService:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def list_blocks(self, persona: str) -> list[Block]:
        """Every block of the persona, priority descending, then by name."""
        return self.store.blocks(persona).list_blocks()

    def get_block(self, persona: str, block_name: Any) -> Block:
        return self.store.blocks(persona).get(check_block_name(block_name))

    def write_block(self, persona: str, *, block_name: Any, content: Any,
                    block_type: Any = UNSET, max_tokens: Any = UNSET, priority: Any = UNSET,
                    metadata: Any = UNSET) -> Block:
        """Create or update; fields not given keep their stored value (or the default)."""
        if not isinstance(content, str):
            raise InvalidInput("content must be a string", field="content")
        patch = BlockPatch(
            block_name=check_block_name(block_name), content=content,
            block_type=block_type if isinstance(block_type, Unset) else _check_type(block_type),
            max_tokens=max_tokens if isinstance(max_tokens, Unset)
            else _check_int(max_tokens, "max_tokens", 1, MAX_BLOCK_TOKENS),
            priority=priority if isinstance(priority, Unset)
            else _check_int(priority, "priority", -1_000_000, 1_000_000),
            metadata=metadata if isinstance(metadata, Unset) else _check_metadata(metadata))
        return self.store.blocks(persona).upsert(patch, now=self.clock.now(), check=_check_fits)

    def delete_block(self, persona: str, block_name: Any) -> None:
        """Remove the block (404 when there is none by that name)."""
        self.store.blocks(persona).delete(check_block_name(block_name))
