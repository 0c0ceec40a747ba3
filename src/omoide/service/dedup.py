"""Dedup's decision: is a near-copy above the dedup threshold a duplicate? (DESIGN write path
step 2; spec §dedup)

The veto (``engine.classify.find_dedup_change``) reads the values it knows; the learned judge
(``engine.classify.dedup_judge``) weighs its finding with the pair's cosine and the aligned
difference, whose two parts this class embeds with the model's ``part_embedder`` (the bundled
USE: the server's own embedder when it is USE, else one instance per process built on first
use through the wiring's ``bundled`` builder; only for candidates the judge weighs; when
dedup's notation rewrote either text, the two read texts are also embedded with the server's
own embedder: ``notation_cosine``). Every candidate of one write is read first and judged
together (:meth:`DedupDecider.first_duplicate`): one call of the part embedder and one of the
server's embedder for all of them, each distinct text once (the new memory's read text, the
same for most candidates, is embedded once); both read through the server's shared vector cache
(``service.vector_cache``), so a text the judge or an earlier write embedded is not embedded again.
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
so do a status said on one side only (``engine.classify.dedup_status``; a future said as a
plan on one side only is no status; an English verb said as not yet done on one side and done
on the other, ``dedup_aspect``), a bound turned round or a clock time moved and, in
Japanese, a predicate or a noun denied on one side only, a denial widened, a favour turned
around or a katakana word replaced by another, in English the holder moved to a person of the
user's, two short parts traded or the same words denied on one side only
(``engine.classify.dedup_polarity``, ``dedup_en_turns``), nor a plain number or
a weekday replaced by another that the veto found (``engine.classify.value_replaced``: the judge
used to weigh such a change away when its cosine was high, losing the changed fact).
A drop the learned judge makes (never one of those rules') is vetoed when the new memory tells
a change in so many words that the old one does not (``engine.classify.change_told``: an end,
a switch, a start, a return, a state said as it is now — "no longer", "has switched to",
"now", やめた, ようになった, 最近 —, read on the texts as written): the judge reads such a
change in other words as one more wording of the old fact. So is one whose new memory states
content the old one lacks (``engine.classify.added_information``, read in dedup's notation:
content words new to it, beyond those it leaves out; a number or a reason clause): an
extension restated in another sentence shape reads to the judge as a paraphrase.

The candidates: the dedup threshold (``dedup_threshold``, through the embedder's calibration)
gates them; a judge with a *floor* (``floor_margin`` in its JSON, chosen by the training) also
judges candidates from that many spec units below the threshold, with the band's own
probability threshold (:meth:`DedupDecider.floor`). The veto alone has no floor.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.calibration import Calibration
from omoide.engine.classify import (
    DedupModel,
    ValueChange,
    added_information,
    change_told,
    changed_parts,
    dedup_features,
    find_dedup_change,
    names_differ,
    pair_notation,
    polarity_changed,
    status_changed,
    swapped_parts,
    value_replaced,
)
from omoide.service.classify_judge import LazyEmbedder, packaged_file
from omoide.service.vector_cache import VectorCache

__all__ = [
    "DEDUP_JUDGE_FILE",
    "KANJI_READINGS_FILE",
    "DedupDecider",
    "kanji_readings",
    "load_dedup_models",
]

logger = logging.getLogger(__name__)

DEDUP_JUDGE_FILE = "dedup_judge.json"
KANJI_READINGS_FILE = "kanji_readings.json"  # each kanji's readings (bench/make_kanji_readings.py)


@cache
def kanji_readings() -> dict[str, str]:
    """The packaged table of each kanji's readings in hiragana, which dedup's notation reads a
    kana spelling of a kanji word through (``engine.classify.dedup_kanji``); empty when the
    file is absent."""
    return dict(packaged_file(KANJI_READINGS_FILE).get("readings", {}))


def load_dedup_models() -> dict[str, tuple[DedupModel, str]]:
    """The packaged dedup judges by server embedder model id, each with the setting name of
    its part embedder ("use"); empty when the file is absent."""
    return {
        m["embedder"]: (DedupModel.from_dict(m), str(m["part_embedder_name"]))
        for m in packaged_file(DEDUP_JUDGE_FILE).get("models", [])
    }


class DedupDecider:
    """Decides whether ``new`` duplicates ``old`` once their cosine is above the threshold.

    ``bundled`` builds a bundled embedder by setting name (the wiring's shared builder); None
    keeps the veto alone unless the server's own embedder is the part embedder. ``vectors``:
    the server's shared vector cache (one of its own when none is given)."""

    def __init__(
        self,
        embedder: Embedder,
        bundled: Callable[[str], Embedder] | None = None,
        *,
        vectors: VectorCache | None = None,
    ) -> None:
        self.model: DedupModel | None = None
        self.parts: Embedder | LazyEmbedder | None = None
        self.embedder = embedder
        self.vectors = vectors if vectors is not None else VectorCache()
        found = load_dedup_models().get(embedder.model_id)
        if found is None:
            logger.info(
                "no dedup judge for embedder %s; dedup keeps the value veto alone",
                embedder.model_id,
            )
            return
        model, part_name = found
        if model.part_embedder == embedder.model_id:
            self.parts = embedder
        elif bundled is not None:
            self.parts = LazyEmbedder(model.part_embedder, lambda: bundled(part_name))
        else:
            return
        self.model = model

    def load_parts(self) -> Embedder | None:
        """The part embedder, loaded now when it is built on first use (the bundled one; the
        server's warm-up calls this so a first write does not wait for it), or None when dedup
        has none."""
        return self.parts.load() if isinstance(self.parts, LazyEmbedder) else self.parts

    def floor(self, calibration: Calibration, threshold: float) -> float:
        """The raw cosine above which a current memory is a candidate, for the spec-scale
        dedup ``threshold``: the judge's floor below it, or the threshold itself."""
        margin = self.model.floor_margin if self.model is not None else 0.0
        return calibration.to_raw(threshold - margin)

    def part_cosine(self, old: str, new: str) -> float | None:
        """The cosine of the two memories' aligned difference (None when one side is empty)."""
        return self.part_cosines([(old, new)])[0]

    def part_cosines(self, pairs: Sequence[tuple[str, str]]) -> list[float | None]:
        """:meth:`part_cosine` of several pairs from one call of the part embedder (each
        distinct part once)."""
        parts = [changed_parts(old, new) for old, new in pairs]
        texts = list(
            dict.fromkeys(
                t for removed, added in parts if removed and added for t in (removed, added)
            )
        )
        if not texts or self.parts is None:
            return [None] * len(parts)
        vectors = self.vectors.passages(self.parts, texts)
        return [
            float(np.dot(vectors[removed], vectors[added])) if removed and added else None
            for removed, added in parts
        ]

    def notation_cosine(self, raw: tuple[str, str], read: tuple[str, str]) -> float | None:
        """The two memories' cosine on the server's embedder once read in dedup's notation
        (``read``): None (the raw cosine) when the notation changed neither text, else one
        embed call of the two read texts."""
        return self.notation_cosines([raw], [read])[0]

    def notation_cosines(
        self, raws: Sequence[tuple[str, str]], reads: Sequence[tuple[str, str]]
    ) -> list[float | None]:
        """:meth:`notation_cosine` of several pairs from ONE embed call of their distinct read
        texts (the new memory's read text, the same for most candidates, is embedded once);
        no call when the notation changed no pair."""
        changed = [read != raw for raw, read in zip(raws, reads, strict=True)]
        texts = list(
            dict.fromkeys(t for read, c in zip(reads, changed, strict=True) if c for t in read)
        )
        if not texts:
            return [None] * len(reads)
        vectors = self.vectors.passages(self.embedder, texts)
        return [
            float(np.dot(vectors[a], vectors[b])) if c else None
            for (a, b), c in zip(reads, changed, strict=True)
        ]

    def _screen(self, old: str, new: str, in_band: bool) -> tuple[bool | None, ValueChange | None]:
        """The rules that decide before the judge (both texts already in dedup's notation):
        (verdict, None) when one decides, else (None, the veto's finding)."""
        if old == new:  # the same text once read in one notation: 2 / two, です / だ
            return True, None
        if swapped_parts(old, new) is not None:  # "A rather than B" / "B rather than A"
            return False, None
        if status_changed(old, new):  # "is flying to Reykjavik" / "the flight was cancelled"
            return False, None
        if polarity_changed(old, new):  # 週末は映画を見ない / 週末も映画を見る
            return False, None
        change = find_dedup_change(old, new)
        # below the threshold a value change always keeps; above it, a number or a weekday
        # replaced by another ("£40" / "£45", Tuesdays / Thursdays) keeps too
        if change is not None and (in_band or value_replaced(change)):
            return False, None
        if self.model is None:
            return change is None and not in_band, None
        return None, change

    def first_duplicate(
        self, new: str, candidates: Sequence[tuple[str, float, bool]]
    ) -> int | None:
        """The index of the first candidate (old text, raw cosine, in the floor's band) that
        ``new`` duplicates, or None. Every pair is read first, so the notation cosines of all
        the candidates the judge weighs come from one call of the server's embedder, and their
        aligned differences from one call of the part embedder."""
        reads = [pair_notation(old, new, kanji=kanji_readings()) for old, _, _ in candidates]
        # another name or form of address, read on the texts as written: the notation reading
        # may fold one name into the other (Ashworth / Ash, 「白鳥」 / 「黒鳥」)
        screened = [
            (False, None) if names_differ(old, new) else self._screen(a, b, in_band)
            for (a, b), (old, _, in_band) in zip(reads, candidates, strict=True)
        ]
        judged = [i for i, (verdict, _) in enumerate(screened) if verdict is None]
        cosines = dict(
            zip(
                judged,
                self.notation_cosines(
                    [(candidates[i][0], new) for i in judged], [reads[i] for i in judged]
                ),
                strict=True,
            )
        )
        parts = dict(zip(judged, self.part_cosines([reads[i] for i in judged]), strict=True))
        for i, (verdict, change) in enumerate(screened):
            if verdict is None:
                assert self.model is not None
                old, read_new = reads[i]
                row = dedup_features(
                    old,
                    read_new,
                    cosine=candidates[i][1],
                    part_cosine=parts[i],
                    change=change,
                    notation_cosine=cosines[i],
                )
                # the judge's drop, not a sure screen's: kept when the new memory tells a
                # change in so many words that the old one does not (read as written)
                verdict = (
                    self.model.is_duplicate(row, in_band=candidates[i][2])
                    and change_told(candidates[i][0], new) is None
                    # nor when it states content the old one lacks (read in one notation)
                    and added_information(old, read_new, (candidates[i][0], new)) is None
                )
            if verdict:
                return i
        return None

    def duplicate_among(
        self,
        new: str,
        scored: Sequence[tuple[str, float]],
        calibration: Calibration,
        threshold: float,
    ) -> int | None:
        """The index of the first of ``scored`` (old text, raw cosine, nearest first) that
        ``new`` duplicates at the spec-scale dedup ``threshold``, or None: those above the
        floor (:meth:`floor`) are judged, those at or below the raw threshold as in the band."""
        raw = calibration.to_raw(threshold)
        floor = min(raw, self.floor(calibration, threshold))
        above = [i for i, (_, cosine) in enumerate(scored) if cosine > floor]
        first = self.first_duplicate(
            new, [(scored[i][0], scored[i][1], scored[i][1] <= raw) for i in above]
        )
        return None if first is None else above[first]

    def is_duplicate(self, old: str, new: str, cosine: float, *, in_band: bool = False) -> bool:
        """``in_band``: the cosine is below the dedup threshold and above the floor."""
        return self.first_duplicate(new, [(old, cosine, in_band)]) == 0
