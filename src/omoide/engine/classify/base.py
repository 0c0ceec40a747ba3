"""3-op contradiction classification: types shared by the offline and LLM engines (pure).

A new memory is compared with candidate existing memories (found by similarity) and each pair
is judged INDEPENDENT (both stay true, nothing changes), EXTENDABLE (the new one adds detail:
merge tags / importance) or CONTRADICTORY (the new one makes the old one no longer true: close
the old memory's validity window). Similarity alone never closes a memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

__all__ = ["Candidate", "Classifier", "Relation", "Verdict"]


class Relation(StrEnum):
    INDEPENDENT = "INDEPENDENT"
    EXTENDABLE = "EXTENDABLE"
    CONTRADICTORY = "CONTRADICTORY"


@dataclass(frozen=True)
class Candidate:
    """An existing memory the new one is judged against."""

    key: str
    content: str
    similarity: float  # raw cosine between the two memories' passage vectors


@dataclass(frozen=True)
class Verdict:
    key: str  # the candidate's key
    relation: Relation
    confidence: float  # 0..1
    reason: str  # short, human-readable: which signal decided


class Classifier(Protocol):
    """Both engines: one call judges the new memory against all its candidates."""

    def classify(
        self, new: str, candidates: list[Candidate], *, lang: str = "auto", note: bool = False
    ) -> list[Verdict]:
        """One verdict per candidate, in the candidates' order. ``note``: the new memory is a
        note consolidated from a conversation, not a statement saved as a memory; the offline
        engines hold it to the notes' own precision bar (it closes nothing until one is met)."""
        ...
