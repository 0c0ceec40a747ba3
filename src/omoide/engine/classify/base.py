"""3-op contradiction classification: types shared by the offline and LLM engines (pure).

A new memory is compared with candidate existing memories (found by similarity) and each pair
is judged INDEPENDENT (both stay true, nothing changes), EXTENDABLE (the new one adds detail:
merge tags / importance) or CONTRADICTORY (the new one makes the old one no longer true: close
the old memory's validity window). Similarity alone never closes a memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

import numpy as np

__all__ = ["Candidate", "Classifier", "PassageVectors", "Relation", "Verdict"]


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
class PassageVectors:
    """Passage vectors the caller already holds, by exact text, and the embedder model that made
    them (the new memory's, computed at create; the candidates', in the store). A judge reading
    cosines of that same model takes them instead of embedding the texts again; any other
    judge ignores them."""

    model_id: str
    by_text: Mapping[str, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    key: str  # the candidate's key
    relation: Relation
    confidence: float  # 0..1
    reason: str  # short, human-readable: which signal decided


class Classifier(Protocol):
    """Both engines: one call judges the new memory against all its candidates."""

    def classify(
        self,
        new: str,
        candidates: list[Candidate],
        *,
        lang: str = "auto",
        note: bool = False,
        known: PassageVectors | None = None,
    ) -> list[Verdict]:
        """One verdict per candidate, in the candidates' order. ``note``: the new memory is a
        note consolidated from a conversation, not a statement saved as a memory; the offline
        engines hold it to the notes' own precision bar (it closes nothing until one is met).
        ``known``: passage vectors the caller holds (an engine that embeds may reuse them)."""
        ...
