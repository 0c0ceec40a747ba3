"""What the learned 3-op judge costs: milliseconds a pair, and one create's evolution.

    PYTHONPATH=src OMP_NUM_THREADS=1 .venv/bin/python bench/judge_cost.py [--pairs 120]

Three measurements, one thread, the models loaded before any clock starts:

- ``pairs``: the first ``--pairs`` pairs of ``classify_holdout20.jsonl``, one ``classify`` call
  each, as the seventeenth round measured it (a server searching with the hashing embedder, so
  the judge embeds every text itself): once with one classifier for all pairs (a server's,
  keeping the vectors of earlier calls) and once with a fresh classifier per pair (nothing kept).
- ``held``: the same pairs on an e5 server, the caller handing in the two memories' passage
  vectors (the new memory's, computed at create; the old one's, from the store) when the
  installed package takes them (``PassageVectors``): only the differing parts are embedded.
- ``create``: one memory created through the services (``MemoryService.create``, then its
  ``memory.evolve`` job, ``EvolutionService.evolve``) on an e5 server over a fresh SQLite
  folder holding five related memories (created, not evolved), so five candidates are judged;
  ``--rounds`` such memories, each in its own persona, the median and every wall time printed.

Run it on this tree and on another (``PYTHONPATH=/path/to/other/src``) to compare.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from omoide.embed.e5 import E5Embedder
from omoide.embed.hashing import HashEmbedder
from omoide.engine.classify import Candidate
from omoide.service.classify_judge import offline_classifier_for

REPO = Path(__file__).resolve().parents[1]
PAIRS = REPO / "bench" / "data" / "classify_holdout20.jsonl"
# Five memories about one person and the new one that may change them (written for this
# measurement; any related memories do: what is timed is embedding and judging five pairs).
FAMILY = (
    "{name} lives in Leeds with two cats and works as a nurse there.",
    "{name} works as a nurse at the general hospital in Leeds.",
    "{name} works night shifts as a nurse three times a week.",
    "{name} rents a flat in Leeds near the hospital.",
    "{name} cycles to the hospital in Leeds every morning.",
)
NEW = "{name} moved from Leeds to York and now works day shifts as a nurse at a clinic there."
NAMES = ("Priya", "Tomasz", "Aiko", "Daniel", "Fatima", "Lucas", "Mei", "Oliver", "Sana")


def _pairs(limit: int) -> list[dict[str, str]]:
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line]
    return rows[: limit + 1]  # the last one warms up


def _timed(calls) -> float:
    start = time.perf_counter()
    for call in calls:
        call()
    return time.perf_counter() - start


def pairs(e5: E5Embedder, rows: list[dict[str, str]]) -> dict[str, float]:
    warm, rows = rows[-1], rows[:-1]

    def one(classifier, row):
        return lambda: classifier.classify(row["new"], [Candidate("old", row["old"], 0.8)])

    shared = offline_classifier_for(HashEmbedder(), lambda: e5)
    one(shared, warm)()
    kept = _timed(one(shared, row) for row in rows)
    fresh = _timed(one(offline_classifier_for(HashEmbedder(), lambda: e5), row) for row in rows)
    out = {"kept_ms": 1000 * kept / len(rows), "fresh_ms": 1000 * fresh / len(rows)}
    try:
        from omoide.engine.classify import PassageVectors
    except ImportError:
        return out
    texts = list(dict.fromkeys(t for row in rows for t in (row["old"], row["new"])))
    held = PassageVectors(e5.model_id, dict(zip(texts, e5.embed_passages(texts), strict=True)))

    def given(row):
        classifier = offline_classifier_for(e5, lambda: e5)  # nothing kept between pairs
        return lambda: classifier.classify(
            row["new"], [Candidate("old", row["old"], 0.8)], known=held
        )

    out["held_ms"] = 1000 * _timed(given(row) for row in rows) / len(rows)
    return out


def creates(e5: E5Embedder, rounds: int) -> dict[str, object]:
    from omoide.config import Settings
    from omoide.wiring import build

    with tempfile.TemporaryDirectory(prefix="judge_cost_") as folder:
        settings = Settings.from_env({"OMOIDE_LLM_PROVIDER": "none"}, data_dir=Path(folder))
        app = build(settings, embedder=e5, llm=None)
        walls, judged, seen = [], [], []
        chosen = app.evolution.classifier_for

        def recording(cfg):
            inner = chosen(cfg)

            def classify(new, candidates, **kw):
                seen.append(len(candidates))
                return inner.classify(new, candidates, **kw)

            return type("Recording", (), {"classify": staticmethod(classify)})()

        app.evolution.classifier_for = recording
        try:
            for i in range(rounds + 1):  # the first one warms up
                name = NAMES[i % len(NAMES)]
                persona = f"cost{i}"
                app.auth.create_persona(persona)
                for text in FAMILY:  # created, not evolved: none closes another
                    app.memories.create(
                        persona, app.memories.build_new(content=text.format(name=name))
                    )
                seen.clear()
                start = time.perf_counter()
                made = app.memories.create(
                    persona, app.memories.build_new(content=NEW.format(name=name))
                )
                app.evolution.evolve(persona, made.memory.key)
                wall = time.perf_counter() - start
                if i:
                    walls.append(1000 * wall)
                    judged.append(seen[-1] if seen else 0)
        finally:
            app.close()
    return {
        "create_ms_median": statistics.median(walls),
        "create_ms": walls,
        "candidates_judged": judged,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-create", action="store_true")
    args = parser.parse_args()
    e5 = E5Embedder(threads=1)
    e5.embed_passages(["warm up"])
    out: dict[str, object] = dict(pairs(e5, _pairs(args.pairs)))
    if not args.skip_create:
        out.update(creates(e5, args.rounds))
    print(
        json.dumps(
            {k: (round(v, 1) if isinstance(v, float) else v) for k, v in out.items()},
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
