"""Named memory blocks of one persona (spec §Named Memory Blocks): SQL only.

A block is a named, prioritised piece of text (``persona_state``, ``user_model``,
``active_context`` or any custom name), unique per persona. Writes are upserts: an existing
name is updated in place and keeps its ``created_at``. Validation (names, the token limit) is
the service's; it runs inside the write transaction through the ``check`` callback, so the
limit holds against the merged row even when two writers race.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from omoide.clock import iso
from omoide.engine.errors import named
from omoide.errors import NotFound
from omoide.model import (
    DEFAULT_BLOCK_TYPE,
    DEFAULT_MAX_TOKENS,
    DEFAULT_PRIORITY,
    Block,
    BlockPatch,
    Unset,
)
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.rows import dt

__all__ = ["DEFAULT_BLOCK_TYPE", "DEFAULT_MAX_TOKENS", "Block", "BlockPatch", "BlockStore"]

SELECT_BLOCKS = """
SELECT * FROM memory_blocks WHERE persona_id = ? ORDER BY priority DESC, block_name
"""
SELECT_BLOCK = "SELECT * FROM memory_blocks WHERE persona_id = ? AND block_name = ?"
UPSERT_BLOCK = """
INSERT INTO memory_blocks (persona_id, block_name, content, block_type, max_tokens, priority,
    metadata, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (persona_id, block_name) DO UPDATE SET content = excluded.content,
    block_type = excluded.block_type, max_tokens = excluded.max_tokens,
    priority = excluded.priority, metadata = excluded.metadata, updated_at = excluded.updated_at
"""
DELETE_BLOCK = "DELETE FROM memory_blocks WHERE persona_id = ? AND block_name = ?"


class BlockStore:
    """The blocks of one persona (every query carries ``persona_id = ?``)."""

    def __init__(self, db: Database, persona_id: int, persona: str) -> None:
        self.db = db
        self.persona_id = persona_id
        self.persona = persona

    def list_blocks(self) -> list[Block]:
        """Every block, priority descending, then by name."""
        rows = self.db.conn().execute(SELECT_BLOCKS, (self.persona_id,)).fetchall()
        return [self._block(row) for row in rows]

    def get(self, name: str) -> Block:
        row = self.db.conn().execute(SELECT_BLOCK, (self.persona_id, name)).fetchone()
        if row is None:
            raise self._missing(name)
        return self._block(row)

    def upsert(self, patch: BlockPatch, *, now: datetime, check: Callable[[Block], None]) -> Block:
        """Merge ``patch`` over the stored block (or the defaults), ``check`` it, write it."""
        with self.db.write() as conn:
            row = conn.execute(SELECT_BLOCK, (self.persona_id, patch.block_name)).fetchone()
            block = _merge(
                self._block(row) if row else self._new(patch.block_name, now), patch, now
            )
            check(block)
            conn.execute(
                UPSERT_BLOCK,
                (
                    self.persona_id,
                    block.block_name,
                    block.content,
                    block.block_type,
                    block.max_tokens,
                    block.priority,
                    json.dumps(block.metadata, ensure_ascii=False),
                    iso(block.created_at),
                    iso(block.updated_at),
                ),
            )
        return block

    def delete(self, name: str) -> None:
        with self.db.write() as conn:
            if conn.execute(DELETE_BLOCK, (self.persona_id, name)).rowcount == 0:
                raise self._missing(name)

    def _new(self, name: str, now: datetime) -> Block:
        return Block(
            persona=self.persona,
            block_name=name,
            content="",
            block_type=DEFAULT_BLOCK_TYPE,
            max_tokens=DEFAULT_MAX_TOKENS,
            priority=DEFAULT_PRIORITY,
            metadata={},
            created_at=now,
            updated_at=now,
        )

    def _block(self, row: sqlite3.Row) -> Block:
        return Block(
            persona=self.persona,
            block_name=row["block_name"],
            content=row["content"],
            block_type=row["block_type"],
            max_tokens=row["max_tokens"],
            priority=row["priority"],
            metadata=json.loads(row["metadata"]),
            created_at=dt(row["created_at"]),
            updated_at=dt(row["updated_at"]),
        )

    def _missing(self, name: str) -> NotFound:
        return NotFound(
            f"no block {named(name)} for persona {named(self.persona)}",
            persona=self.persona,
            block_name=name,
        )


def _merge(block: Block, patch: BlockPatch, now: datetime) -> Block:
    given = {
        name: getattr(patch, name) for name in ("block_type", "max_tokens", "priority", "metadata")
    }
    return replace(
        block,
        content=patch.content,
        updated_at=now,
        **{k: v for k, v in given.items() if not isinstance(v, Unset)},
    )
