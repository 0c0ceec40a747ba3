"""The English bar of a one-sentence note's nearest candidate, chosen end to end.

    python bench/classify_store.py --cache OFF --note-nearest off --pairs notes22en=… --out …
    python bench/classify_store.py --cache FLOOR --note-nearest 0.85 --pairs notes22en=… --out …
    python bench/note_nearest.py --off OFF --floor FLOOR --pairs notes22en=PATH … --out …

``engine.classify.NOTE_NEAREST_THRESHOLDS``: a consolidated note of one sentence closes the stored
memory nearest it when the judge's C probability (read as the notes' bar reads it) reaches a bar
under the notes' own (``NOTE_THRESHOLDS``). Pair by pair a lower bar looks clean; in a store it
also closes neighbouring facts (``bench/results/note_bar_s31.md``), so the bar is chosen on
``classify_store.py`` traces: two runs of the same sets, the tier off and at its floor. Each new
memory's verdicts are the floor run's where the tier made a CONTRADICTORY verdict at or above a
threshold ``T`` (the verdict's confidence is the tier's probability) and the off run's elsewhere;
the server's close (``classify_store.effects``: band, cap, nearest, stands clear) is replayed at
the persona's defaults. Per ``T`` of the grid: true closes, false closes (wrong target or
another memory), distractor closes, C recall, C precision; pooled, and leave one set out.

The rule (session 36): the lowest grid ``T`` from which the pooled closes' C precision keeps a
Wilson lower bound (z = 1) ≥ 0.95 at every higher ``T`` too; leave-one-set-out, the threshold
chosen on the other sets scores the one left out. Reads the traces; embeds nothing.

``--guard`` (session 37): the tier's guard (``judge_signals.retold``: a note that tells the old
fact again in a frame of the past) applied to floor traces made before it; the report also
gives every set at the packaged setting (``NOTE_NEAREST_THRESHOLDS``, ``NOTE_NEAREST_LEAD``).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import classify_store as cs
from _classify_common import Pair, load_pairs
from lib.cli import parser
from lib.reports import command_line, md_table, write_results
from omoide.embed import make_embedder
from omoide.engine.classify import NOTE_NEAREST_LEAD, NOTE_NEAREST_THRESHOLDS, read_pair, retold

LEADS = (0.0, 0.005, 0.01, 0.015, 0.02)
GRID = (0.85, 0.86, 0.87, 0.88, 0.89, 0.9, 0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99)
Z, PRECISION = 1.0, 0.95
C = "CONTRADICTORY"


def traces(cache: Path, name: str, pairs: list[Pair]) -> dict[str, cs.Judged]:
    """One set's judged memories as ``classify_store.py`` saved them under ``cache``."""
    saved = json.loads((cache / "classify_store" / f"{name}_e5.json").read_text("utf-8"))
    by_id = {p.id: p for p in pairs}
    olds = list(dict.fromkeys(p.old for p in pairs))
    out = {}
    for r in saved["judged"]:
        pair = by_id[r["id"]]
        ranked = [(int(i), float(s)) for i, s in r["ranked"]]
        verdicts = {int(k): v for k, v in r["verdicts"].items()}
        confidence = {int(k): v for k, v in r["confidence"].items()}
        repeated = cs._repeated(olds, ranked, pair.new)
        out[r["id"]] = cs.Judged(
            pair, r["target"], r["cosine"], ranked, verdicts, repeated, confidence
        )
    return out


def guarded_by_retold(judged: cs.Judged, olds: list[str]) -> frozenset[int]:
    """The judged memories the tier's guard keeps from its bar (``judge_signals.retold``: the
    note tells the old fact again in a frame of the past), for floor traces made before it."""
    return frozenset(
        k for k in judged.verdicts if retold(read_pair(olds[k], judged.pair.new, lang="en"))
    )


def lead_of(judged: cs.Judged) -> float:
    """How far (raw cosine) the nearest judged memory leads the next one."""
    ranked = judged.ranked
    return ranked[0][1] - ranked[1][1] if len(ranked) > 1 else math.inf


