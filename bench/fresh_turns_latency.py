"""A burst of posted turns, then a search at once: who embeds the turns, and when (session 31).

Each round posts 16 invented turns to a new session (e5, one job worker) and asks a search
whose keyword side finds them at once, then waits until the segmentation job has stored their
vectors, and searches again. ``--mode``: ``both`` (the server as it runs: the job and the
search embed the fresh turns side by side), ``nojob`` (no worker: the search embeds them alone,
then the job is run and timed), ``jobonly`` (no search before the job). Prints one line a round.

    .venv/bin/python bench/fresh_turns_latency.py DIR [--mode both|nojob|jobonly] [--rounds N]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from omoide.config import Settings
from omoide.wiring import Omoide, build

PERSONA = "noa"
TOPICS = [
    "the harbour market",
    "a violin lesson",
    "the rye bread recipe",
    "a night train to the coast",
    "the lemon tree on the balcony",
    "a chess club on Thursdays",
    "the red bicycle",
    "a clay pot class",
]
TURNS = 16


def post(app: Omoide, round_no: int) -> tuple[str, float, float]:
    """The session id, the POST's own time, and when it started."""
    session_id = f"burst{round_no}"
    app.sessions.open(PERSONA, session_id=session_id)
    events = [
        {
            "speaker": "Noa" if i % 2 == 0 else "Haru",
            "role": "user" if i % 2 == 0 else "assistant",
            "content": f"Yesterday I talked about {TOPICS[(i + round_no) % len(TOPICS)]}, "
            f"and turn {i} of burst {round_no} mentions grapefruit {round_no}.",
            "external_id": f"{round_no}-{i}",
        }
        for i in range(TURNS)
    ]
    started = time.perf_counter()
    app.sessions.record(PERSONA, session_id, events)
    return session_id, time.perf_counter() - started, started


def embedded(app: Omoide, session_id: str) -> int:
    store = app.store.sessions(PERSONA)
    events = store.events_after(store.get(session_id), 0)
    return len(store.event_vectors([e.id for e in events]))


def search(app: Omoide, query: str) -> float:
    started = time.perf_counter()
    app.search.search(PERSONA, app.search.build_request(PERSONA, query=query), recall=False)
    return time.perf_counter() - started


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("data", type=Path)
    args.add_argument("--mode", choices=("both", "nojob", "jobonly"), default="both")
    args.add_argument("--rounds", type=int, default=4)
    opts = args.parse_args()
    workers = "0" if opts.mode == "nojob" else "1"
    app = build(
        Settings.from_env({"OMOIDE_EMBEDDER": "e5", "OMOIDE_WORKERS": workers}, data_dir=opts.data),
        llm=None,
    )
    if PERSONA not in {p.name for p in app.store.list_personas()}:
        app.auth.create_persona(PERSONA)
    if opts.mode != "nojob":
        app.runner.start()
    search(app, "warm up grapefruit")
    for round_no in range(opts.rounds):
        session_id, posted, started = post(app, round_no)
        at_once = search(app, f"grapefruit {round_no}") if opts.mode != "jobonly" else 0.0
        if opts.mode == "nojob":
            job_started = time.perf_counter()
            app.runner.run_until_idle()
            ready = time.perf_counter() - job_started
        else:
            while embedded(app, session_id) < TURNS:
                time.sleep(0.01)
            ready = time.perf_counter() - started
        after = search(app, f"grapefruit {round_no} market")
        print(
            f"round {round_no}: POST {posted * 1000:.0f} ms; search at once "
            f"{at_once * 1000:.0f} ms; turns stored by the job {ready * 1000:.0f} ms "
            f"after {'its start' if opts.mode == 'nojob' else 'the POST'}; "
            f"search after {after * 1000:.0f} ms",
            flush=True,
        )
        time.sleep(1.0)
    if opts.mode != "nojob":
        app.runner.stop()
    app.close()


if __name__ == "__main__":
    main()
