"""Dedup's learned judge: is a near-copy a duplicate, or did a value change? (pure)

Trigger: a new memory scores above the calibrated dedup threshold against a current one.
Why: the veto (:mod:`dedup_veto`) reads the values it knows (numbers, dated times, bounds, a
swapped Japanese word), but a change it has no rule for (釣り / キャンプ, vegetarian / vegan,
an added clause) was dropped, and a paraphrase it misread (先生 / 教師) was kept. The judge
weighs a few general signals instead of adding one rule per miss:

- ``cosine``: the two memories' raw cosine (the server's embedder);
- ``veto_value`` / ``veto_word``: what the veto found, now a signal, not the verdict: a
  number, time or bound (value) or a word, name, person or polarity (word);
- the *aligned difference*: the two texts read in one notation (``one_notation``) and aligned
  (English words, Japanese characters); what the first says that the second does not
  (``removed``) and the reverse (``added``): ``part_cosine`` (the two parts' cosine on the
  model's ``part_embedder``, the bundled USE, which told a synonym from a word of the same
  kind better than e5; 0 when one is empty), ``one_sided`` (one part empty),
  ``changed_share`` (both parts' length over both texts'), ``only_added`` /
  ``only_removed`` and ``blocks`` (in how many places they differ, up to 4): a one-word swap
  or an added clause is a small difference in one place, a paraphrase rewrites more;
- ``scope``: a limiting, aspect or negated quantifier word added or removed (:mod:`dedup_scope`:
  "don't drive weekends" / "don't drive every weekend", 夜は / 夜しか);
- ``japanese``;
- ``notation_cosine`` (thirteenth round): the two memories' cosine on the server's own
  embedder once both are read in dedup's notation (``pair_notation``: number, date and clock
  formats, spellings, polite endings, first-person forms, … written one way). The raw cosine
  sees "three kids" / "3 children" as two texts; read in one notation, a paraphrase moves
  closer to its twin and a changed value does not. The same as ``cosine`` when the notation
  changed neither text; else the two read texts are embedded (in one call for all of a
  write's candidates, ``service.dedup.DedupDecider.first_duplicate``).
- ``changed_content`` (twenty-fourth round): the share of the changed tokens that are content
  words (:mod:`dedup_content`): a note form, a voice change or another ending changes grammar,
  a related fact changes a content word; ``word_part_cosine``: ``part_cosine`` when the veto
  found a word replaced (0 otherwise), so that the judge can weigh a replaced word by how close
  the part embedder puts the two (a synonym) apart from the pairs where nothing was vetoed.
  A model may leave a feature out (``features`` in its JSON; none does today).

A logistic regression over them (weights in ``dedup_judge.json``, one model per embedder,
trained by ``bench/train_dedup.py``) gives the probability that the pair is a duplicate; the
pair is dropped only above the model's threshold, chosen so that related-but-different pairs
are wrongly dropped at most 1% over all the left-out sources' pairs on e5 and at most 2.5% on
every left-out source on USE (the target is 3%; the rule chosen by nested LOSO,
``bench/dedup_rule_curve.py``). Deterministic; no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

import numpy as np

from omoide.engine.classify.dedup_content import changed_content
from omoide.engine.classify.dedup_number_notation import one_notation
from omoide.engine.classify.dedup_scope import scope_changed
from omoide.engine.classify.value_change import ChangeKind, ValueChange
from omoide.engine.errors import ModelDataError
from omoide.engine.lang import is_japanese

__all__ = [
    "DEDUP_FEATURES",
    "DedupModel",
    "changed_parts",
    "dedup_features",
    "fit_logistic",
    "notation_tokens",
]

DEDUP_FEATURES: tuple[str, ...] = (
    "cosine",
    "veto_value",
    "veto_word",
    "part_cosine",
    "one_sided",
    "changed_share",
    "only_added",
    "only_removed",
    "blocks",
    "scope",
    "japanese",
    "notation_cosine",
    "changed_content",
    "word_part_cosine",
)
_MAX_BLOCKS = 4

_VALUE_KINDS = frozenset({ChangeKind.NUMBER, ChangeKind.TIME})
_EN_WORD = re.compile(r"[a-z0-9]+(?:['.:][a-z0-9]+)*")
_JA_IGNORED = re.compile(r"[\s。、，,.!！?？「」『』()（）・]+")


def _japanese(first: str, second: str) -> bool:
    return is_japanese(first) or is_japanese(second)


def changed_parts(first: str, second: str) -> tuple[str, str]:
    """What ``first`` says that ``second`` does not (removed) and the reverse (added), from
    an alignment of the two in one notation: English by words, Japanese by characters
    (punctuation and spaces left out); "" when nothing differs on that side."""
    removed, added, _ = _aligned(first, second)
    return removed, added


def notation_tokens(first: str, second: str) -> tuple[list[str], list[str], str]:
    """Both texts read in one notation, lower case, as tokens to align: English words, or
    Japanese characters (punctuation and spaces left out) when either text is Japanese; and
    the separator that joins a run of them ("" for Japanese)."""
    a, b = (unicodedata.normalize("NFKC", one_notation(t)).lower() for t in (first, second))
    if _japanese(first, second):
        return list(_JA_IGNORED.sub("", a)), list(_JA_IGNORED.sub("", b)), ""
    return _EN_WORD.findall(a), _EN_WORD.findall(b), " "


@lru_cache(maxsize=256)
def _aligned(first: str, second: str) -> tuple[str, str, int]:
    """:func:`changed_parts` and the number of places where the two texts differ (kept for
    the pair's features, which the decider asks for right after the parts)."""
    x, y, sep = notation_tokens(first, second)
    removed, added, blocks = [], [], 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, x, y, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        blocks += 1
        if i2 > i1:
            removed.append(sep.join(x[i1:i2]))
        if j2 > j1:
            added.append(sep.join(y[j1:j2]))
    return " ".join(removed), " ".join(added), blocks


def dedup_features(
    first: str,
    second: str,
    *,
    cosine: float,
    part_cosine: float | None,
    change: ValueChange | None,
    notation_cosine: float | None = None,
) -> np.ndarray:
    """The DEDUP_FEATURES row of a pair: ``cosine`` of the two memories, ``part_cosine`` of
    their :func:`changed_parts` (None when one is empty), the veto's ``change`` and the
    ``notation_cosine`` of the two read in dedup's notation (None: the notation changed
    neither, so ``cosine``)."""
    removed, added, blocks = _aligned(first, second)
    kind = change.kind if change is not None else None
    row = {
        "cosine": cosine,
        "veto_value": float(kind in _VALUE_KINDS),
        "veto_word": float(kind is not None and kind not in _VALUE_KINDS),
        "part_cosine": 0.0 if part_cosine is None else part_cosine,
        "one_sided": float(part_cosine is None),
        "changed_share": (len(removed) + len(added)) / max(len(first) + len(second), 1),
        "only_added": float(bool(added) and not removed),
        "only_removed": float(bool(removed) and not added),
        "blocks": min(blocks, _MAX_BLOCKS) / _MAX_BLOCKS,
        "scope": float(scope_changed(first, second)),
        "japanese": float(_japanese(first, second)),
        "notation_cosine": cosine if notation_cosine is None else notation_cosine,
        "changed_content": changed_content(removed, added, _japanese(first, second)),
        "word_part_cosine": (
            0.0 if part_cosine is None or kind is None or kind in _VALUE_KINDS else part_cosine
        ),
    }
    return np.array([row[name] for name in DEDUP_FEATURES], dtype=np.float64)


@dataclass(frozen=True)
class DedupModel:
    """One trained dedup judge: ``embedder`` is the model id of the server's embedder (the
    memories' cosine), ``part_embedder`` the one that embeds the aligned difference."""

    embedder: str
    part_embedder: str
    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float  # a duplicate only above this probability (cosine above the threshold)
    # The floor: a candidate from ``floor_margin`` below the dedup threshold (spec scale) up to
    # it is a duplicate only above ``floor_threshold`` (0 margin: no candidate below it).
    floor_margin: float = 0.0
    floor_threshold: float = 1.0

    def probability(self, row: np.ndarray) -> float:
        """The probability that the pair whose DEDUP_FEATURES row this is is a duplicate
        (read on the model's own features); 1 for two statements that read the same in one
        notation (a statement is a duplicate of itself, whatever the weights learnt from pairs
        that differ)."""
        if not set(self.features) <= set(DEDUP_FEATURES):
            raise ModelDataError(
                f"the dedup judge for {self.embedder!r} was trained on other "
                "features; retrain it with bench/train_dedup.py"
            )
        named = dict(zip(DEDUP_FEATURES, row, strict=True))
        if (
            named["changed_share"] == 0
            and not named["veto_value"]
            and not named["veto_word"]
            and not named["scope"]
        ):
            return 1.0
        own = np.array([named[name] for name in self.features], dtype=np.float64)
        z = float(((own - self.mean) / self.scale) @ self.weights + self.bias)
        return 1.0 / (1.0 + np.exp(-z)) if z >= 0 else np.exp(z) / (1.0 + np.exp(z))

    def is_duplicate(self, row: np.ndarray, *, in_band: bool = False) -> bool:
        """Above the probability threshold; ``in_band``: the pair's cosine is below the dedup
        threshold and above the floor, where the band's own threshold applies."""
        return bool(self.probability(row) > (self.floor_threshold if in_band else self.threshold))

    def to_dict(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "part_embedder": self.part_embedder,
            "features": list(self.features),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "weights": self.weights.tolist(),
            "bias": self.bias,
            "threshold": self.threshold,
            "floor_margin": self.floor_margin,
            "floor_threshold": self.floor_threshold,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DedupModel:
        return cls(
            embedder=str(data["embedder"]),
            part_embedder=str(data["part_embedder"]),
            features=tuple(data["features"]),
            mean=np.asarray(data["mean"], dtype=np.float64),
            scale=np.asarray(data["scale"], dtype=np.float64),
            weights=np.asarray(data["weights"], dtype=np.float64),
            bias=float(data["bias"]),
            threshold=float(data["threshold"]),
            floor_margin=float(data.get("floor_margin", 0.0)),
            floor_threshold=float(data.get("floor_threshold", 1.0)),
        )


def fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float, *, iterations: int = 100
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """L2-regularised logistic regression on standardised features, by Newton's method
    (deterministic): (mean, scale, weights, bias). The bias is not regularised."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    penalty = np.diag(np.r_[np.full(x.shape[1], l2), 0.0])
    w = np.zeros(z.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -50, 50)))
        gradient = z.T @ (p - y) + penalty @ w
        hessian = (z.T * (p * (1 - p))) @ z + penalty + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w = w - step
        if float(np.abs(step).max()) < 1e-10:
            break
    return mean, scale, w[:-1], float(w[-1])
