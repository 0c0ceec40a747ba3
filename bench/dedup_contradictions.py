"""Dedup on dedup pairs and on the 3-op classify sets' changed facts: paraphrases caught,
related facts dropped, and CONTRADICTORY pairs lost as duplicates.

Reads dedup pairs (``a``, ``b``, ``label`` duplicate/different) and 3-op classify pairs
(``old``, ``new``; only CONTRADICTORY and EXTENDABLE pairs, as ``different`` pairs whose shape
is the classify label) from every ``--data`` file. Each pair's cosine is measured with the
server's embedder; a pair at or below the dedup judge's floor is never a candidate, so it is
saved either way. Every other pair is replayed through the wired server: ``a`` created in a
persona of its own, then ``MemoryService.find_duplicate`` asked about ``b``, as a write of
``b`` would be. Reported per source file and language, pooled: duplicates caught, different
pairs dropped, CONTRADICTORY pairs dropped (a changed fact lost), each with the pairs it names.
Run it on two trees (``PYTHONPATH``) for a before / after. (Session 28's branch ``dedc28``
wrote its first form, with a toggle for the classifier's veto it tried.)

    PYTHONPATH=src OMP_NUM_THREADS=1 python bench/dedup_contradictions.py --data FILE [FILE ...]
        [--embedder e5,use] [--cache DIR] [--out bench/results/dedup_contradictions]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lib.cli import parser
from lib.embed_cache import cached_embeddings
from lib.reports import emit, md_table
from omoide.config import Settings
from omoide.wiring import build

SHAPES = ("CONTRADICTORY", "EXTENDABLE")


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    label: str  # duplicate | different
    shape: str
    lang: str
    source: str  # the file's stem


def load(path: Path) -> list[Pair]:
    """Dedup pairs as they are; classify pairs: their C and E pairs, as ``different``."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if "old" in row:
            if row["label"] in SHAPES:
                out.append(
                    Pair(row["old"], row["new"], "different", row["label"], row["lang"], path.stem)
                )
        else:
            label = "duplicate" if row["label"] == "duplicate" else "different"
            out.append(
                Pair(
                    row["a"],
                    row["b"],
                    label,
                    row.get("shape", row["label"]),
                    row["lang"],
                    path.stem,
                )
            )
    return out


def run(name: str, pairs: list[Pair], cache: Path | None) -> dict:
    """Per pair: whether the write of ``b`` is answered as a duplicate of ``a``."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="omoide-dedc-") as tmp:
        app = build(Settings.from_env({"OMOIDE_EMBEDDER": name}, data_dir=Path(tmp)), llm=None)
        try:
            mem, embedder = app.memories, app.embedder
            floor = mem.dedup.floor(embedder.calibration, 0.85) - 0.002
            texts = list(dict.fromkeys(t for p in pairs for t in (p.a, p.b)))
            if cache is not None:
                vectors = dict(zip(texts, cached_embeddings(embedder, texts, cache), strict=True))
            else:
                vectors = {}
                for i in range(0, len(texts), 64):
                    chunk = texts[i : i + 64]
                    vectors.update(zip(chunk, embedder.embed_passages(chunk), strict=True))
            dropped = []
            for i, p in enumerate(pairs):
                if float(np.dot(vectors[p.a], vectors[p.b])) <= floor:
                    dropped.append(False)
                    continue
                persona = f"p{i}"
                app.auth.create_persona(persona)
                mem.create(persona, mem.build_new(content=p.a), vector=vectors[p.a])
                dropped.append(mem.find_duplicate(persona, p.b, vectors[p.b]) is not None)
        finally:
            app.close()
    return {
        "embedder": name,
        "model_id": embedder.model_id,
        "raw_floor": round(floor, 4),
        "dropped": dropped,
        "seconds": round(time.perf_counter() - started, 1),
    }


def tally(pairs: list[Pair], dropped: list[bool]) -> dict[str, int]:
    rows = list(zip(pairs, dropped, strict=True))
    return {
        "duplicates": sum(p.label == "duplicate" for p, _ in rows),
        "caught": sum(d for p, d in rows if p.label == "duplicate"),
        "different": sum(p.label == "different" for p, _ in rows),
        "dropped": sum(d for p, d in rows if p.label == "different"),
        "contradictory": sum(p.shape == "CONTRADICTORY" for p, _ in rows),
        "c_dropped": sum(d for p, d in rows if p.shape == "CONTRADICTORY"),
    }


def groups(pairs: list[Pair]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pairs):
        kind = "dedup" if p.source.startswith("dedup") else "classify"
        for key in (f"{kind} pooled", f"{kind} pooled {p.lang}", p.source):
            out[key].append(i)
    return dict(sorted(out.items(), key=lambda kv: (" pooled" not in kv[0], kv[0])))


def _share(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f}%)" if d else "–"


def render(results: list[dict], pairs: list[Pair], command: str) -> str:
    lines = [
        "# Dedup: paraphrases caught, changed facts dropped",
        "",
        f"`{command}` on {len(pairs)} pairs from {len({p.source for p in pairs})} files.",
        "",
    ]
    for res in results:
        lines += [
            f"## {res['embedder']} — `{res['model_id']}`",
            "",
            f"Replayed from raw cosine {res['raw_floor']} up; {res['seconds']} s.",
            "",
        ]
        table = []
        for key, idx in groups(pairs).items():
            t = tally([pairs[i] for i in idx], [res["dropped"][i] for i in idx])
            table.append(
                [
                    key,
                    _share(t["caught"], t["duplicates"]),
                    _share(t["dropped"], t["different"]),
                    _share(t["c_dropped"], t["contradictory"]),
                ]
            )
        lines += [
            md_table(
                ["set", "duplicates caught", "different dropped", "CONTRADICTORY dropped"], table
            ),
            "",
        ]
        lost = [
            p
            for p, d in zip(pairs, res["dropped"], strict=True)
            if d and p.shape == "CONTRADICTORY"
        ]
        lines += [f"CONTRADICTORY pairs dropped ({len(lost)}):", ""]
        lines += [f"- [{p.source}] {p.a} → {p.b}" for p in lost] + [""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="dedup_contradictions")
    bench.add_argument("--data", type=Path, nargs="+", required=True)
    bench.add_argument("--embedder", default="e5,use")
    bench.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="a folder of passage vectors kept between runs (lib/embed_cache)",
    )
    args = bench.parse_args(argv)
    pairs = [p for path in args.data for p in load(path)]
    results = [run(n.strip(), pairs, args.cache) for n in args.embedder.split(",") if n.strip()]
    command = "python bench/dedup_contradictions.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    summary = [
        {k: v for k, v in r.items() if k != "dropped"}
        | {
            key: tally([pairs[i] for i in idx], [r["dropped"][i] for i in idx])
            for key, idx in groups(pairs).items()
        }
        for r in results
    ]
    emit(
        args,
        render(results, pairs, command),
        {"command": command, "pairs": len(pairs), "embedders": summary},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
