"""What the persona wall (row-level security) costs a PostgreSQL search (issue 11, item 2).

One database owned by an ordinary role (a superuser would bypass row-level security, so the
server must not connect as one), ``--personas`` personas of ``--memories`` memories each
(synthetic corpus, bulk-inserted with their vectors), then hybrid search p50/p95 on one of
them with the query embedding excluded (the hash embedder: the store is measured, not a
model). Run it on the commit before the wall and on the one with it, with the same arguments,
each run under its ``--label``; the results file keeps every label. ``--toggle`` also times the
same searches with the policies lifted from the owner (``NO FORCE ROW LEVEL SECURITY``),
alternating with the wall in one database, which isolates the policies' cost from the load of
a shared machine:

    .venv/bin/python bench/pg_wall.py --label before   # on the commit before the wall
    .venv/bin/python bench/pg_wall.py --label after --toggle

Results: bench/results/pg_wall.{md,json}.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _core_search import PrecomputedQueries, time_searches
from lib.reports import RESULTS, load_average, log, machine_info, md_table, write_results
from lib.synthetic import NOW, SEARCH_QUERIES, SyntheticCorpus
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.service.search import SearchService
from omoide.wiring import build
from scale import HYBRID, PERSONA, bulk, postgres_url

ROLE = "omoide_bench"


def owned_database(admin_url: str, name: str) -> str:
    """A new database owned by an ordinary (non-superuser) role, with pgvector; its URL as
    that role."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (ROLE,)).fetchone():
            conn.execute(f"CREATE ROLE {ROLE} LOGIN")
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name} OWNER {ROLE}")
    base, _, query = admin_url.partition("?")
    admin_db = base.rsplit("/", 1)[0] + f"/{name}" + (f"?{query}" if query else "")
    with psycopg.connect(admin_db, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    scheme, _, rest = admin_db.partition("://")
    return f"{scheme}://{ROLE}@{rest.split('@', 1)[1]}"


def measure(args: argparse.Namespace, root: Path, admin_url: str) -> dict[str, Any]:
    embedder = HashEmbedder()
    queries = list(SEARCH_QUERIES)
    url = owned_database(admin_url, "wall")
    app = build(
        Settings.from_env({"OMOIDE_DATABASE_URL": url}, data_dir=root / "data"),
        embedder=embedder,
        clock=FixedClock(NOW),
        llm=None,
    )
    try:
        corpus = SyntheticCorpus(embedder.dim)
        for i in range(args.personas):
            name = PERSONA if i == 0 else f"other{i}"
            app.auth.create_persona(name)
            bulk(app, corpus, name, args.memories)
        clock = app.clock
        assert isinstance(clock, FixedClock)
        service = SearchService(
            app.store, PrecomputedQueries(embedder, queries), clock, app.settings_service
        )
        time_searches(service, clock, HYBRID, queries, 1)  # warm: the index loads here
        walled = _forced(app)
        timed = time_searches(service, clock, HYBRID, queries, args.repeats)
        unforced = None
        if walled and args.toggle:
            # the same searches with the policies lifted from the owner, alternating
            samples: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
            for _ in range(args.repeats):
                for force in (False, True):
                    _force(app, walled, force)
                    samples[force].append(time_searches(service, clock, HYBRID, queries, 1))
            timed = _merge(samples[True])
            unforced = _merge(samples[False])
    finally:
        app.close()
    return {
        "personas": args.personas,
        "memories_per_persona": args.memories,
        "repeats": args.repeats,
        "walled_tables": len(walled),
        "search_ms": {k: v for k, v in timed.items() if k.endswith("_ms")},
        "unforced_search_ms": unforced,
        "load_average": load_average(),
        "machine": machine_info(),
    }


def _forced(app: Any) -> list[str]:
    with app.store.db.raw() as raw:
        return [
            r[0]
            for r in raw.execute(
                "SELECT relname FROM pg_class WHERE relforcerowsecurity "
                "AND relnamespace = 'public'::regnamespace ORDER BY relname"
            )
        ]


def _force(app: Any, tables: list[str], force: bool) -> None:
    with app.store.db.raw() as raw:
        for table in tables:
            raw.execute(f"ALTER TABLE {table} {'' if force else 'NO '}FORCE ROW LEVEL SECURITY")


def _merge(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One repeat per run: best and median over the runs' p50 and p95."""
    p50s = sorted(r["p50_best_ms"] for r in runs)
    p95s = sorted(r["p95_best_ms"] for r in runs)
    return {
        "p50_best_ms": p50s[0],
        "p50_median_ms": p50s[len(p50s) // 2],
        "p95_best_ms": p95s[0],
        "p95_median_ms": p95s[len(p95s) // 2],
    }


def render(runs: dict[str, Any]) -> str:
    rows = []
    for label, r in runs.items():
        for name, key in (
            (label, "search_ms"),
            (f"{label}, policies lifted", "unforced_search_ms"),
        ):
            if r.get(key):
                t = r[key]
                rows.append(
                    [
                        name,
                        r["walled_tables"] if key == "search_ms" else 0,
                        f"{r['personas']} × {r['memories_per_persona']}",
                        f"{t['p50_best_ms']:.1f}",
                        f"{t['p95_best_ms']:.1f}",
                        f"{t['p95_median_ms']:.1f}",
                        r["load_average"],
                    ]
                )
    return (
        "# PostgreSQL search with and without the persona wall\n\n"
        "Hybrid search, query embedding excluded (`bench/pg_wall.py`; best and median of "
        "the repeats).\n\n"
        + md_table(
            [
                "run",
                "walled tables",
                "personas × memories",
                "p50 ms (best)",
                "p95 ms (best)",
                "p95 ms (median)",
                "load",
            ],
            rows,
        )
        + "\n"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", required=True, help="before | after (or any name)")
    parser.add_argument("--personas", type=int, default=4)
    parser.add_argument("--memories", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pg-url", default=None, help="an admin URL (default: pgserver)")
    parser.add_argument(
        "--toggle",
        action="store_true",
        help="also time the same searches with the policies lifted from the "
        "owner (NO FORCE ROW LEVEL SECURITY), alternating with the wall",
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "pg_wall")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="omoide-wall-") as tmp:
        root = Path(tmp)
        with postgres_url(args.pg_url, root) as admin_url:
            result = measure(args, root, admin_url)
    log(f"{args.label}: {result}")
    json_path = args.out.with_suffix(".json")
    runs = json.loads(json_path.read_text())["runs"] if json_path.exists() else {}
    runs[args.label] = result
    write_results(args.out, render(runs), {"runs": runs})


if __name__ == "__main__":
    main()
