"""The shipped calibrations put the spec's thresholds in the right place on each real embedder.

Dedup flags ``cosine > calibration.to_raw(0.85)``; the evolution band starts at ``to_raw(0.8)``.
Cosine is passage ↔ passage, as dedup compares stored texts. None of these sentences is in
``calibration_pairs.jsonl``, so this checks the calibration on text it was not fitted to.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from bundled_models import bundled

from omoide.embed import Embedder

DUPLICATES = [
    ("User's favourite food is sushi.", "Sushi is the user's favourite food."),
    ("User works at a bakery in Kobe.", "The user has a job at a bakery in Kobe."),
    (
        "User's brother Daiki is a firefighter.",
        "Daiki, the user's brother, works as a firefighter.",
    ),
    (
        "Haru should not use emoji when talking to the user.",
        "The user asked Haru not to use emoji in conversation.",
    ),
    ("ユーザーは毎週土曜日にサッカーをしている", "ユーザーは土曜日になると毎週サッカーをする"),
    ("ユーザーの好きな季節は秋だ", "ユーザーが一番好きな季節は秋です"),
    ("ユーザーの兄は消防士として働いている", "ユーザーの兄の仕事は消防士だ"),
    ("ユーザーは朝ごはんにいつもパンを食べる", "ユーザーの朝食はいつもパンだ"),
    ("ユーザーは神戸のパン屋で働いている", "ユーザーの職場は神戸のパン屋だ"),
]

RELATED = [
    ("User's favourite food is sushi.", "User got food poisoning from sushi last year."),
    (
        "User works at a bakery in Kobe.",
        "User quit the bakery and now works at a bookshop in Osaka.",
    ),
    ("User's brother Daiki is a firefighter.", "User's brother Daiki has two daughters."),
    ("User plays tennis every Sunday.", "User stopped playing tennis after hurting her elbow."),
    ("ユーザーは毎週土曜日にサッカーをしている", "ユーザーは先月サッカーの試合で足首を痛めた"),
    ("ユーザーは神戸のパン屋で働いている", "ユーザーはいつか自分のカフェを開きたいと思っている"),
    ("ユーザーは朝ごはんにいつもパンを食べる", "ユーザーは最近グルテンを控えるよう医者に言われた"),
]

UNRELATED = [
    ("User's favourite food is sushi.", "User's brother Daiki is a firefighter."),
    ("User plays tennis every Sunday.", "User's grandmother turned ninety this spring."),
    ("ユーザーは毎週土曜日にサッカーをしている", "ユーザーの祖母は今年90歳になった"),
    ("ユーザーの好きな季節は秋だ", "ユーザーの兄は消防士として働いている"),
    ("User's favourite food is sushi.", "ユーザーの祖母は今年90歳になった"),
]


@dataclass(frozen=True)
class Embedded:
    embedder: Embedder
    vectors: dict[str, np.ndarray]

    def cosine(self, a: str, b: str) -> float:
        return float(self.vectors[a] @ self.vectors[b])


@pytest.fixture(scope="module", params=["use", "e5"])
def embedded(request: pytest.FixtureRequest) -> Embedded:
    # One batch per model: e5 costs ~50 ms a text, so per-test calls would take most of a minute.
    embedder = bundled(request.param)
    texts = sorted({text for pair in DUPLICATES + RELATED + UNRELATED for text in pair})
    return Embedded(embedder, dict(zip(texts, embedder.embed_passages(texts), strict=True)))


@pytest.mark.parametrize(("a", "b"), DUPLICATES)
def test_dedup_threshold_flags_paraphrase_when_same_fact_restated(
    embedded: Embedded, a: str, b: str
) -> None:
    assert embedded.cosine(a, b) > embedded.embedder.calibration.to_raw(0.85)


@pytest.mark.parametrize(("a", "b"), RELATED)
def test_dedup_threshold_keeps_memory_when_fact_is_related_but_different(
    embedded: Embedded, a: str, b: str
) -> None:
    assert embedded.cosine(a, b) <= embedded.embedder.calibration.to_raw(0.85)


@pytest.mark.parametrize(("a", "b"), UNRELATED)
def test_evolution_band_excludes_pair_when_topics_are_unrelated(
    embedded: Embedded, a: str, b: str
) -> None:
    assert embedded.cosine(a, b) < embedded.embedder.calibration.to_raw(0.8)


def test_calibration_anchors_are_monotone_and_end_at_one_when_shipped(embedded: Embedded) -> None:
    calibration = embedded.embedder.calibration
    anchors = calibration.anchors
    assert [spec for spec, _ in anchors] == sorted({spec for spec, _ in anchors})
    assert [raw for _, raw in anchors] == sorted({raw for _, raw in anchors})
    assert calibration.to_raw(1.0) == 1.0
    assert calibration.to_raw(0.8) < calibration.to_raw(0.85) < 1.0
