"""What an import needs to know about a persona before it restores rows (export/import)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["ExistingRows"]


@dataclass(frozen=True)
class ExistingRows:
    """What a persona already holds, by the names an export uses."""

    memory_keys: frozenset[str]
    session_ids: frozenset[str]
    block_names: frozenset[str]
    state_rows: frozenset[tuple[str, str, str, str]]  # (kind, key, value, valid_from)
    # superseded_by, summary_ref -> {a memory's key -> the key it names there}: the pointers
    # the persona's memories hold (an import's chains may run through them)
    pointers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.memory_keys or self.session_ids or self.block_names or self.state_rows)
