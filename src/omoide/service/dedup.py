"""Dedup's decision: is a near-copy above the dedup threshold a duplicate? (DESIGN write path
step 2; spec §dedup)

The veto (``engine.classify.find_dedup_change``) reads the values it knows; the learned judge
(``engine.classify.dedup_judge``) weighs its finding with the pair's cosine and the aligned
difference, whose two parts this class embeds with the model's ``part_embedder`` (the bundled
USE: the server's own embedder when it is USE, else one instance per process built on first
use through the wiring's ``bundled`` builder; one short batch, only for a candidate
above the threshold; when dedup's notation rewrote either text, the two read texts are also
embedded with the server's own embedder, one more batch of two texts per candidate:
``notation_cosine``).
The trained weights ship as ``engine/classify/dedup_judge.json``
(``bench/train_dedup.py``), one model per server embedder model id. An embedder without one
(the model-free hashing embedder, an external model), or a server that cannot build the part
embedder, keeps the veto alone: any value change it finds keeps the new memory. Either way, the two
texts are first read in one notation (``engine.classify.pair_notation``: full-width forms,
numbers, ordinals, clocks and dates, polite and contracted endings, unit words, British and
American spellings, the user's first-person forms, discourse fillers, a Japanese word spelt in
katakana or hiragana, or with a long-vowel or ヴ spelling, one swapped case particle, an acronym
and its words, a hyphenated word), and two parts that traded
places around a word ("prefers A to B" / "prefers B to A", ``engine.classify.dedup_order``) keep the
new memory: the embedding, the veto and the aligned difference all read the same words there;
so do a status said on one side only (``engine.classify.dedup_status``) and, in Japanese, a
predicate denied on one side only, a denial widened or a favour turned around
(``engine.classify.dedup_polarity``).

The candidates: the dedup threshold (``dedup_threshold``, through the embedder's calibration)
gates them; a judge with a *floor* (``floor_margin`` in its JSON, chosen by the training) also
judges candidates from that many spec units below the threshold, with the band's own
probability threshold (:meth:`DedupDecider.floor`). The veto alone has no floor.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import cache
from importlib import resources

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.calibration import Calibration
from omoide.engine.classify import (
    DedupModel,
    changed_parts,
    dedup_features,
    find_dedup_change,
    pair_notation,
    polarity_changed,
    status_changed,
    swapped_parts,
)
from omoide.service.classify_judge import LazyEmbedder

__all__ = ["DEDUP_JUDGE_FILE", "DedupDecider", "load_dedup_models"]

logger = logging.getLogger(__name__)

DEDUP_JUDGE_FILE = "dedup_judge.json"


@cache
def _dedup_file() -> dict:
    path = resources.files("omoide.engine.classify").joinpath(DEDUP_JUDGE_FILE)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def load_dedup_models() -> dict[str, tuple[DedupModel, str]]:
    """The packaged dedup judges by server embedder model id, each with the setting name of
    its part embedder ("use"); empty when the file is absent."""
    return {m["embedder"]: (DedupModel.from_dict(m), str(m["part_embedder_name"]))
            for m in _dedup_file().get("models", [])}


class DedupDecider:
    """Decides whether ``new`` duplicates ``old`` once their cosine is above the threshold.

    ``bundled`` builds a bundled embedder by setting name (the wiring's shared builder); None
    keeps the veto alone unless the server's own embedder is the part embedder."""

    def __init__(self, embedder: Embedder,
                 bundled: Callable[[str], Embedder] | None = None) -> None:
        self.model: DedupModel | None = None
        self.parts: Embedder | LazyEmbedder | None = None
        self.embedder = embedder
        found = load_dedup_models().get(embedder.model_id)
        if found is None:
            logger.info("no dedup judge for embedder %s; dedup keeps the value veto alone",
                        embedder.model_id)
            return
        model, part_name = found
        if model.part_embedder == embedder.model_id:
            self.parts = embedder
        elif bundled is not None:
            self.parts = LazyEmbedder(model.part_embedder, lambda: bundled(part_name))
        else:
            return
        self.model = model

    def floor(self, calibration: Calibration, threshold: float) -> float:
        """The raw cosine above which a current memory is a candidate, for the spec-scale
        dedup ``threshold``: the judge's floor below it, or the threshold itself."""
        margin = self.model.floor_margin if self.model is not None else 0.0
        return calibration.to_raw(threshold - margin)

    def part_cosine(self, old: str, new: str) -> float | None:
        """The cosine of the two memories' aligned difference (None when one side is empty)."""
        removed, added = changed_parts(old, new)
        if not removed or not added or self.parts is None:
            return None
        vectors = self.parts.embed_passages([removed, added])
        return float(np.dot(vectors[0], vectors[1]))

    def notation_cosine(self, raw: tuple[str, str], read: tuple[str, str]) -> float | None:
        """The two memories' cosine on the server's embedder once read in dedup's notation
        (``read``): None (the raw cosine) when the notation changed neither text, else one
        embed call of the two read texts."""
        if read == raw:
            return None
        vectors = self.embedder.embed_passages(list(read))
        return float(np.dot(vectors[0], vectors[1]))

    def is_duplicate(self, old: str, new: str, cosine: float, *, in_band: bool = False
                     ) -> bool:
        """``in_band``: the cosine is below the dedup threshold and above the floor."""
        raw = (old, new)
        old, new = pair_notation(old, new)
        if swapped_parts(old, new) is not None:  # "A rather than B" / "B rather than A"
            return False
        if status_changed(old, new):  # "is flying to Tokyo" / "the flight was cancelled"
            return False
        if polarity_changed(old, new):  # 週末は映画を見ない / 週末も映画を見る
            return False
        change = find_dedup_change(old, new)
        if in_band and change is not None:  # below the threshold a value change always keeps
            return False
        if self.model is None:
            return change is None and not in_band
        row = dedup_features(old, new, cosine=cosine, part_cosine=self.part_cosine(old, new),
                             change=change,
                             notation_cosine=self.notation_cosine(raw, (old, new)))
        return self.model.is_duplicate(row, in_band=in_band)
