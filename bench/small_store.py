"""Search quality on SMALL stores (a new persona with a handful of notes), through the pipeline.

For each retrieval set (``retrieval_ja/dev.jsonl`` and ``bench/data/retrieval_holdout_a`` …
``_g``; never ``_h``, the unseen one) and each query, a persona holds the query's relevant notes
plus ``k`` notes drawn at random from the rest of the set (``--ks``, ``--seeds`` draws each), in
a random order; one more persona per set holds the whole set (the full-size check). Every
store is a real SQLite store written through ``MemoryStore.insert`` (as ``bench/retrieval.py``
writes, vectors and FTS rows the real ones) and every query runs through
``SearchService.search`` (hybrid, top 10, notes only) under each variant:

- the language centring of ``store.vectors``: the committed one (``default``), or this
  script's :func:`centroids` with other pseudo-row counts and a zero or pooled prior (``raw``:
  none), put in place of ``vectors.language_centroids`` and the persona's centroid snapshot
  dropped, so the next search recomputes it;
- search plans (companion weight).

(A semantic min-max span floor for convex fusion was measured at commit 2fb8aea and changed
nothing; ``bench/results/small_store19.md``.)

Reports MRR@10 by set and ``k``, the mean over the small stores, leave-one-set-out (the variant
with the best mean small-store MRR on seven sets, scored on the eighth, ties to the default) and
the full-size MRR per set.

    .venv/bin/python bench/small_store.py [--ks 5,10,20,40] [--seeds 2] [--sets NAME,...]
        [--variants NAME,...] [--lone] [--out PATH] [--json]
"""

from __future__ import annotations

import functools
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from lib.cli import parser
from lib.datasets import DATA_ROOT, RetrievalSet, load_retrieval_set
from lib.metrics import first_rank
from lib.reports import command_line, emit, md_table
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.fsrs import initial_stability
from omoide.engine.search_plan import DEFAULT_PLAN, SearchPlan
from omoide.store import vectors
from omoide.wiring import build

SETS = {
    "dev": DATA_ROOT / "retrieval_ja/dev.jsonl",
    **{name: Path(f"bench/data/retrieval_holdout_{name.lower()}.jsonl") for name in "ABCDEFG"},
}
# retrieval_holdout_h is UNSEEN this session: never listed here.


@dataclass(frozen=True)
class Variant:
    shrink: float | None = None  # None: the committed centring (vectors.language_centroids)
    prior: str = "zero"
    plan: SearchPlan = field(default=DEFAULT_PLAN)


