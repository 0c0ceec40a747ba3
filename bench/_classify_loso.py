"""The learned judge's leave-one-source-out and cross-validated scores
(``bench/train_classifier.py``): fit on some sources, predict the others, as at run time.

``fit_on`` fits a configuration on some rows (one-statement new memories only) with the rules
sure on them; ``predict_on`` gives probabilities and whether a sure rule decides instead;
``cross_source`` leaves each source out in turn; ``predictions`` turns probabilities into
verdicts as ``learned.judge`` does; ``evaluate`` scores one configuration and chooses its
thresholds (``_classify_thresholds``).
"""

from __future__ import annotations

import numpy as np

from _classify_data import CLASSES, CONTRA, Config, Data, folds_of
from _classify_model import fit_logistic, fit_net, fit_trees, probabilities, project, sklearn_parts
from _classify_sentences import choose_sentence_threshold, sentence_scores
from _classify_thresholds import THRESHOLDS, choose_thresholds, curve, scores
from omoide.engine.classify import Relation, decide_relation

FOLDS = 5
MIN_RULE_FIRINGS = 8


def fit_on(data: Data, idx: np.ndarray, cfg: Config):
    """Fit a model on the rows ``idx`` whose new memory may close another (one statement: the
    several-sentence guard decides the rest at run time, so they teach the judge nothing it
    uses, and with consolidated notes among the sources they cost the writers' folds);
    returns (params, projection, columns, overrides, block rows)."""
    idx = idx[~data.several[idx]]
    cols = data.columns(cfg.features)
    rows = cfg.block_rows() if data.blocks else []
    blocks = [data.blocks[k][idx] for k in rows]
    z, fitted = (
        project(blocks, cfg.reduce, data.y[idx]) if blocks else (np.zeros((len(idx), 0)), [])
    )
    x, y, weight = np.hstack([data.x[idx][:, cols], z]), data.y[idx], np.ones(len(idx))
    extra = _extra_rows(data, idx)
    if extra is not None and len(extra):
        e = data.extra
        ez = (
            project([e.blocks[k][extra] for k in rows], "centroid", fitted=fitted)[0]
            if fitted
            else np.zeros((len(extra), 0))
        )
        x = np.vstack([x, np.hstack([e.x[extra][:, cols], ez])])
        y = np.concatenate([y, e.y[extra]])
        weight = np.concatenate([weight, data.extra_weight[extra]])
    if cfg.head == "net":
        params = fit_net(x, y, weight, cfg.units, cfg.alpha)
    elif cfg.head == "trees":
        params = fit_trees(x, y, weight)
    else:
        params = fit_logistic(x, y, cfg.c, weight)
    return params, fitted, cols, sure_rules(data, idx), rows


def _extra_rows(data: Data, idx: np.ndarray) -> np.ndarray | None:
    """The extra rows (``Data.extra``) fitted on with the pairs ``idx``: those of a pair fitted
    on, and those fitted on in every fold. The blocks' directions are fitted on the labelled
    pairs alone; the extra rows are read along them."""
    if data.extra is None or data.extra_parent is None:
        return None
    fitted = np.zeros(len(data.y) + 1, dtype=bool)  # the last entry: parent -1, every fold
    fitted[idx], fitted[-1] = True, True
    return np.flatnonzero(fitted[data.extra_parent])


def predict_on(data: Data, idx: np.ndarray, fitted_model) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities for rows ``idx`` and whether a rule decides each of them instead."""
    params, fitted, cols, overrides, rows = fitted_model
    blocks = [data.blocks[k][idx] for k in rows] if fitted else []
    z = project(blocks, "centroid", fitted=fitted)[0] if fitted else np.zeros((len(idx), 0))
    probs = probabilities(params, np.hstack([data.x[idx][:, cols], z]))
    # As ``learned.rule_decides`` at run time: a sure rule decides about one subject only.
    other_subject = data.x[:, data.names.index("subject_differs")] > 0
    ruled = np.array(
        [data.forced[i] or (data.rules[i] in overrides and not other_subject[i]) for i in idx],
        dtype=bool,
    )
    return probs, ruled


def sure_rules(data: Data, idx: np.ndarray) -> tuple[str, ...]:
    """Rules right on every pair of ``idx`` where they fired (and that fired often enough)."""
    sure = []
    other_subject = data.x[:, data.names.index("subject_differs")] > 0
    for rule in sorted({data.rules[i] for i in idx}):
        hits = [i for i in idx if data.rules[i] == rule and not other_subject[i]]
        if len(hits) >= MIN_RULE_FIRINGS and all(data.rule_says[i] == data.y[i] for i in hits):
            sure.append(rule)
    return tuple(sure)


def cross_validated(data: Data, cfg: Config) -> tuple[np.ndarray, np.ndarray]:
    """Grouped 5-fold out-of-fold probabilities over all sources (twins in one fold)."""
    _, folds = sklearn_parts()
    probs, ruled = np.zeros((len(data.y), len(CLASSES))), np.zeros(len(data.y), dtype=bool)
    strata = np.char.add(np.char.add(data.sources, data.langs), data.y.astype(str))
    for train, test in folds(FOLDS, shuffle=True, random_state=0).split(
        data.x, strata, data.groups
    ):
        probs[test], ruled[test] = predict_on(data, test, fit_on(data, train, cfg))
    return probs, ruled


def cross_source(data: Data, cfg: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Leave one source out: each source predicted by a model fitted on the others only;
    with each pair's sentence score (``sentence_score``) by the same model."""
    probs, ruled = np.zeros((len(data.y), len(CLASSES))), np.zeros(len(data.y), dtype=bool)
    score = np.full(len(data.y), -1.0)
    for source in folds_of(data):
        test, train = np.flatnonzero(data.sources == source), np.flatnonzero(data.sources != source)
        model = fit_on(data, train, cfg)
        probs[test], ruled[test] = predict_on(data, test, model)
        fold = sentence_score(data, model, source)
        score = np.where(fold >= 0, fold, score)
    return probs, ruled, score


