"""Wall time of one memory create whose dedup judges 1 or 5 stored candidates.

A persona holds ``n`` memories that differ from the new one only in a number ("The user has 2
cats named Miso and Kuro." …), so each is a candidate above the dedup threshold that the judge
weighs (the veto finds the number; the judge reads the notation cosine) and none is a
duplicate: the create embeds the new text, judges every candidate and saves the memory. Each
repeat uses a fresh persona (the setup is not timed); reported: the median and the minimum
wall time of ``MemoryService.create`` and the calls to the server's embedder inside it (the
content's own embedding included). Run on the checkout under test (``PYTHONPATH``) to compare
two versions of the write path.

    PYTHONPATH=src OMP_NUM_THREADS=1 python bench/dedup_create_cost.py [--embedder e5]
        [--candidates 1,5] [--repeats 9]
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from lib.cli import parser
from omoide.config import Settings
from omoide.wiring import build

STORED = "The user has {n} cats named Miso and Kuro."
NEW = "The user has seven cats named Miso and Kuro."


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out=None)
    bench.add_argument("--embedder", default="e5")
    bench.add_argument("--candidates", default="1,5")
    bench.add_argument("--repeats", type=int, default=9)
    args = bench.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dedup_create_cost_") as folder:
        settings = Settings.from_env({"OMOIDE_EMBEDDER": args.embedder}, data_dir=Path(folder))
        app = build(settings, llm=None)
        try:
            embedder = app.memories.dedup.embedder
            inner = embedder.embed_passages
            calls: list[int] = []

            def counted(texts: list[str]) -> object:
                calls.append(len(texts))
                return inner(texts)

            embedder.embed_passages = counted  # type: ignore[method-assign]
            app.memories.embedder.embed_passages = counted  # type: ignore[method-assign]
            for n in [int(c) for c in args.candidates.split(",")]:
                seconds, texts, outcomes = [], [], set()
                for r in range(args.repeats + 1):  # the first: warm-up, not counted
                    persona = f"cost{n}x{r}"
                    app.auth.create_persona(persona)
                    for k in range(n):
                        app.memories.create(
                            persona, app.memories.build_new(content=STORED.format(n=k + 2))
                        )
                    calls.clear()
                    started = time.perf_counter()
                    outcome = app.memories.create(persona, app.memories.build_new(content=NEW))
                    if r:
                        seconds.append(time.perf_counter() - started)
                        texts.append(f"{len(calls)} calls of {'+'.join(map(str, calls))}")
                        outcomes.add(outcome.status)
                print(
                    f"{args.embedder} {n} candidate(s): median "
                    f"{statistics.median(seconds) * 1000:.0f} ms, min "
                    f"{min(seconds) * 1000:.0f} ms over {args.repeats}; embedder "
                    f"{sorted(set(texts))}; outcome {sorted(outcomes)}"
                )
        finally:
            app.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