def centroids(sums: np.ndarray, counts: np.ndarray, *, shrink: float, prior: str) -> np.ndarray:
    """``vectors.language_centroids`` with its weight and prior as knobs: each language's sum
    plus ``shrink`` pseudo-rows of its prior, over its count plus ``shrink``; the prior is zero
    (``"zero"``: the committed maths at shrink 10) or the mean of every row, itself shrunk
    towards zero (``"pooled"``)."""
    sums = np.asarray(sums, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    base = np.zeros(sums.shape[1])
    if prior == "pooled":
        base = sums.sum(axis=0) / (counts.sum() + shrink)
    return ((sums + shrink * base) / (counts[:, None] + shrink)).astype(np.float32)


VARIANTS = {  # "default" is the committed centring (zero prior, 10 pseudo-rows)
    "default": Variant(),
    **{f"zero{n:g}": Variant(shrink=n, prior="zero") for n in (1.0, 3.0, 30.0, 100.0)},
    "raw": Variant(shrink=1e12, prior="zero"),
    **{f"pooled{n:g}": Variant(shrink=n, prior="pooled") for n in (1.0, 2.0, 3.0, 5.0, 10.0, 30.0)},
    "companion0": Variant(plan=replace(DEFAULT_PLAN, companion_weight=0.0)),
    "companion0.5": Variant(plan=replace(DEFAULT_PLAN, companion_weight=0.5)),
    "no_other_script_slot": Variant(plan=replace(DEFAULT_PLAN, other_script_slot=0)),
}


class CachedQueries:
    """The embedder with its query vectors memoised (every store asks the same queries)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self._queries: dict[str, np.ndarray] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def embed_query(self, text: str) -> np.ndarray:
        if text not in self._queries:
            self._queries[text] = self._inner.embed_query(text)
        return self._queries[text]


@contextmanager
def applied(variant: Variant) -> Iterator[None]:
    """The variant's centring in place for the duration (module state; bench only)."""
    committed = vectors.language_centroids
    if variant.shrink is not None:
        vectors.language_centroids = functools.partial(
            centroids, shrink=variant.shrink, prior=variant.prior
        )
    try:
        yield
    finally:
        vectors.language_centroids = committed


@dataclass
class Store:
    persona: str
    set_name: str
    k: str  # "5", "10", … or "full"
    queries: list[int]  # indices into the set's queries
    keys: dict[str, str] = field(default_factory=dict)  # memory key → set key


def layouts(
    name: str, data: RetrievalSet, ks: list[int], seeds: int, lone: bool = False
) -> list[tuple[Store, list[str]]]:
    """Each store and the set keys of the notes it holds, in insertion order. ``lone``: the
    issue's shape instead, the k others all written in the query's script and one note in the
    other script (a random one, or the relevant note itself when it is written there)."""
    keys = list(data.memories)
    script = {m: vectors.language_of(text) for m, text in data.memories.items()}
    out = [(Store(f"{name}-full", name, "full", list(range(len(data.queries)))), keys)]
    for k in ks:
        for seed in range(seeds):
            rng = random.Random(f"{name}/{k}/{seed}" + ("/lone" if lone else ""))
            for qi, q in enumerate(data.queries):
                relevant = [m for m in keys if m in q.relevant]
                others = [m for m in keys if m not in q.relevant]
                if lone:
                    own = vectors.language_of(q.query)
                    same = [m for m in others if script[m] == own]
                    chosen = relevant + rng.sample(same, min(k, len(same)))
                    if all(script[m] == own for m in relevant):
                        chosen.append(rng.choice([m for m in others if script[m] != own]))
                    elif len(relevant) > 1:
                        continue  # relevant notes in both scripts: no lone note possible
                else:
                    chosen = relevant + rng.sample(others, min(k, len(others)))
                rng.shuffle(chosen)
                out.append((Store(f"{name}-{k}-{seed}-{qi}", name, str(k), [qi]), chosen))
    return out


def evaluate(
    sets: dict[str, RetrievalSet],
    ks: list[int],
    seeds: int,
    variants: dict[str, Variant],
    log: Callable[[str], None],
    *,
    lone: bool = False,
) -> dict[str, Any]:
    embedder = CachedQueries(make_embedder("e5"))
    # ranks[variant][set][k] → first relevant rank per query (None: not in the top 10)
    ranks: dict[str, dict[str, dict[str, list[int | None]]]] = {v: {} for v in variants}
    with tempfile.TemporaryDirectory() as tmp:
        app = build(Settings.from_env({}, data_dir=Path(tmp)), embedder=embedder, llm=None)
        for name, data in sets.items():
            started = time.perf_counter()
            passages = dict(
                zip(
                    data.memories,
                    embedder.embed_passages(list(data.memories.values())),
                    strict=True,
                )
            )
            stores = []
            for store, keys in layouts(name, data, ks, seeds, lone):
                app.auth.create_persona(store.persona)
                handle = app.store.memories(store.persona)
                for key in keys:
                    memory = handle.insert(
                        app.memories.build_new(content=data.memories[key]),
                        vector=passages[key],
                        stability=initial_stability(0.0),
                        now=app.clock.now(),
                    )
                    store.keys[memory.key] = key
                stores.append(store)
            log(f"{name}: {len(stores)} stores in {time.perf_counter() - started:.0f}s")
            for vname, variant in variants.items():
                started = time.perf_counter()
                with applied(variant):
                    for store in stores:
                        # Internal on purpose: drop the centroid snapshot so the variant's
                        # centring (patched in by `applied`) takes effect; in production the
                        # rule never changes while an index lives.
                        app.store.memories(store.persona).vectors._mu = None
                        for qi in store.queries:
                            q = data.queries[qi]
                            request = app.search.build_request(
                                store.persona,
                                query=q.query,
                                top_k=10,
                                mode="hybrid",
                                include_episodes=False,
                            )
                            hits = app.search.search(
                                store.persona, request, recall=False, plan=variant.plan
                            ).results
                            ranks[vname].setdefault(name, {}).setdefault(store.k, []).append(
                                first_rank([store.keys.get(h.id) for h in hits], q.relevant)
                            )
                log(f"  {vname}: {time.perf_counter() - started:.0f}s")
        app.close()
    return {**summarise(ranks, [str(k) for k in ks]), "lone": lone}


def mrr(ranks: list[int | None]) -> float:
    return sum(1.0 / r for r in ranks if r) / len(ranks) if ranks else 0.0


def summarise(
    ranks: dict[str, dict[str, dict[str, list[int | None]]]], ks: list[str]
) -> dict[str, Any]:
    table = {
        v: {s: {k: round(mrr(r), 4) for k, r in by_k.items()} for s, by_k in by_set.items()}
        for v, by_set in ranks.items()
    }
    small = {
        v: {s: round(float(np.mean([by_k[k] for k in ks])), 4) for s, by_k in by_set.items()}
        for v, by_set in table.items()
    }
    sets = list(next(iter(small.values())))
    loso = []
    for held in sets:
        rest = [s for s in sets if s != held]
        pick = max(
            small, key=lambda v: (round(np.mean([small[v][s] for s in rest]), 4), v == "default")
        )
        loso.append(
            {
                "held_out": held,
                "picked": pick,
                "picked_mrr": small[pick][held],
                "default_mrr": small["default"][held],
            }
        )
    return {"ks": ks, "mrr": table, "small": small, "loso": loso}


def report(results: dict[str, Any]) -> str:
    ks, table, small = results["ks"], results["mrr"], results["small"]
    sets = list(next(iter(small.values())))
    by_k = [
        [
            v,
            *(f"{np.mean([table[v][s][k] for s in sets]):.3f}" for k in [*ks, "full"]),
            f"{np.mean(list(small[v].values())):.3f}",
        ]
        for v in table
    ]
    by_set = [[v, *(f"{small[v][s]:.3f}" for s in sets)] for v in table]
    full = [
        [
            v,
            *(f"{table[v][s]['full']:.3f}" for s in sets),
            f"{np.mean([table[v][s]['full'] for s in sets]):.3f}",
        ]
        for v in table
    ]
    loso = [
        [r["held_out"], r["picked"], f"{r['picked_mrr']:.3f}", f"{r['default_mrr']:.3f}"]
        for r in results["loso"]
    ]
    return "\n".join(
        [
            "# Small stores: MRR@10 through the search pipeline (e5, hybrid)",
            "",
            f"Command: `{command_line()}`.",
            "",
            "## Mean MRR over the eight sets, by k (store = relevant notes + k random others"
            + (
                " in the query's script + one note in the other script)"
                if results.get("lone")
                else ")"
            ),
            "",
            md_table(["variant", *(f"k={k}" for k in ks), "full", "small mean"], by_k),
            "",
            "## Small-store MRR (mean over k) per set",
            "",
            md_table(["variant", *sets], by_set),
            "",
            "## Leave-one-set-out (pick on seven sets' small-store mean, score the eighth)",
            "",
            md_table(["held out", "picked", "picked MRR", "default MRR"], loso),
            "",
            "## Full-size stores (the whole set), MRR per set",
            "",
            md_table(["variant", *sets, "mean"], full),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="small_store", data=None)
    bench.add_argument("--ks", default="5,10,20,40")
    bench.add_argument("--seeds", type=int, default=2)
    bench.add_argument("--sets", default=",".join(SETS))
    bench.add_argument("--variants", default=",".join(VARIANTS))
    bench.add_argument(
        "--lone",
        action="store_true",
        help="The issue's shape: others in the query's script, one note not.",
    )
    args = bench.parse_args(argv)
    sets = {name: load_retrieval_set(SETS[name]) for name in args.sets.split(",")}
    variants = {name: VARIANTS[name] for name in args.variants.split(",")}
    if "default" not in variants:
        variants = {"default": VARIANTS["default"], **variants}
    results = evaluate(
        sets,
        [int(k) for k in args.ks.split(",")],
        args.seeds,
        variants,
        lambda line: print(line, file=sys.stderr, flush=True),
        lone=args.lone,
    )
    emit(args, report(results), results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
