"""The replaced-value tiers' shared parts (``classify_replaced.py``, ``note_replaced.py``) and
the reading of every source twice (also ``classify_related.py``): a pair's verdict with the tier
off and, where a lower threshold would close it, its C probability; per-source tallies pooled;
and the rule: the threshold of a grid with the best mean per-source macro-F1 among those where the
Wilson lower bound (z = 1) of the pooled C precision stays ≥ 0.95, never when none beats leaving
it off.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from _classify_common import load_pairs
from classify import Prediction, predict
from lib.metrics import wilson_lower
from omoide.engine.classify import Judge, JudgeModel, LanguageJudge

C = "CONTRADICTORY"
LABELS = ("CONTRADICTORY", "EXTENDABLE", "INDEPENDENT")
TARGET = 0.95
Z = 1.0

Row = tuple[Prediction, float | None]  # verdict without the tier, C probability if it may close
R = TypeVar("R")


def verdicts(rows: list[Row], t: float) -> list[str]:
    return [C if p is not None and p >= t else base.label for base, p in rows]


def macro_f1(gold: list[str], said: list[str]) -> float:
    scores = []
    for label in LABELS:
        support = sum(g == label for g in gold)
        if not support:
            continue
        hit = sum(g == s == label for g, s in zip(gold, said, strict=True))
        called = sum(s == label for s in said)
        p, r = (hit / called if called else 0.0), hit / support
        scores.append(2 * p * r / (p + r) if p + r else 0.0)
    return sum(scores) / len(scores) if scores else 0.0


def tally(rows: list[Row], lang: str, t: float) -> tuple[float, int, int, int]:
    """Macro-F1, right closes, closes and gold C pairs of ``lang`` at threshold ``t``."""
    mine = [r for r in rows if r[0].pair.lang == lang]
    said, gold = verdicts(mine, t), [r[0].pair.label for r in mine]
    right = sum(s == g == C for s, g in zip(said, gold, strict=True))
    return macro_f1(gold, said), right, sum(s == C for s in said), sum(g == C for g in gold)


def wilson_low(k: int, n: int) -> float:
    """``lib.metrics.wilson_lower`` at ``Z``, but 1 for no closes (no close is no wrong one)."""
    return wilson_lower(k, n, Z) if n else 1.0


def pooled(got: list[tuple[float, int, int, int]]) -> dict[str, float]:
    k, n, g = (sum(x[i] for x in got) for i in (1, 2, 3))
    return {
        "macro_f1": sum(x[0] for x in got) / len(got),
        "precision": k / n if n else 1.0,
        "recall": k / g if g else 0.0,
        "closes": n,
        "right": k,
        "under": sum(x[2] >= 10 and x[1] / x[2] < TARGET for x in got),
    }


def choose(sources: list[list[Row]], lang: str, own: float, grid: Sequence[float]) -> float:
    """The rule: the best mean macro-F1 where the pooled precision's Wilson bound holds."""
    best_t, best = math.inf, pooled([tally(s, lang, math.inf) for s in sources])["macro_f1"]
    for t in grid:
        if t >= own:
            break
        got = pooled([tally(s, lang, t) for s in sources])
        if wilson_low(int(got["right"]), int(got["closes"])) < TARGET:
            continue
        if got["macro_f1"] > best + 1e-9:
            best_t, best = t, got["macro_f1"]
    return best_t


def add_split_arguments(bench: argparse.ArgumentParser) -> None:
    """``--language`` and ``--skip-choose``, as the bar scripts (``classify_related.py``,
    ``classify_replaced.py``) take them.

    A judge per language (``train_classifier.py --by-language``): ``--language LANG`` tunes that
    language's model alone. A proxy judge fitted on a train → choose split of the training
    sources (``train_classifier.py --leave-out`` the inner choose sources as well as the choose
    sets; run with that file in a copy of ``src``): its held sources are the inner choose ones,
    and ``--skip-choose`` leaves the choose sets unread, so bars are chosen for a judge that
    cannot itself be measured on sources it was not fitted on without scoring the choose sets.
    """
    bench.add_argument(
        "--language",
        choices=("en", "ja"),
        default="",
        help="with a judge per language: the language whose model's bars are tuned",
    )
    bench.add_argument(
        "--skip-choose",
        action="store_true",
        help="do not read the choose sets (classify_split.CHOOSE) at all",
    )


def tuned_model(judge: Judge, language: str) -> tuple[JudgeModel, tuple[str, ...]]:
    """The model whose bars a script tunes and the languages it tunes them for: the one model
    of a judge for both languages (both), or ``language``'s model of a judge per language
    (that language alone; exit when none is named)."""
    if isinstance(judge, JudgeModel):
        return judge, ("en", "ja")
    models = dict(judge.models)
    if language not in models:
        sys.exit(
            f"the judge holds a model per language ({', '.join(models)}): name one (--language)"
        )
    return models[language], (language,)


def with_model(judge: Judge, language: str, model: JudgeModel) -> Judge:
    """``judge`` with ``model`` in place of the tuned one (``tuned_model``)."""
    if isinstance(judge, JudgeModel):
        return model
    return LanguageJudge(tuple((k, model if k == language else m) for k, m in judge.models))


def read_twice(
    sources: Mapping[str, Path],
    fitted: set[str],
    choose_sets: Sequence[str],
    classifiers: tuple[object, object],
    row: Callable[[Prediction, Prediction], R],
    skip: Sequence[str] = (),
) -> tuple[dict[str, list[R]], dict[str, list[R]]]:
    """Each source not fitted on (a choose set always) classified by both classifiers, a row per
    pair: the sources to choose on, and the choose sets; the sources ``skip`` names are not read
    (the choose sets, when the judge is a proxy fitted on a split of the training sources)."""
    held: dict[str, list[R]] = {}
    fresh: dict[str, list[R]] = {}
    first, floor = classifiers
    for name, path in sources.items():
        if name in skip or not path.is_file() or (path.name in fitted and name not in choose_sets):
            continue
        pairs = load_pairs(path)
        rows = [
            row(b, f) for b, f in zip(predict(pairs, first), predict(pairs, floor), strict=True)
        ]
        (fresh if name in choose_sets else held)[name] = rows
        print(f"  {name}: {len(pairs)} pairs", flush=True)
    return held, fresh
