"""Search results are ordered by the score as shown, then by the row written first."""

from __future__ import annotations

from omoide.model import SearchHit
from omoide.service.search import _ordered, shown_score


def _hit(key: str, score: float) -> SearchHit:
    return SearchHit(type="note", id=key, content=key, score=score, similarity=None)


def test_scores_equal_as_shown_are_a_tie_broken_by_the_older_row() -> None:
    """0.5 and 0.5 + 1e-12 show alike; float noise below the shown digits (which differs
    between the stores' arithmetic) must not decide their order."""
    hits = [
        (3, _hit("mem_a", 0.5 + 1e-12)),
        (1, _hit("mem_z", 0.5)),
        (2, _hit("mem_m", 0.5 - 1e-12)),
        (9, _hit("mem_b", 0.7)),
    ]
    assert [row for row, _ in _ordered(hits)] == [9, 1, 2, 3]
    assert shown_score(0.5 + 1e-12) == shown_score(0.5) == 0.5