def at(
    off: cs.Judged,
    floor: cs.Judged,
    threshold: float,
    lead: float = 0.0,
    guarded: frozenset[int] = frozenset(),
) -> cs.Judged:
    """The memory's verdicts with the tier at ``threshold`` and the nearest's ``lead``: the
    floor run's tier closes whose probability reaches it, the off run's verdicts elsewhere;
    a close of a ``guarded`` memory is the off run's verdict too."""
    verdicts, confidence = dict(off.verdicts), dict(off.confidence)
    clear = lead_of(floor) >= lead
    for k, v in floor.verdicts.items():
        added = v == C and off.verdicts.get(k) != C and k not in guarded
        if added and clear and floor.confidence[k] >= threshold:
            verdicts[k], confidence[k] = v, floor.confidence[k]
    return cs.Judged(
        floor.pair, floor.target, floor.cosine, floor.ranked, verdicts, floor.repeated, confidence
    )


def closes(judged: list[cs.Judged], settings: tuple[float, int, float, float]) -> list[int]:
    """True closes, false closes, distractor closes, gold C of the memories."""
    band, cap, floor, same_fact = settings
    true = false = distractor = 0
    for j in judged:
        _, made = cs.effects(j, band, cap, floor=floor, same_fact=same_fact)
        for i in made.closes:
            if i == j.target and j.pair.label == C:
                true += 1
            else:
                false += 1
                distractor += i != j.target
    return [true, false, distractor, sum(j.pair.label == C for j in judged)]


def wilson(true: int, n: int, z: float = Z) -> float:
    """The Wilson lower bound of ``true / n``."""
    if n == 0:
        return 1.0
    p = true / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


def choose(counts: dict[float, list[int]]) -> float:
    """The lowest grid threshold from which every higher one keeps the Wilson bound ≥ 0.95
    (``math.inf``, the tier off, when none does)."""
    chosen = math.inf
    for t in sorted(counts, reverse=True):
        true, false = counts[t][0], counts[t][1]
        if wilson(true, true + false) < PRECISION:
            break
        chosen = t
    return chosen


Setting = tuple[float, float]  # (lead, threshold)


def pooled(per_set: dict[str, dict[Setting, list[int]]], names: list[str]) -> dict:
    settings = next(iter(per_set.values())).keys()
    return {st: [sum(per_set[n][st][k] for n in names) for k in range(4)] for st in settings}


def choose_setting(counts: dict[Setting, list[int]]) -> Setting:
    """Per lead the threshold ``choose`` reads; of those, the one with the most true closes
    (the larger lead on a tie)."""
    best: Setting = (0.0, math.inf)
    for lead in LEADS:
        t = choose({th: c for (ld, th), c in counts.items() if ld == lead})
        if counts[lead, t][0] > counts[best][0] or (
            counts[lead, t][0] == counts[best][0] and lead > best[0]
        ):
            best = (lead, t)
    return best


def row(label: str, c: list[int]) -> list[str]:
    true, false, distractor, gold = c
    made = true + false
    precision = f"{true / made:.3f}" if made else "-"
    return [label, f"{true}/{made}", str(distractor), precision, f"{true / gold:.3f}"]


def shown(setting: Setting) -> str:
    lead, t = setting
    return "off" if math.isinf(t) else f"{t:.2f}, lead {lead:g}"


