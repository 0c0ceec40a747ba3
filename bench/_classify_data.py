"""The learned judge's training data (``bench/train_classifier.py``): its sources, every pair
measured once, and the configurations a grid may choose.

``load_data`` reads every source and measures each pair as the service does (named features,
the vector blocks, the rules' verdicts, whether the new memory holds several sentences, and a
row per sentence of those that do); ``twin_groups`` keeps a pair and its translation in one
cross-validation fold; ``folds_of`` names the sources left out in turn.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from _classify_common import LABELS, featurise, load_pairs
from _classify_extra import Extra, distractor_pairs, duplicate_pairs
from _classify_sentences import sentence_pairs
from lib.reports import REPO
from omoide.engine.classify import (
    ALIGN_FEATURES,
    EMBEDDING_FEATURES,
    EXTEND_ONLY,
    JUDGE_CAPS,
    NOTE_NEAREST_GUARDS,
    SUBJECT_FEATURES,
    SURE_ONLY,
    TEXT_FEATURES,
    VECTOR_BLOCKS,
    VETO_FEATURES,
    VETO_ONLY,
    Relation,
    one_statement,
    rule_decides,
    sure_close,
    vetoed,
)

DATA = REPO / "bench" / "data"
EXTENDABLE = Relation.EXTENDABLE.value
# The held-out sets, each scored once in an earlier round and seen since: the LOSO folds
# (with the two sets of short one-clause statements, session 29); up to holdout73 and notes51,
# the sets session 50 scored fresh (``classify_split.CHOOSE`` leaves the newest out of training).
HOLDOUTS: dict[str, Path] = {
    **{f"holdout{n}": DATA / f"classify_holdout{'' if n == 1 else n}.jsonl" for n in range(1, 74)},
    **{f"short{n}": DATA / f"classify_short{n}.jsonl" for n in (1, 2)},
}
# Notes written as Omoide's own consolidator writes them (several sentences, third person,
# resolved dates): a fold like the writers', read when the file is there.
NOTES: dict[str, Path] = {f"notes{n}": DATA / f"classify_notes{n}.jsonl" for n in range(1, 52)}
BLOCKS: tuple[str, ...] = VECTOR_BLOCKS  # every block is measured; a configuration reads some
# Which vector blocks a configuration reads: the asymmetric ones of every earlier round (new −
# old and the two differing parts), or those and the symmetric |new − old| and new ∘ old.
BLOCK_SETS: dict[str, tuple[str, ...]] = {
    "parts": ("diff", "new_part", "old_part"),
    "parts+sym": ("diff", "new_part", "old_part", "absdiff", "prod"),
}
# Which named features the model reads (the cosines always): the rules' signals with the typed
# slot comparison, with or without the head-versus-rest and negation-scope features, and the
# same without the one-hot name of the rule that fired (the rule's verdict stays), which ties
# the model less to the rules' quirks. (The rules without the slots lost in every setting of
# the third round and left the grid.)
# The veto-only signals (``VETO_ONLY``) are in no set: they block a close, the model never
# weighs them.
_READ = tuple(
    f
    for f in TEXT_FEATURES
    if f not in VETO_ONLY + SURE_ONLY + JUDGE_CAPS + EXTEND_ONLY + NOTE_NEAREST_GUARDS
)
_BASE = tuple(f for f in _READ if f not in ALIGN_FEATURES)
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "rules+slots+scope": tuple(f for f in _BASE if f not in SUBJECT_FEATURES),
    "rules+slots+scope+subject": _BASE,
    "rules+slots+scope+subject+align": _READ,
}  # (without the one-hot rule names lost in every setting of the sixth round's scratch runs)
ALWAYS_FIT = ("pairs",)  # always in the fitting set: the held-out writers are the folds
CLASSES = tuple(Relation(label) for label in LABELS)
CONTRA = CLASSES.index(Relation.CONTRADICTORY)


@dataclass(frozen=True)
class Data:
    """Every pair of every source, measured once: named features, vector blocks, labels."""

    names: tuple[str, ...]  # the columns of x
    x: np.ndarray
    blocks: list[np.ndarray]
    y: np.ndarray
    langs: np.ndarray
    sources: np.ndarray
    groups: np.ndarray
    rules: list[str]
    rule_says: np.ndarray
    forced: np.ndarray  # the rules decide whatever the overrides (a measured number changed)
    several: np.ndarray  # the new memory holds several sentences: it closes nothing (the guard)
    note: np.ndarray  # a consolidated note (a NOTES source): read as the server reads one
    # (``Classifier.classify(..., note=True)``): never closed through the statements' threshold
    # ... unless one of its sentences, read alone, is CONTRADICTORY (``_classify_sentences``):
    sentences: Data | None = None  # a row per sentence of each several-sentence new memory
    parent: np.ndarray | None = None  # the pair each sentence row comes from
    # Rows fitted on and never scored (``_classify_extra``): distractors and dedup duplicates;
    # ``extra_parent`` is the pair a row comes from (fitted on with it), -1 for a row fitted on
    # in every fold; ``extra_weight`` its sample weight (a labelled pair weighs 1).
    extra: Data | None = None
    extra_parent: np.ndarray | None = None
    extra_weight: np.ndarray | None = None

    @property
    def vetoed(self) -> np.ndarray:
        """The pairs that never close whatever the model says: one of ``VETO_FEATURES`` is set
        (the new memory is another person's own fact or leaves the old amount as it was), the
        list ``judge_signals.vetoed`` reads at run time."""
        columns = [self.names.index(name) for name in VETO_FEATURES]
        return (self.x[:, columns] > 0).any(axis=1)

    @property
    def extends(self) -> np.ndarray:
        """The pairs whose INDEPENDENT from the model is EXTENDABLE all the same: one of
        ``EXTEND_ONLY`` is set (the new memory is about a thing the old one names,
        ``learned.extends``)."""
        columns = [self.names.index(name) for name in EXTEND_ONLY]
        return (self.x[:, columns] > 0).any(axis=1)

    @property
    def capped(self) -> np.ndarray:
        """The pairs that never close through the statements' threshold: a several-sentence new
        memory or a consolidated note (either may close only through one sentence read alone,
        ``_classify_sentences``), or a vetoed pair (``vetoed``)."""
        return self.several | self.note | self.vetoed

    def columns(self, feature_set: str) -> np.ndarray:
        wanted = set(FEATURE_SETS[feature_set]) | set(EMBEDDING_FEATURES)
        return np.array([i for i, n in enumerate(self.names) if n in wanted])


@dataclass(frozen=True)
class Config:
    features: str
    reduce: str
    c: float
    blocks: str = "parts"  # a key of BLOCK_SETS
    head: str = "linear"  # "linear": logistic regression (C = ``c``); "net": one hidden layer;
    # "trees": boosted trees (compared in round 28, never shipped)
    units: int = 32  # the net's hidden units and L2 penalty (``_classify_model.NET``: round 28's)
    alpha: float = 1.0

    def label(self) -> str:
        head = {"net": ", net", "trees": ", boosted trees"}.get(self.head, f", C={self.c}")
        if self.head == "net" and (self.units, self.alpha) != (32, 1.0):
            head += f" of {self.units} units, alpha {self.alpha:g}"
        return f"{self.features}, blocks={self.blocks} by {self.reduce}{head}"

    def block_rows(self) -> list[int]:
        """Which of ``Data.blocks`` (in BLOCKS order) this configuration reads."""
        return [] if self.reduce == "none" else [BLOCKS.index(b) for b in BLOCK_SETS[self.blocks]]


def folds_of(data: Data) -> list[str]:
    """The sources left out in turn: every source but those always fitted on (ALWAYS_FIT)."""
    return [str(s) for s in np.unique(data.sources) if s not in ALWAYS_FIT]


def twin_groups(pairs, sources: list[str]) -> np.ndarray:
    """A pair and its translation share a group: ``twin`` when the pair has one, else its
    position within its label and kind (the first batches were written side by side). A
    source without twins (written per language, not translated) puts each pair alone."""
    seen: Counter[tuple[str, str, str]] = Counter()
    groups = []
    for p, source in zip(pairs, sources, strict=True):
        if p.twin:
            groups.append(f"{source}:twin:{p.twin}")
        elif source != "pairs":
            groups.append(f"{source}:{p.id}")
        else:
            key = (p.lang, p.label, p.kind)
            groups.append(f"{source}:{p.label}:{p.kind}:{seen[key]}")
            seen[key] += 1
    return np.array(groups)


def load_data(sources: dict[str, Path], embedder, extra: Extra | None = None) -> Data:
    extra = extra or Extra()
    pairs, source_of = [], []
    for name, path in sources.items():
        rows = load_pairs(path)
        pairs += rows
        source_of += [name] * len(rows)
    data = data_of(pairs, source_of, embedder)
    several, parent = sentence_pairs(pairs, data.several | data.note)
    sentences = data_of(several, [source_of[i] for i in parent], embedder)
    data = replace(data, sentences=sentences, parent=parent)
    distractors, parents = (
        distractor_pairs(pairs, source_of, embedder, extra.distractors) if embedder else ([], [])
    )
    duplicates, names = duplicate_pairs(list(extra.duplicates))
    if not distractors and not duplicates:
        return data
    rows = data_of(distractors + duplicates, [source_of[i] for i in parents] + names, embedder)
    # A distractor is not CONTRADICTORY; whether EXTENDABLE or INDEPENDENT nobody labelled, so
    # it is fitted on as both, half its weight each: its rows again, labelled EXTENDABLE.
    again = np.arange(len(distractors))
    rows = replace(
        rows,
        x=np.vstack([rows.x, rows.x[again]]),
        blocks=[np.vstack([b, b[again]]) for b in rows.blocks],
        y=np.concatenate([rows.y, np.full(len(again), LABELS.index(EXTENDABLE))]),
        langs=np.concatenate([rows.langs, rows.langs[again]]),
        sources=np.concatenate([rows.sources, rows.sources[again]]),
    )
    half = extra.distractor_weight / 2
    return replace(
        data,
        extra=rows,
        extra_parent=np.array(parents + [-1] * len(duplicates) + parents, dtype=int),
        extra_weight=np.array(
            [half] * len(distractors)
            + [extra.duplicate_weight] * len(duplicates)
            + [half] * len(distractors)
        ),
    )


def _closes(text) -> bool:
    """A close-only signal decides the pair, as ``learned.judge`` reads it at run time (a veto
    still wins)."""
    return sure_close(text) and not vetoed(text)


def data_of(pairs, source_of: list[str], embedder) -> Data:
    """Every pair measured once (``load_data``)."""
    rows = featurise(pairs, embedder)
    names = TEXT_FEATURES + (EMBEDDING_FEATURES if embedder else ())
    dim = embedder.dim if embedder else 0
    width = len(names)
    full = (
        np.array([r.vector(BLOCKS, dim) for r in rows])
        if embedder
        else np.array([r.vector() for r in rows])
    )
    if not rows:  # a set without a several-sentence row has no sentence rows: (0, columns)
        full = np.zeros((0, width + (len(BLOCKS) * dim if embedder else 0)))
    blocks = (
        [full[:, width + i * dim : width + (i + 1) * dim] for i in range(len(BLOCKS))]
        if embedder
        else []
    )
    return Data(
        names=names,
        x=full[:, :width],
        blocks=blocks,
        y=np.array([LABELS.index(p.label) for p in pairs]),
        langs=np.array([p.lang for p in pairs]),
        sources=np.array(source_of),
        groups=twin_groups(pairs, source_of),
        rules=[r.text.rule for r in rows],
        rule_says=np.array(
            [
                CLASSES.index(
                    Relation.CONTRADICTORY if _closes(r.text) else r.text.finding.relation
                )
                for r in rows
            ]
        ),
        forced=np.array([_closes(r.text) or rule_decides(r.text, ()) for r in rows], dtype=bool),
        several=np.array([not one_statement(p.new, p.lang) for p in pairs], dtype=bool),
        note=np.array([s in NOTES for s in source_of], dtype=bool),
    )
