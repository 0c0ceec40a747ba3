"""The dedup decider keeps a new memory that states content the old one lacks, even when its
judge calls it a duplicate (``engine.classify.added_information``, consulted after the judge's
drop as ``change_told`` is), and still drops a paraphrase the judge calls one. A judge that
calls every weighed pair a duplicate stands in for the trained one. Invented sentences."""

from __future__ import annotations

import numpy as np
import pytest

from omoide.embed.hashing import HashEmbedder
from omoide.engine.classify import DEDUP_FEATURES, DedupModel
from omoide.service import dedup
from omoide.service.dedup import DedupDecider


def _always_duplicate() -> DedupDecider:
    decider = DedupDecider(HashEmbedder())
    n = len(DEDUP_FEATURES)
    decider.model = DedupModel(
        embedder="hash",
        part_embedder="hash",
        features=DEDUP_FEATURES,
        mean=np.zeros(n),
        scale=np.ones(n),
        weights=np.zeros(n),
        bias=20.0,
        threshold=0.5,
    )
    decider.parts = HashEmbedder()
    return decider


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user keeps a sourdough starter in the fridge.",
            "The sourdough starter the user keeps in the fridge is fed with rye flour on Sundays.",
        ),
        (
            "兄は古い腕時計を集めている。",
            "兄が集めている古い腕時計は、ほとんどが父の形見のスイス製だ。",
        ),
    ],
)
def test_an_extension_is_kept_though_the_judge_drops_it(
    old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    decider = _always_duplicate()
    assert not decider.is_duplicate(old, new, 0.95)
    # without the veto the judge drops it: the veto decides the pair
    monkeypatch.setattr(dedup, "added_information", lambda old, new, written=None: None)
    assert decider.is_duplicate(old, new, 0.95)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user adopted a cat from the shelter.",
            "A cat was adopted from the shelter by the user.",
        ),
        ("ユーザーは毎朝コーヒーを飲む。", "毎朝、ユーザーはコーヒーを飲んでいます。"),
    ],
)
def test_a_paraphrase_is_still_dropped(old: str, new: str) -> None:
    assert _always_duplicate().is_duplicate(old, new, 0.95)
