"""Training rows the labelled pairs do not give: what a server asks the judge and no set does.

A pair benchmark asks about one old memory, the pair's own. A server asks about every current
memory near the new one (``engine.candidates.select_candidates``), and about a new memory that
says an old one again in other words when dedup did not drop it. Two kinds of rows, fitted on
(``_classify_loso.fit_on``) and never scored, since they carry no writer's label:

- **distractors** (``distractor_pairs``): each one-statement new memory of a labelled set
  against the old memories of the set's other pairs in its language that the server would judge
  with it (the nearest ``NEIGHBOUR_POOL`` by raw cosine of passage vectors, from the band up, at
  most ``per_memory`` of them, the pair's own old memory left out), labelled INDEPENDENT: another
  writer's line about someone else's job is not what "I quit my job" changes. A few really would
  be for one user (two lines about a move, both the user's), so they are down-weighted
  (``DISTRACTOR_WEIGHT``) rather than taken as sure; each row belongs to its pair, so it is
  fitted on only when the pair is (a left-out writer's new memories are not learnt from).
- **duplicates** (``duplicate_pairs``): the ``duplicate`` pairs of the dedup sets, read by
  ``_classify_common.load_pairs`` as ``DUPLICATE_LABEL`` (EXTENDABLE): the same fact said again
  contradicts nothing. Other writers than the classify sets', so fitted on in every fold.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from _classify_common import Pair, load_pairs
from omoide.config import PersonaSettings
from omoide.engine.candidates import select_candidates
from omoide.engine.classify import Relation, one_statement
from omoide.service.evolution import NEIGHBOUR_POOL

DATA = Path(__file__).resolve().parent / "data"
# The dedup sets whose duplicate pairs may be fitted on: every seen one, named (a set written
# later is added here once it has been scored, never picked up by a pattern).
DEDUP_SOURCES: tuple[Path, ...] = (
    DATA / "dedup_pairs.jsonl",
    DATA / "dedup_holdout.jsonl",
    *(DATA / f"dedup_holdout{n}.jsonl" for n in range(2, 32)),
)
# What the packaged e5 judge (round 28's) was trained with: no distractor rows. Round 29's fit
# with one per new memory (``--distractors 1``) lost on fresh sets and never shipped
# (``bench/results/classify_round29.md``, ``fresh_s30.md``); session 37 refit with it by
# default and lost dev 0.958 → 0.901 (``classify_ja37.md``), so the default is what ships.
DISTRACTORS = 0  # per one-statement new memory: the nearest in the band (the one a close falls on)
DISTRACTOR_WEIGHT = 0.15  # a distractor row's weight, half as EXTENDABLE, half as INDEPENDENT
DUPLICATE_WEIGHT = 0.05  # a dedup duplicate row's, when asked for (none ship: see the report)
INDEPENDENT = Relation.INDEPENDENT.value


@dataclass(frozen=True)
class Extra:
    """Which extra rows to fit on: distractors per new memory (0: none) and the dedup files
    whose duplicate pairs are read, with their weights."""

    distractors: int = 0
    distractor_weight: float = DISTRACTOR_WEIGHT
    duplicates: tuple[Path, ...] = ()
    duplicate_weight: float = DUPLICATE_WEIGHT


def band_raw(embedder) -> float:
    """The server's classification band on ``embedder``'s raw cosine (the default setting)."""
    return float(embedder.calibration.to_raw(PersonaSettings().classify_band_low))


def distractor_pairs(
    pairs: list[Pair], sources: list[str], embedder, per_memory: int
) -> tuple[list[Pair], list[int]]:
    """The distractor rows of every set (module docstring) and the index in ``pairs`` of the
    pair each comes from."""
    if per_memory <= 0:
        return [], []
    band = band_raw(embedder)
    out: list[Pair] = []
    parents: list[int] = []
    by_set: dict[tuple[str, str], list[int]] = {}
    for i, (p, s) in enumerate(zip(pairs, sources, strict=True)):
        by_set.setdefault((s, p.lang), []).append(i)
    for (_, lang), members in sorted(by_set.items()):
        olds = list(dict.fromkeys(pairs[i].old for i in members))
        old_vectors = embedder.embed_passages(olds)
        new_vectors = embedder.embed_passages([pairs[i].new for i in members])
        for i, vector in zip(members, new_vectors, strict=True):
            pair = pairs[i]
            if not one_statement(pair.new, lang):
                continue  # never closes as a whole: the guard decides, the judge learns nothing
            cosines = old_vectors @ vector
            order = np.argsort(-cosines, kind="stable")[:NEIGHBOUR_POOL]
            ranked = [(int(k), float(cosines[k])) for k in order if olds[k] != pair.old]
            for k, _ in select_candidates(ranked, band, per_memory):
                out.append(
                    replace(
                        pair,
                        id=f"{pair.id}~{k}",
                        old=olds[k],
                        label=INDEPENDENT,
                        twin="",
                        kind="distractor",
                    )
                )
                parents.append(i)
    return out, parents


def duplicate_pairs(paths: list[Path]) -> tuple[list[Pair], list[str]]:
    """The dedup sets' duplicate pairs (as EXTENDABLE) and the source each comes from."""
    out: list[Pair] = []
    names: list[str] = []
    for path in paths:
        rows = load_pairs(path)
        out += rows
        names += [path.stem] * len(rows)
    return out, names


def add_arguments(bench) -> None:
    """The training scripts' flags for the extra rows (defaults: what the shipped judge was
    trained with)."""
    bench.add_argument(
        "--distractors",
        type=int,
        default=DISTRACTORS,
        help="distractor rows per one-statement new memory, the nearest in the "
        "band (0: none; default %(default)s)",
    )
    bench.add_argument("--distractor-weight", type=float, default=DISTRACTOR_WEIGHT)
    bench.add_argument(
        "--duplicates",
        type=Path,
        nargs="*",
        default=None,
        help="dedup files whose duplicate pairs are fitted on as EXTENDABLE "
        "(no file: every seen one; default: none)",
    )
    bench.add_argument("--duplicate-weight", type=float, default=DUPLICATE_WEIGHT)


def extra_of(args) -> Extra:
    """The extra rows the flags of ``add_arguments`` ask for."""
    duplicates = () if args.duplicates is None else tuple(args.duplicates or DEDUP_SOURCES)
    return Extra(args.distractors, args.distractor_weight, duplicates, args.duplicate_weight)


def extra_flags(args) -> str:
    """The flags of ``add_arguments`` that differ from the defaults, for a report's command."""
    out = ""
    if args.distractors != DISTRACTORS:
        out += f" --distractors {args.distractors}"
    if args.distractor_weight != DISTRACTOR_WEIGHT:
        out += f" --distractor-weight {args.distractor_weight}"
    if args.duplicates is not None:
        out += " --duplicates" + "".join(f" {p.name}" for p in args.duplicates)
    if args.duplicate_weight != DUPLICATE_WEIGHT:
        out += f" --duplicate-weight {args.duplicate_weight}"
    return out
