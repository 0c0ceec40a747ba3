"""Plans, metrics and the fusion study of ``bench/search_study.py`` (which see)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from _study_data import DEPTH, Bed, Candidates, Corpus, build_bed, gather

# -- plans ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    name: str
    keyword: bool = True
    embedder: str | None = None
    method: str = "rrf"
    kw_weight: float = 0.5
    sem_weight: float = 0.5
    k: float = 60.0
    kw_pool: int = 50
    sem_pool: int = 50

    def run(self, cand: Candidates) -> list[int]:
        from omoide.engine.fusion import FusionWeights, fuse

        if self.embedder is None:
            return [s.id for s in cand.keyword[:DEPTH]]
        semantic = cand.semantic[self.embedder]
        if not self.keyword:
            return [s.id for s in semantic[:DEPTH]]
        weights = FusionWeights(keyword=self.kw_weight, semantic=self.sem_weight, k=self.k)
        fused = fuse(
            cand.keyword[: self.kw_pool],
            semantic[: self.sem_pool],
            weights=weights,
            method=self.method,
        )
        return [s.id for s in fused[:DEPTH]]

    def describe(self) -> str:
        if self.embedder is None or not self.keyword:
            return self.name
        extra = f", k={self.k:g}" if self.method == "rrf" else ""
        return (
            f"{self.name} [{self.method} kw={self.kw_weight:g} sem={self.sem_weight:g}{extra}, "
            f"pools {self.kw_pool}/{self.sem_pool}]"
        )


# -- metrics ----------------------------------------------------------------------------------

BUDGET_TOKENS = 1000


def ja_metrics(ranked: Sequence[str], relevant: frozenset[str]) -> dict[str, float]:
    """Recall@k is the fraction of the relevant memories in the top k; MRR uses the first."""
    first = next((i for i, doc in enumerate(ranked, start=1) if doc in relevant), None)
    out = {f"R@{k}": len(relevant & set(ranked[:k])) / len(relevant) for k in (1, 5, 10)}
    out["MRR"] = 1.0 / first if first else 0.0
    return out


def locomo_metrics(
    ranked: Sequence[str], evidence: frozenset[str], length: dict[str, int]
) -> dict[str, float]:
    first = next((i for i, doc in enumerate(ranked, start=1) if doc in evidence), None)
    taken, used = set(), 0.0
    for doc in ranked:
        cost = length[doc] / 4
        if used + cost > BUDGET_TOKENS:
            break
        used += cost
        taken.add(doc)
    return {
        "recall_any@10": float(bool(evidence & set(ranked[:10]))),
        "MRR": 1.0 / first if first else 0.0,
        "evidence@1000tok": len(evidence & taken) / len(evidence),
    }


def _mean(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {}
    return {key: round(sum(r[key] for r in rows) / len(rows), 4) for key in rows[0]}


def evaluate_ja(plan: Plan, bed: Bed, corpus: Corpus, cands: Sequence[Candidates]) -> dict:
    per_query = []
    for query, cand in zip(corpus.queries, cands, strict=True):
        ranked = [bed.doc_of[r] for r in plan.run(cand)]
        per_query.append((query.kind, ja_metrics(ranked, query.relevant)))
    kinds = sorted({kind for kind, _ in per_query})
    result = {"all": _mean([m for _, m in per_query])}
    result.update({kind: _mean([m for k, m in per_query if k == kind]) for kind in kinds})
    return result


def evaluate_locomo(plan: Plan, bed: Bed, corpora: Sequence[Corpus], cands: Sequence) -> dict:
    per_query = []
    for corpus, conv_cands in zip(corpora, cands, strict=True):
        length = {d.id: len(d.text) for d in corpus.docs}
        for query, cand in zip(corpus.queries, conv_cands, strict=True):
            ranked = [bed.doc_of[r] for r in plan.run(cand)]
            per_query.append((query.kind, locomo_metrics(ranked, query.relevant, length)))
    kinds = sorted({kind for kind, _ in per_query})
    result = {"all": _mean([m for _, m in per_query])}
    result.update({kind: _mean([m for k, m in per_query if k == kind]) for kind in kinds})
    return result


# -- the study --------------------------------------------------------------------------------

EMBEDDERS = ("use", "e5")
WEIGHTS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
METHODS = ("rrf", "minmax", "zscore", "convex")
POOLS = ((20, 20), (50, 50), (100, 100), (20, 100), (100, 20))


def fts_variants() -> dict[str, object]:
    from dataclasses import replace

    from omoide.store.sqlite.fts_terms import DEFAULT_TUNING as D

    plain = "unicode61 remove_diacritics 2"
    return {
        "default": D,
        "no porter": replace(D, word_tokenizer=plain),
        "no porter, prefix*": replace(D, word_tokenizer=plain, word_prefix=True),
        "trigram phrase": replace(D, trigram_mode="phrase"),
        "short: instr": replace(D, short_path="instr"),
        "short: bigram": replace(D, short_path="bigram"),
        "short: none": replace(D, short_path="none"),
        "no pruning": replace(D, max_df=1.0, row_budget=10**9),
        "max_df 0.1": replace(D, max_df=0.1),
        "max_df 0.05": replace(D, max_df=0.05),
    }


@dataclass
class Study:
    ja: Corpus
    locomo: list[Corpus]
    tmp: Path
    report: dict = field(default_factory=dict)

    def beds(self, tuning, embedders: dict) -> tuple:
        bed_ja = build_bed(self.tmp / "ja.db", [self.ja], tuning)
        bed_lo = build_bed(self.tmp / "locomo.db", self.locomo, tuning)
        return (
            bed_ja,
            gather(bed_ja, [self.ja], embedders)[0],
            bed_lo,
            gather(bed_lo, self.locomo, embedders),
        )

    def evaluate(self, plan: Plan, state: tuple) -> dict:
        bed_ja, cand_ja, bed_lo, cand_lo = state
        return {
            "plan": plan.describe(),
            "ja": evaluate_ja(plan, bed_ja, self.ja, cand_ja),
            "locomo": evaluate_locomo(plan, bed_lo, self.locomo, cand_lo),
        }


def _kw_ms(state: tuple) -> float:
    times = [c.keyword_ms for c in state[1]] + [c.keyword_ms for conv in state[3] for c in conv]
    return round(float(np.median(times)), 2)


# The hybrid each variant is also judged by: the grid's best per embedder (see study_fusion).
VARIANT_HYBRIDS = {"use": ("zscore", 0.5), "e5": ("zscore", 0.4)}


def study_fts(study: Study, embedders: dict) -> list[dict]:
    rows = []
    for name, tuning in fts_variants().items():
        state = study.beds(tuning, embedders)
        row = study.evaluate(Plan("keyword"), state)
        row.update(variant=name, median_ms=_kw_ms(state), hybrids={})
        for emb, (method, w) in VARIANT_HYBRIDS.items():
            plan = Plan(emb, embedder=emb, method=method, kw_weight=w, sem_weight=round(1 - w, 2))
            row["hybrids"][emb] = study.evaluate(plan, state)
        rows.append(row)
        print(
            f"  fts {name:20s} ja MRR {row['ja']['all']['MRR']:.3f}  "
            f"locomo MRR {row['locomo']['all']['MRR']:.3f}",
            flush=True,
        )
    return rows


def _margin(row: dict, inputs: dict) -> float:
    """How far the hybrid's MRR is above the better input, on the dataset where it is worst."""
    return min(row[ds]["all"]["MRR"] - max(inputs[ds]) for ds in ("ja", "locomo"))