def main() -> int:
    bench = parser(__doc__, out="note_nearest")
    bench.add_argument("--off", type=Path, required=True, help="the tier-off run's --cache")
    bench.add_argument("--floor", type=Path, required=True, help="the floor run's --cache")
    bench.add_argument("--pairs", action="append", default=[], metavar="NAME=PATH")
    bench.add_argument(
        "--score",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="sets only scored at the setting chosen on --pairs (their traces in the same caches)",
    )
    bench.add_argument(
        "--guard",
        action="store_true",
        help="keep the tier off a pair its guard reads as the old fact told again "
        "(judge_signals.retold), for a floor run made before the guard (session 37)",
    )
    args = bench.parse_args()
    cal = make_embedder("e5").calibration
    server = (
        cal.to_raw(cs.SETTINGS.classify_band_low),
        cs.SETTINGS.classify_max_candidates,
        cal.to_raw(cs.SETTINGS.classify_nearest_low),
        cal.to_raw(cs.SETTINGS.dedup_threshold),
    )
    grid = [(lead, t) for lead in LEADS for t in (*GRID, math.inf)]

    def read(items: list[str]) -> dict[str, dict[Setting, list[int]]]:
        out = {}
        for item in items:
            name, _, path = item.partition("=")
            pairs = load_pairs(Path(path))
            off, floor = traces(args.off, name, pairs), traces(args.floor, name, pairs)
            olds = list(dict.fromkeys(p.old for p in pairs))
            guards = {
                i: guarded_by_retold(floor[i], olds) if args.guard else frozenset() for i in floor
            }
            out[name] = {
                st: closes([at(off[i], floor[i], st[1], st[0], guards[i]) for i in floor], server)
                for st in grid
            }
        return out

    per_set = read(args.pairs)
    names = list(per_set)
    total = pooled(per_set, names)
    chosen = choose_setting(total)
    held = {n: choose_setting(pooled(per_set, [m for m in names if m != n])) for n in names}
    held_counts = [sum(per_set[n][held[n]][k] for n in names) for k in range(4)]
    head = ["setting", "true/closes", "distractor closes", "C precision", "C recall"]
    curves = [
        f"### lead ≥ {lead:g}\n\n"
        + md_table(head, [row(shown((lead, t)), total[lead, t]) for t in (math.inf, *GRID)])
        for lead in LEADS
    ]
    folds = [[n, shown(held[n]), *row("", per_set[n][held[n]])[1:]] for n in names]
    parts = [
        "# The nearest note bar (NOTE_NEAREST_THRESHOLDS['en']), end to end",
        f"Command: `{command_line()}`.",
        "## Pooled curves (every --pairs set)",
        *curves,
        f"Chosen on every set (per lead the lowest T with Wilson z={Z:g} ≥ {PRECISION} all the "
        f"way up; the lead with the most true closes): **{shown(chosen)}**.",
        "## Leave one set out\n\n" + md_table(["held out", *head], folds),
        "Held out, pooled: " + " | ".join(row("", held_counts)[1:]),
    ]
    scored = read(args.score)
    if scored:
        lines = [
            [n, *row("off", v[0.0, math.inf])[1:], *row("", v[chosen])[1:]]
            for n, v in scored.items()
        ]
        both = [
            "set",
            "off: true/closes",
            "distractor",
            "P",
            "R",
            "chosen: true/closes",
            "distractor",
            "P",
            "R",
        ]
        parts.append("## Scored at the chosen setting (--score)\n\n" + md_table(both, lines))
    packaged = (NOTE_NEAREST_LEAD, NOTE_NEAREST_THRESHOLDS.get("en", math.inf))
    if packaged in total:
        shipped = [row(f"{n} (--score)", v[packaged]) for n, v in scored.items()]
        pooled_scored = pooled(scored, list(scored)) if scored else {}
        if scored:
            shipped.append(row("--score pooled", pooled_scored[packaged]))
        parts.append(
            f"## At the packaged setting ({shown(packaged)})\n\n"
            + md_table(head, [row("--pairs pooled", total[packaged]), *shipped])
        )
    text = "\n\n".join(parts)
    report = {
        "chosen": list(chosen),
        "held_out": {n: list(v) for n, v in held.items()},
        "per_set": {
            n: {f"{ld:g}/{t:g}": c for (ld, t), c in v.items()}
            for n, v in {**per_set, **scored}.items()
        },
    }
    write_results(args.out, text + "\n", report)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
