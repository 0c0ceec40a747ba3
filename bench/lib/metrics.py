"""Metrics: LoCoMo scoring inside a context budget, rank metrics, a proportion's Wilson bound,
timing statistics.

LoCoMo (``bench/locomo.py`` documents the rules): results are packed in rank order into a token
budget (tokens = characters / 4, results joined by a newline which counts too) — **strict**: a
result counts only if all of it fits, packing stops at the first that does not; **truncate**: the
first result that does not fit is cut to what is left (its sources count only for lines wholly
inside the cut). Per question: evidence recall (share of evidence turns cited), containment
(normalised gold answer is a substring of the included text), recall_any@5/@10 and reciprocal
rank (no budget).
"""

from __future__ import annotations

import math
import re
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from lib.datasets import LocomoQA

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
CHARS_PER_TOKEN = 4


# -- LoCoMo: retrieved results inside a budget ------------------------------------------------


@dataclass(frozen=True)
class Retrieved:
    """One ranked result as the scorer sees it: its text and the turns it cites."""

    kind: str  # "note", "episode", "turn" or "window"
    content: str
    dia_ids: tuple[str, ...]
    line_sources: tuple[tuple[int, str], ...] = ()  # (end offset in content, dia_id) per line
    score: float = 0.0  # the server's score (only the experiments' "score" order reads it)


@dataclass(frozen=True)
class Packed:
    text: str
    cited: frozenset[str]
    included: tuple[Retrieved, ...]


def budget_tokens(text: str) -> float:
    return len(text) / CHARS_PER_TOKEN


def pack(results: Sequence[Retrieved], budget: int, *, truncate: bool = False) -> Packed:
    """Results in rank order into ``budget`` tokens (see the module docstring for the rules)."""
    left = budget * CHARS_PER_TOKEN
    texts: list[str] = []
    cited: set[str] = set()
    included: list[Retrieved] = []
    for result in results:
        # Results are joined by one newline, which also costs its character.
        cost = len(result.content) + (1 if texts else 0)
        if cost <= left:
            texts.append(result.content)
            cited.update(result.dia_ids)
            included.append(result)
            left -= cost
            continue
        if truncate and left > 1:
            room = left - (1 if texts else 0)
            texts.append(result.content[:room])
            cited.update(d for end, d in result.line_sources if end <= room)
            return Packed("\n".join(texts), frozenset(cited), tuple(included))
        break
    return Packed("\n".join(texts), frozenset(cited), tuple(included))


def lines_result(kind: str, header: Sequence[str], lines: Sequence[tuple[str, str]]) -> Retrieved:
    """Header lines, then one line per cited turn; remembers where each turn's line ends."""
    text = "\n".join([*header, *(line for line, _ in lines)])
    ends, offset = [], len("\n".join(header)) + (1 if header else 0)
    for line, dia_id in lines:
        offset += len(line)
        ends.append((offset, dia_id))
        offset += 1
    return Retrieved(kind, text, tuple(d for _, d in lines), tuple(ends))


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(r"[^\w\s]")


def normalise_answer(text: str) -> str:
    text = _PUNCT.sub(" ", text.lower())
    return " ".join(_ARTICLES.sub(" ", text).split())


def contains_answer(context: str, answer: str | None) -> bool:
    gold = normalise_answer(answer or "")
    return bool(gold) and gold in normalise_answer(context)


# == scoring ===================================================================================


@dataclass(frozen=True)
class QuestionScore:
    category: int
    has_evidence: bool
    recall: float  # strict packing
    contained: bool
    recall_trunc: float
    contained_trunc: bool
    any5: bool
    any10: bool
    rr: float


_CONTENT_WORD = re.compile(r"[a-z0-9']{3,}")
_FUNCTION_WORDS = frozenset(
    (
        "the",
        "and",
        "you",
        "that",
        "this",
        "was",
        "for",
        "with",
        "have",
        "are",
        "but",
        "not",
        "just",
        "what",
        "your",
        "its",
        "they",
        "their",
        "them",
        "she",
        "her",
        "his",
        "him",
        "had",
        "has",
        "been",
        "were",
        "from",
        "about",
        "would",
        "could",
        "really",
        "yeah",
        "like",
        "did",
        "can",
        "all",
        "got",
        "too",
        "also",
        "one",
        "some",
        "how",
        "out",
        "more",
        "when",
    )
)


def _content_words(text: str) -> set[str]:
    return {w for w in _CONTENT_WORD.findall(text.lower()) if w not in _FUNCTION_WORDS}


def contains_words(haystack: str, needle: str) -> bool:
    """Whether ``haystack`` holds at least half of ``needle``'s content words (English words
    of three letters or more, common function words left out)."""
    wanted = _content_words(needle)
    return bool(wanted) and len(wanted & _content_words(haystack)) * 2 >= len(wanted)


def score_question(qa: LocomoQA, ranked: Sequence[Retrieved], budget: int) -> QuestionScore:
    evidence = set(qa.evidence)
    strict = pack(ranked, budget)
    cut = pack(ranked, budget, truncate=True)
    first = next((i for i, r in enumerate(ranked, 1) if evidence & set(r.dia_ids)), None)

    def recall(packed: Packed) -> float:
        return len(evidence & packed.cited) / len(evidence) if evidence else 0.0

    return QuestionScore(
        category=qa.category,
        has_evidence=bool(evidence),
        recall=recall(strict),
        contained=contains_answer(strict.text, qa.answer),
        recall_trunc=recall(cut),
        contained_trunc=contains_answer(cut.text, qa.answer),
        any5=first is not None and first <= 5,
        any10=first is not None and first <= 10,
        rr=1.0 / first if first else 0.0,
    )