def study_fusion(study: Study, state: tuple) -> dict:
    out: dict = {"inputs": {}, "grid": {}, "best": {}, "pools": {}, "rrf_even": {}}
    keyword = study.evaluate(Plan("keyword"), state)
    out["keyword"] = keyword
    for emb in EMBEDDERS:
        semantic = study.evaluate(Plan(f"semantic {emb}", keyword=False, embedder=emb), state)
        out["inputs"][emb] = semantic
        best_input = {
            ds: (keyword[ds]["all"]["MRR"], semantic[ds]["all"]["MRR"]) for ds in ("ja", "locomo")
        }
        grid = []
        for method in METHODS:
            for k in (60.0, 10.0) if method == "rrf" else (60.0,):
                for w in WEIGHTS:
                    plan = Plan(
                        f"hybrid {emb}",
                        embedder=emb,
                        method=method,
                        kw_weight=w,
                        sem_weight=round(1 - w, 2),
                        k=k,
                    )
                    row = study.evaluate(plan, state)
                    row.update(method=method, kw_weight=w, k=k, margin=_margin(row, best_input))
                    grid.append(row)
        out["grid"][emb] = grid
        out["rrf_even"][emb] = study.evaluate(Plan(f"hybrid {emb}", embedder=emb), state)
        # Maximin: the hybrid that falls least below (or rises most above) its better input on
        # the dataset where it does worst; ties to the higher mean MRR.
        best = max(grid, key=lambda r: (round(r["margin"], 3), _mean_mrr(r)))
        pools = []
        for kw_pool, sem_pool in POOLS:
            plan = Plan(
                f"hybrid {emb}",
                embedder=emb,
                method=best["method"],
                kw_weight=best["kw_weight"],
                sem_weight=round(1 - best["kw_weight"], 2),
                k=best["k"],
                kw_pool=kw_pool,
                sem_pool=sem_pool,
            )
            row = study.evaluate(plan, state)
            row.update(kw_pool=kw_pool, sem_pool=sem_pool, margin=_margin(row, best_input))
            pools.append(row)
        out["best"][emb], out["pools"][emb] = best, pools
        out.setdefault("oracle", {})[emb] = oracle_mrr(study, state, emb)
        print(f"  best {emb}: {best['plan']} margin {best['margin']:+.3f}", flush=True)
    return out


def _mean_mrr(row: dict) -> float:
    return (row["ja"]["all"]["MRR"] + row["locomo"]["all"]["MRR"]) / 2


def _rr(ranked: Sequence[str], relevant: frozenset[str]) -> float:
    return next((1.0 / i for i, doc in enumerate(ranked, start=1) if doc in relevant), 0.0)


def oracle_mrr(study: Study, state: tuple, embedder: str) -> dict[str, float]:
    """MRR if every query could pick the better of its two input lists: a ceiling for any
    fusion that chooses between them (a fusion can pass it only when both lists agree)."""
    bed_ja, cand_ja, bed_lo, cand_lo = state
    pairs = [(bed_ja, q, c) for q, c in zip(study.ja.queries, cand_ja, strict=True)]
    lo_pairs = [
        (bed_lo, q, c)
        for corpus, cands in zip(study.locomo, cand_lo, strict=True)
        for q, c in zip(corpus.queries, cands, strict=True)
    ]
    out = {}
    for name, rows in (("ja", pairs), ("locomo", lo_pairs)):
        best = [
            max(
                _rr([bed.doc_of[s.id] for s in cand.keyword], q.relevant),
                _rr([bed.doc_of[s.id] for s in cand.semantic[embedder]], q.relevant),
            )
            for bed, q, cand in rows
        ]
        out[name] = round(sum(best) / len(best), 4)
    return out