def sentence_score(data: Data, model, source: str | None = None) -> np.ndarray:
    """Per pair (of ``source``, or all), the highest CONTRADICTORY score of its new memory's
    sentences read alone by ``model``; -1 for a pair whose new memory is one statement."""
    if data.sentences is None or data.parent is None:
        return np.full(len(data.y), -1.0)
    rows = (
        np.arange(len(data.sentences.y))
        if source is None
        else np.flatnonzero(data.sentences.sources == source)
    )
    probs, ruled = (
        predict_on(data.sentences, rows, model)
        if len(rows)
        else (np.zeros((0, len(CLASSES))), np.zeros(0, dtype=bool))
    )
    vetoed = data.sentences.vetoed[rows]  # another person's own fact scores 0, as at run time
    probs[vetoed, CONTRA], ruled = 0.0, ruled & ~vetoed
    return sentence_scores(
        len(data.y), data.parent, probs, ruled, data.sentences.rule_says, CONTRA, rows
    )


def predictions(
    data: Data,
    probs: np.ndarray,
    ruled: np.ndarray,
    thresholds: dict[str, float],
    score: np.ndarray | None = None,
    sentence_threshold: float = float("inf"),
) -> np.ndarray:
    """The verdicts: a deciding rule's, else the model's under its language's threshold (its
    INDEPENDENT read as EXTENDABLE where the new memory is about a thing the old one names,
    ``Data.extends``); a new memory of several sentences is CONTRADICTORY only when one of its
    sentences scores at least ``sentence_threshold`` (``score``, see ``sentence_score``)."""
    never = float("inf")  # as ``learned.judge`` with may_contradict False
    out = np.array(
        [
            CLASSES.index(decide_relation(p, CLASSES, never if capped else thresholds[lang])[0])
            for p, lang, capped in zip(probs, data.langs, data.capped, strict=True)
        ]
    )
    independent = CLASSES.index(Relation.INDEPENDENT)
    out = np.where((out == independent) & data.extends, CLASSES.index(Relation.EXTENDABLE), out)
    out = np.where(ruled & ~(data.capped & (data.rule_says == CONTRA)), data.rule_says, out)
    if score is not None:
        out = np.where(data.capped & (score >= sentence_threshold), CONTRA, out)
    return out


def evaluate(data: Data, cfg: Config, target: float) -> dict[str, object]:
    """Cross-source and grouped-CV scores of one configuration; the threshold is chosen on
    the cross-source probabilities."""
    probs, ruled, score = cross_source(data, cfg)
    folds = folds_of(data)
    curves = {s: curve(data, probs, ruled, data.sources == s) for s in folds}
    threshold = choose_thresholds(curves, target)
    sentence_threshold, sentence_curve = choose_sentence_threshold(
        score, data.y, data.sources, CONTRA, THRESHOLDS, target
    )
    guard = predictions(data, probs, ruled, threshold)
    pred = predictions(data, probs, ruled, threshold, score, sentence_threshold)
    by_source = {s: scores(data, pred, data.sources == s) for s in folds}
    cv_probs, cv_ruled = cross_validated(data, cfg)
    cv = scores(
        data, predictions(data, cv_probs, cv_ruled, threshold), np.ones(len(data.y), dtype=bool)
    )
    return {
        "config": cfg,
        "threshold": threshold,
        "curve": curves,
        "cross": by_source,
        "cross_f1": round(float(np.mean([s["all_f1"] for s in by_source.values()])), 4),
        "cv": cv,
        "probs": probs,
        "ruled": ruled,
        "score": score,
        "sentence_threshold": sentence_threshold,
        "sentence_curve": sentence_curve,
        "cross_guard": {s: scores(data, guard, data.sources == s) for s in folds},
    }
