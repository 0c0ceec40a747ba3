"""Dedup on labelled pairs through the real write path: paraphrases caught, changed facts kept.

For every pair (``a`` stored first, then ``b``) this creates both memories with
``MemoryService.create`` in a persona of its own (a fresh, empty memory store: personas are
walled off in the storage layer), with the real embedder, its calibration and the default
``dedup_threshold``, and records whether ``b`` was answered ``duplicate`` or ``created``. It
reports per embedder, split and language:

- paraphrases caught: share of ``duplicate`` pairs answered ``duplicate`` (duplicate recall);
- wrongly dropped: share of ``different`` pairs answered ``duplicate`` (false duplicate rate);
- linked: of the ``different`` pairs saved (and long enough to evolve), how many evolution
  linked (a SEMANTIC link between the two memories, after the background jobs ran);

next to what cosine alone (no value-change veto) would have done, and, with ``--sweep``, the
same two numbers over a range of raw thresholds (cosine + veto, from the engine directly) to
choose a calibration anchor on the train split, and what the decision adds to a write with a
candidate above the judge's floor (``service/dedup.py``: notation, veto, learned judge). Writes
``bench/results/dedup.md`` and ``.json``.
It also reads the calibration pairs' format (``src/omoide/embed/calibration_pairs.jsonl``).

    .venv/bin/python bench/dedup.py [--data PATH] [--embedder e5,use] [--split all|train|validation]
                                    [--sweep] [--out bench/results/dedup]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from lib.cli import parser
from lib.reports import REPO, emit, md_table, shown_path
from omoide.clock import SystemClock
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.classify import find_dedup_change, pair_notation
from omoide.engine.width import text_columns
from omoide.service.dedup import DedupDecider, kanji_readings
from omoide.wiring import build

DEFAULT_DATA = REPO / "bench" / "data" / "dedup_pairs.jsonl"
SPLITS = ("train", "validation")
TARGET_RECALL = 0.85
TARGET_FALSE = 0.03
EVOLUTION_MIN_CHARS = 30  # the default evolution_min_chars: shorter memories link nothing


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    label: str  # "duplicate" | "different"
    lang: str
    shape: str
    split: str


@dataclass(frozen=True)
class Decision:
    pair: Pair
    cosine: float
    status: str  # what MemoryService.create answered for b
    veto: str | None  # the value change dedup's veto finds between a and b, if any
    linked: bool | None  # evolution linked a and b (None: b was not saved)


@dataclass(frozen=True)
class Score:
    duplicates: int
    caught: int
    different: int
    dropped: int
    cosine_caught: int  # cosine alone (no veto)
    cosine_dropped: int
    saved_long: int  # different pairs saved whose new text is long enough to evolve
    linked_long: int  # … of which evolution linked the two

    @property
    def recall(self) -> float | None:
        return self.caught / self.duplicates if self.duplicates else None

    @property
    def false_rate(self) -> float | None:
        return self.dropped / self.different if self.different else None


def load_pairs(path: Path) -> list[Pair]:
    """Dedup pairs, or the calibration pairs' format (``related`` / ``unrelated`` count as
    ``different``; no split: reported as ``unsplit``). A split is any non-empty name (a held-out
    set names its own); ``train`` and ``validation`` are reported first."""
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            label = "duplicate" if row["label"] == "duplicate" else "different"
            pair = Pair(
                a=row["a"],
                b=row["b"],
                label=label,
                lang=row["lang"],
                shape=row.get("shape", row["label"]),
                split=row.get("split", "unsplit"),
            )
        except (ValueError, KeyError) as exc:
            raise SystemExit(f"{path}:{number}: bad pair ({exc})") from exc
        if not isinstance(pair.split, str) or not pair.split.strip():
            raise SystemExit(f"{path}:{number}: split must be a non-empty name")
        pairs.append(pair)
    return pairs


def run_embedder(name: str, pairs: list[Pair]) -> tuple[list[Decision], dict]:
    """Create a then b for every pair through the wired service; no LLM, workers idle."""
    embedder = make_embedder(name)
    started = time.perf_counter()
    decisions = []
    with tempfile.TemporaryDirectory(prefix="omoide-dedup-") as tmp:
        app = build(
            Settings.from_env({}, data_dir=Path(tmp)),
            embedder=embedder,
            clock=SystemClock(),
            llm=None,
        )
        try:
            for i, pair in enumerate(pairs):
                persona = f"p{i}"
                app.auth.create_persona(persona)
                first = app.memories.create(persona, app.memories.build_new(content=pair.a))
                assert first.status == "created"
                second = app.memories.create(persona, app.memories.build_new(content=pair.b))
                app.runner.run_until_idle()  # evolution of both memories
                linked = None
                if second.status == "created":
                    links = app.memories.links(persona, second.memory.key)
                    linked = first.memory.key in {link.other_key for link in links}
                vectors = embedder.embed_passages([pair.a, pair.b])
                change = find_dedup_change(pair.a, pair.b)
                decisions.append(
                    Decision(
                        pair,
                        round(float(vectors[0] @ vectors[1]), 4),
                        second.status,
                        change.reason if change else None,
                        linked,
                    )
                )
            floor = app.memories.dedup.floor(embedder.calibration, 0.85)
            cost = decision_cost(
                app.memories.dedup, decisions, embedder.calibration.to_raw(0.85), floor
            )
        finally:
            app.close()
    threshold = embedder.calibration.to_raw(0.85)
    meta = {
        "embedder": name,
        "model_id": embedder.model_id,
        "raw_threshold": round(threshold, 4),
        "raw_floor": round(floor, 4),
        "anchors": embedder.calibration.anchors,
        "evolution_from": round(embedder.calibration.to_raw(0.8), 4),
        "seconds": round(time.perf_counter() - started, 1),
        **cost,
    }
    return decisions, meta


def decision_cost(
    decider: DedupDecider, decisions: list[Decision], raw: float, floor: float
) -> dict[str, float | str | None]:
    """What deciding a candidate adds to a write, in milliseconds (mean over the pairs above
    the floor, the part embedder already built): the veto alone, the
    notation step and the veto, then the whole decision (notation, veto and the learned judge:
    the aligned difference embedded and scored)."""
    above = [d for d in decisions if d.cosine > floor]
    if not above:
        return {"veto_ms": None, "notation_ms": None, "judge_ms": None, "judge": None}
    cost: dict[str, float | str | None] = {
        "judge": "learned" if decider.model is not None else "veto alone"
    }
    for name, decide in (
        ("veto_ms", lambda d: find_dedup_change(d.pair.a, d.pair.b)),
        (
            "notation_ms",
            lambda d: find_dedup_change(*pair_notation(d.pair.a, d.pair.b, kanji=kanji_readings())),
        ),
        (
            "judge_ms",
            lambda d: decider.is_duplicate(d.pair.a, d.pair.b, d.cosine, in_band=d.cosine <= raw),
        ),
    ):
        decide(above[0])  # build the part embedder before timing
        started = time.perf_counter()
        for decision in above:
            decide(decision)
        cost[name] = round(1000 * (time.perf_counter() - started) / len(above), 2)
    return cost


def score(decisions: list[Decision], threshold: float) -> Score:
    dup = [d for d in decisions if d.pair.label == "duplicate"]
    diff = [d for d in decisions if d.pair.label == "different"]
    long = [d for d in diff if text_columns(d.pair.b) >= EVOLUTION_MIN_CHARS]
    return Score(
        duplicates=len(dup),
        caught=sum(d.status == "duplicate" for d in dup),
        different=len(diff),
        dropped=sum(d.status == "duplicate" for d in diff),
        cosine_caught=sum(d.cosine > threshold for d in dup),
        cosine_dropped=sum(d.cosine > threshold for d in diff),
        saved_long=sum(d.linked is not None for d in long),
        linked_long=sum(bool(d.linked) for d in long),
    )


def table(decisions: list[Decision], threshold: float) -> dict:
    out: dict = {}
    present = {d.pair.split for d in decisions}
    for split in [*[s for s in SPLITS if s in present], *sorted(present - set(SPLITS))]:
        in_split = [d for d in decisions if d.pair.split == split]
        out[split] = {"all": score(in_split, threshold)}
        for lang in dict.fromkeys(d.pair.lang for d in in_split):
            out[split][lang] = score([d for d in in_split if d.pair.lang == lang], threshold)
    return out


def sweep(decisions: list[Decision], split: str) -> list[dict]:
    """Recall and false duplicate rate of "cosine > t and no value change" over raw t."""
    chosen = [d for d in decisions if d.pair.split == split]
    cosines = np.array([d.cosine for d in chosen])
    rows = []
    for t in np.unique(np.round(cosines, 3)):
        t = float(t) - 0.0005
        dup = [d for d in chosen if d.pair.label == "duplicate"]
        diff = [d for d in chosen if d.pair.label == "different"]
        caught = sum(d.cosine > t and d.veto is None for d in dup)
        dropped = sum(d.cosine > t and d.veto is None for d in diff)
        rows.append(
            {
                "threshold": round(t, 4),
                "recall": round(caught / len(dup), 3),
                "false_rate": round(dropped / len(diff), 3),
            }
        )
    return rows


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def render(results: list[dict], header: str) -> str:
    lines = ["# Dedup on labelled pairs", "", header, ""]
    for res in results:
        meta = res["meta"]
        lines += [
            f"## {meta['embedder']} — `{meta['model_id']}`",
            "",
            f"Raw dedup threshold {meta['raw_threshold']} (spec 0.85 through the "
            f"calibration); candidates from raw {meta['raw_floor']} (the judge's floor); "
            f"{meta['seconds']} s. Decision: {meta['judge']}; deciding a candidate takes "
            f"{meta['judge_ms']} ms (the veto alone: {meta['veto_ms']} ms; notation and "
            f"veto: {meta['notation_ms']} ms; mean over the pairs above the floor, the "
            "part embedder already built).",
            "",
            md_table(
                [
                    "split",
                    "pairs",
                    "paraphrases caught",
                    "wrongly dropped",
                    "cosine alone: caught",
                    "cosine alone: dropped",
                    "different & saved: linked",
                ],
                [
                    [
                        split,
                        lang,
                        f"{s.caught}/{s.duplicates} ({_pct(s.recall)})",
                        f"{s.dropped}/{s.different} ({_pct(s.false_rate)})",
                        f"{s.cosine_caught}/{s.duplicates}",
                        f"{s.cosine_dropped}/{s.different}",
                        f"{s.linked_long}/{s.saved_long}",
                    ]
                    for split, by_lang in res["scores"].items()
                    for lang, s in by_lang.items()
                ],
            ),
        ]
        lines += [
            "",
            f"Evolution links neighbours from raw cosine {meta['evolution_from']} up. "
            '"Linked" counts related-but-different pairs whose second memory was saved '
            f"and is at least {EVOLUTION_MIN_CHARS} characters long, a wide character "
            "counting two (shorter memories link nothing).",
            "",
            "Errors (cosine, split, shape; the value change found, if any):",
            "",
        ]
        for d in res["errors"]:
            kind = "missed paraphrase" if d.pair.label == "duplicate" else "dropped"
            lines.append(
                f"- {kind} {d.cosine:.3f} [{d.pair.split}, {d.pair.shape}] "
                f"{d.pair.a} → {d.pair.b}" + (f" ({d.veto})" if d.veto else "")
            )
        if res.get("sweep"):
            lines += [
                "",
                f"Threshold sweep on {res['sweep_split']} (cosine + veto):",
                "",
                md_table(
                    ["raw threshold", "recall", "false dup rate"],
                    [
                        [str(r["threshold"]), f"{r['recall']:.3f}", f"{r['false_rate']:.3f}"]
                        for r in res["sweep"]
                    ],
                ),
            ]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="dedup", data=DEFAULT_DATA)
    bench.add_argument("--embedder", default="e5,use")
    bench.add_argument(
        "--split",
        default="all",
        help="score only this split (all, train, validation, or the name a "
        "held-out set gives its rows)",
    )
    bench.add_argument(
        "--sweep", action="store_true", help="threshold sweep on the train split (tuning aid)"
    )
    args = bench.parse_args(argv)
    pairs = load_pairs(args.data)
    if args.split != "all":
        pairs = [p for p in pairs if p.split == args.split]
    results, payload = [], []
    for name in [n.strip() for n in args.embedder.split(",") if n.strip()]:
        decisions, meta = run_embedder(name, pairs)
        wrong = [d for d in decisions if (d.status == "duplicate") != (d.pair.label == "duplicate")]
        res = {
            "meta": meta,
            "scores": table(decisions, meta["raw_threshold"]),
            "errors": sorted(wrong, key=lambda d: (d.pair.split, d.pair.label, -d.cosine)),
        }
        if args.sweep and any(d.pair.split == "train" for d in decisions):
            res["sweep"], res["sweep_split"] = sweep(decisions, "train"), "train"
        results.append(res)
        payload.append(
            {
                **meta,
                "scores": {
                    split: {
                        lang: {**asdict(s), "recall": s.recall, "false_rate": s.false_rate}
                        for lang, s in by_lang.items()
                    }
                    for split, by_lang in res["scores"].items()
                },
                "decisions": [
                    {
                        **asdict(d.pair),
                        "cosine": d.cosine,
                        "status": d.status,
                        "veto": d.veto,
                        "linked": d.linked,
                    }
                    for d in decisions
                ],
            }
        )
    command = "python bench/dedup.py " + " ".join(argv if argv is not None else sys.argv[1:])
    header = (
        f"`{command.strip()}` on {len(pairs)} pairs from `{shown_path(args.data)}` "
        f"(targets on validation with e5: paraphrases caught ≥ {TARGET_RECALL:.0%}, "
        f"related-but-different wrongly dropped ≤ {TARGET_FALSE:.0%}). Each pair: "
        "`a` created, then `b` through `MemoryService.create` in an empty persona."
    )
    emit(
        args,
        render(results, header),
        {"command": command.strip(), "pairs": len(pairs), "embedders": payload},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
