"""The cost of ``MemoryHandle.common_words`` in an e5 note search (session 31, code31 item 1).

Builds a persona of 3,000 invented notes (a user named in ~40% of them) in ``DIR`` with the e5
embedder on first use (about two minutes: straight to the store, no dedup, no jobs), then, in
one process, times ``common_words`` with its cache emptied before each call (what every search
paid before the cache) and kept, and the whole default search both ways, interleaved. Prints.

    .venv/bin/python bench/common_words_latency.py DIR [--database-url postgresql://…] [--reps N]

With ``--database-url`` the notes must already be there (``omoide migrate --to URL`` from a
folder this script built). Numbers on a shared, loaded machine are noisy: compare the two
columns of one run, not runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from omoide.config import Settings
from omoide.wiring import Omoide, build

PERSONA = "noa"
QUERIES = [
    "Where did Noa buy the kettle?",
    "What does Noa like to cook?",
    "When did Noa visit the harbour market?",
    "Noa violin repaired",
    "Which train did the brother take?",
    "What is in the garden shed?",
]


def fill(app: Omoide, n: int = 3000) -> None:
    app.auth.create_persona(PERSONA)
    rng = random.Random(7)
    subjects = [
        "Noa",
        "Noa",
        "The user",
        "Her brother",
        "The neighbour",
        "A colleague",
        "Noa's aunt",
    ]
    verbs = ["likes", "visited", "bought", "painted", "repaired", "wants", "forgot", "cooked"]
    things = [
        "a blue kettle",
        "the harbour market",
        "an old violin",
        "a rye loaf",
        "the garden shed",
        "a paper kite",
        "the mountain cabin",
        "a wool scarf",
        "the night train",
        "a clay pot",
        "the river bridge",
        "a chess set",
        "a lemon tree",
        "the cinema downtown",
        "a red bicycle",
    ]
    when = ["on Monday", "last spring", "in 2019", "every weekend", "after work", "at dawn", ""]
    texts = [
        f"{rng.choice(subjects)} {rng.choice(verbs)} {rng.choice(things)} "
        f"{rng.choice(when)} #{i}".replace("  ", " ")
        for i in range(n)
    ]
    memories, now = app.store.memories(PERSONA), app.clock.now()
    for start in range(0, n, 200):
        chunk = texts[start : start + 200]
        memories.insert_many(
            [app.memories.build_new(content=t) for t in chunk],
            app.embedder.embed_passages(chunk),
            stabilities=[1.0] * len(chunk),
            now=now,
        )


def median_ms(values: list[float]) -> str:
    ordered = sorted(values)
    return (
        f"median {statistics.median(ordered) * 1000:.3f} ms, "
        f"p90 {ordered[int(len(ordered) * 0.9)] * 1000:.3f} ms"
    )


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("data", type=Path)
    args.add_argument("--database-url")
    args.add_argument("--reps", type=int, default=20)
    opts = args.parse_args()
    environ = {"OMOIDE_EMBEDDER": "e5"}
    if opts.database_url:
        environ["OMOIDE_DATABASE_URL"] = opts.database_url
    app = build(Settings.from_env(environ, data_dir=opts.data), llm=None)
    if PERSONA not in {p.name for p in app.store.list_personas()}:
        fill(app)
    for query in QUERIES:  # warm up
        app.search.search(PERSONA, app.search.build_request(PERSONA, query=query), recall=False)
    memories = app.store.memories(PERSONA)
    for label, empty in (("emptied", True), ("kept", False)):
        times = []
        for _ in range(300):
            if empty:
                memories.forget_common_words()
            started = time.perf_counter()
            memories.common_words(["noa", "kettle"], share=0.15, least=10)
            times.append(time.perf_counter() - started)
        print(f"common_words, cache {label}: {median_ms(times)}")
    searches: dict[str, list[float]] = {"emptied": [], "kept": []}
    for rep in range(opts.reps):
        for query in QUERIES:
            for label in ("emptied", "kept") if rep % 2 else ("kept", "emptied"):
                if label == "emptied":
                    app.store.memories(PERSONA).forget_common_words()
                started = time.perf_counter()
                app.search.search(
                    PERSONA, app.search.build_request(PERSONA, query=query), recall=False
                )
                searches[label].append(time.perf_counter() - started)
    for label, times in searches.items():
        print(
            f"search, cache {label}: n={len(times)} {median_ms(times)}, "
            f"mean {statistics.mean(times) * 1000:.1f} ms"
        )
    app.close()


if __name__ == "__main__":
    main()
