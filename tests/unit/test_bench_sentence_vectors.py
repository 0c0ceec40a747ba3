"""The sent33 probe (``bench/lib/sentence_vectors.py``): a note's vector score combined with its
best sentence's, the candidates re-sorted, sentence vectors embedded once and cached."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

from lib.sentence_vectors import SentenceVectors, combine, rescore  # noqa: E402
from omoide.engine.fusion import Scored  # noqa: E402


def test_combine_max_blend_and_one_sentence() -> None:
    assert combine(0.4, 0.7, "max") == 0.7
    assert combine(0.4, 0.2, "max") == 0.4
    assert combine(0.4, 0.8, "blend", 0.25) == pytest.approx(0.5)
    assert combine(0.4, None, "blend", 1.0) == 0.4  # one sentence: unchanged
    with pytest.raises(ValueError):
        combine(0.4, 0.5, "min")


def test_rescore_resorts_and_keeps_ties_by_id() -> None:
    found = [Scored(1, 0.6), Scored(2, 0.5), Scored(3, 0.5)]
    out = rescore(found, {3: 0.9}, "max")
    assert [(s.id, s.score) for s in out] == [(3, 0.9), (1, 0.6), (2, 0.5)]
    same = rescore(found, {3: 0.9}, "blend", 0.0)  # weight 0: the default order
    assert [s.id for s in same] == [1, 2, 3]


class _Counting:
    model_id = "fake/e5"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array([[float(len(t)), 1.0] for t in texts], dtype=np.float32)


def test_sentence_vectors_embed_missing_once_and_persist(tmp_path: Path) -> None:
    embedder = _Counting()
    vectors = SentenceVectors(embedder, tmp_path)
    first = vectors.vectors([["A b.", "Cc d."], ["A b."]])
    assert [m.shape for m in first] == [(2, 2), (1, 2)]
    assert embedder.calls == [["A b.", "Cc d."]]  # each sentence once
    assert (vectors.notes_embedded, vectors.sentences_embedded) == (2, 2)
    vectors.vectors([["Cc d."]])
    assert len(embedder.calls) == 1  # cached
    vectors.save()
    again = SentenceVectors(embedder, tmp_path)
    assert np.allclose(again.vectors([["Cc d."]])[0], first[0][1:])
    assert len(embedder.calls) == 1  # read from the file


def test_bracketed_asides_are_not_sentences() -> None:
    from lib.sentence_vectors import is_aside, note_sentences

    assert is_aside("(8 May 2023)") and is_aside("（2023年5月8日）。")
    assert not is_aside("Ana (my sister) came.")
    text = "Ana went hiking. She loved it. (8 May 2023)"
    assert note_sentences(text) == ["Ana went hiking.", "She loved it.", "(8 May 2023)"]
    assert note_sentences(text, asides=False) == ["Ana went hiking.", "She loved it."]
