"""What an import needs to know about a persona before it restores rows (export/import)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ExistingRows"]


@dataclass(frozen=True)
class ExistingRows:
    """What a persona already holds, by the names an export uses."""

    memory_keys: frozenset[str]
    session_ids: frozenset[str]
    block_names: frozenset[str]
    state_rows: frozenset[tuple[str, str, str, str]]  # (kind, key, value, valid_from)

    @property
    def empty(self) -> bool:
        return not (self.memory_keys or self.session_ids or self.block_names or self.state_rows)