def summarise(scores: Sequence[QuestionScore]) -> dict[str, Any]:
    with_ev = [s for s in scores if s.has_evidence]

    def mean(values: Iterable[float]) -> float:
        values = list(values)
        return round(sum(values) / len(values), 4) if values else 0.0

    return {
        "questions": len(scores),
        "evidence_recall": mean(s.recall for s in with_ev),
        "containment": mean(float(s.contained) for s in scores),
        "evidence_recall_trunc": mean(s.recall_trunc for s in with_ev),
        "containment_trunc": mean(float(s.contained_trunc) for s in scores),
        "recall_any@5": mean(float(s.any5) for s in with_ev),
        "recall_any@10": mean(float(s.any10) for s in with_ev),
        "mrr": mean(s.rr for s in with_ev),
    }


def by_category(scores: Sequence[QuestionScore]) -> dict[str, dict[str, Any]]:
    out = {"all": summarise(scores)}
    for cat, name in CATEGORIES.items():
        subset = [s for s in scores if s.category == cat]
        if subset:
            out[f"{cat} {name}"] = summarise(subset)
    return out


def to_retrieved(hit: dict[str, Any]) -> Retrieved:
    """An API result; an excerpt's lines after its date header map to its sources in order."""
    dia_ids = tuple(str(s["external_id"]) for s in hit.get("sources", []) if s.get("external_id"))
    content = str(hit["content"])
    if hit["type"] == "episode":
        parts = content.split("\n")
        header = parts[:1] if parts and parts[0].startswith("[") else []
        body = parts[len(header) :]
        if len(body) == len(dia_ids):
            lines = lines_result("episode", header, list(zip(body, dia_ids, strict=True)))
            return replace(lines, score=float(hit.get("score", 0.0)))
    return Retrieved(str(hit["type"]), content, dia_ids, score=float(hit.get("score", 0.0)))


# -- rank metrics (retrieval_ja) ------------------------------------------------------------------


def first_rank(ranked: Sequence[Any], relevant: Iterable[Any]) -> int | None:
    """1-based rank of the first relevant item (None when none is ranked)."""
    wanted = set(relevant)
    return next((i for i, item in enumerate(ranked, 1) if item in wanted), None)


def rank_summary(ranks: Sequence[int | None], ks: Sequence[int] = (1, 5, 10)) -> dict[str, Any]:
    """MRR and recall@k over first-relevant ranks (None = not found)."""
    n = len(ranks)
    return {
        "n": n,
        "mrr": round(sum(1 / r for r in ranks if r) / n, 3) if n else 0.0,
        **{f"r@{k}": round(sum(1 for r in ranks if r and r <= k) / n, 3) if n else 0.0 for k in ks},
    }


# -- proportions --------------------------------------------------------------------------------


def wilson_lower(right: int, calls: int, z: float) -> float:
    """The lower end of the Wilson score interval of ``right`` / ``calls`` at ``z`` standard
    deviations (1.96: 95%); 0 for no calls."""
    if calls == 0:
        return 0.0
    p = right / calls
    centre = p + z * z / (2 * calls)
    spread = z * math.sqrt(p * (1 - p) / calls + z * z / (4 * calls * calls))
    return (centre - spread) / (1 + z * z / calls)


# -- timing -------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default), q in [0, 100]."""
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else 0.0


@dataclass(frozen=True)
class Repeated:
    """p50/p95 of each repeat of one measurement, summarised as best-of and median-of."""

    p50s: tuple[float, ...]
    p95s: tuple[float, ...]
    n_per_repeat: int

    @classmethod
    def of(cls, runs: Sequence[Sequence[float]]) -> Repeated:
        return cls(
            p50s=tuple(percentile(r, 50) for r in runs),
            p95s=tuple(percentile(r, 95) for r in runs),
            n_per_repeat=len(runs[0]) if runs else 0,
        )

    @property
    def p50_best(self) -> float:
        return min(self.p50s)

    @property
    def p50_median(self) -> float:
        return statistics.median(self.p50s)

    @property
    def p95_best(self) -> float:
        return min(self.p95s)

    @property
    def p95_median(self) -> float:
        return statistics.median(self.p95s)

    def as_dict(self) -> dict[str, Any]:
        return {
            "p50_best_ms": round(self.p50_best, 3),
            "p50_median_ms": round(self.p50_median, 3),
            "p95_best_ms": round(self.p95_best, 3),
            "p95_median_ms": round(self.p95_median, 3),
            "repeats": len(self.p50s),
            "n_per_repeat": self.n_per_repeat,
        }


def timed_ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return (time.perf_counter() - start) * 1000.0, result


def timed_wall_cpu_ms(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall and CPU time (this process, all threads) of one call.

    On a shared machine wall time includes waiting for a core; CPU time does not, so with one
    thread per library it estimates what the call costs on a quiet machine.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return ((time.perf_counter() - wall) * 1000.0, (time.process_time() - cpu) * 1000.0, result)


def best_and_median(values: Sequence[float], *, higher_is_better: bool = False) -> dict[str, Any]:
    """For throughputs and job times: the best run is the one least disturbed by neighbours."""
    best = max(values) if higher_is_better else min(values)
    return {"best": best, "median": statistics.median(values), "runs": list(values)}
