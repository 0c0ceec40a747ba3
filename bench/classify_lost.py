"""Where a server loses the contradictions its classifier finds: each gold CONTRADICTORY pair of
a labelled set replayed through the write path and put in the first stage that loses it.

``classify.py`` judges each pair alone; ``classify_store.py`` replays the evolution job in a
store of every old memory of the set. This bench asks, of each gold CONTRADICTORY pair that the
store replay does not close, at which stage of the server's path it was lost, in this order:

1. ``dedup``: the new memory is refused as a duplicate (``DedupDecider.duplicate_among`` over the
   five nearest stored memories at the persona's dedup threshold, as ``MemoryService`` does);
2. ``classifier``: the classifier, given the pair alone (a statement, the pair's language),
   does not say CONTRADICTORY — the classifier's miss, not the path's;
3. ``note bar``: a notes set only: alone as a statement it is CONTRADICTORY, read as the
   consolidated note the server reads (``note=True``) it is not (the notes' stricter bar);
4. ``band``: the old memory's raw cosine is under ``classify_band_low`` (and the nearest memory
   under the band, ``engine.candidates.nearest_under_band``, did not close it);
5. ``cap``: in the band but ranked below ``classify_max_candidates`` others;
6. ``context``: judged among the candidates (persona language ``auto``, stored vectors) it is
   not CONTRADICTORY although it is alone;
7. ``nearer closed``: a nearer candidate judged CONTRADICTORY was closed instead
   (``engine.candidates.closable``: the nearest only);
8. ``nearer open``: a nearer candidate, not the same fact said before, was judged otherwise,
   so nothing was closed;
9. ``not clear``: the nearest contradicted, it did not stand clear of another contradicted
   candidate, or past the same fact its verdict was not sure
   (``engine.candidates.stands_clear``), so nothing was closed.

Each new memory is judged once against its ``--pool`` nearest stored memories (every verdict
is independent of the others, ``classify_store.py``), so the stages read one trace. Per set
and language, pooled per ``--group``; counts only (a set's pairs are never printed).

    python bench/classify_lost.py --cache DIR --sets holdout46 holdout47 notes26 --out …
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

from _classify_common import CachedEmbedder, Pair, load_pairs
from _classify_data import HOLDOUTS, NOTES
from lib.cli import parser
from lib.reports import command_line, md_table, write_results
from omoide.config import PersonaSettings
from omoide.embed import make_embedder
from omoide.engine.candidates import (
    close_lead,
    judged_candidates,
    said_again,
    verdict_effects,
)
from omoide.engine.classify import Candidate, Classifier, PassageVectors, Relation
from omoide.service.classify_judge import judge_embedder_name, offline_classifier_for
from omoide.service.dedup import DedupDecider
from omoide.service.evolution import NEIGHBOUR_POOL

DATA = HOLDOUTS["holdout1"].parent
SETTINGS = PersonaSettings()
C = Relation.CONTRADICTORY.value
STAGES = (
    "closed",
    "dedup",
    "classifier",
    "note bar",
    "band",
    "cap",
    "context",
    "nearer closed",
    "nearer open",
    "not clear",
)


def set_path(name: str) -> Path:
    """A seen set by name (``holdoutN``, ``notesN``, ``shortN``), read from ``bench/data``."""
    known = {**HOLDOUTS, **NOTES}
    return known.get(name, DATA / f"classify_{name}.jsonl")


def stage_of(
    pair: Pair,
    olds: list[str],
    cosines: np.ndarray,
    classifier: Classifier,
    dedup: DedupDecider,
    embedder,
    vector: np.ndarray,
    old_vectors: np.ndarray,
    *,
    note: bool,
    raw: dict[str, float],
) -> str:
    """The first stage of the server's path that loses ``pair`` (or ``closed``)."""
    order = np.argsort(-cosines, kind="stable")
    ranked = [(int(i), float(cosines[i])) for i in order[:NEIGHBOUR_POOL]]
    target = olds.index(pair.old)
    if (
        dedup.duplicate_among(
            pair.new,
            [(olds[i], s) for i, s in ranked[:5]],
            embedder.calibration,
            SETTINGS.dedup_threshold,
        )
        is not None
    ):
        return "dedup"
    pool, under = judged_candidates(
        ranked, raw["band"], raw["floor"], SETTINGS.classify_max_candidates
    )
    verdicts = {}
    if pool:
        known = PassageVectors(
            embedder.model_id, {pair.new: vector, **{olds[i]: old_vectors[i] for i, _ in pool}}
        )
        verdicts = {
            int(v.key): v
            for v in classifier.classify(
                pair.new,
                [Candidate(str(i), olds[i], s) for i, s in pool],
                lang=SETTINGS.language,
                note=note,
                known=known,
            )
        }
    made = verdict_effects(
        pool,
        {i: (v.relation, v.confidence) for i, v in verdicts.items()},
        under_band=under,
        sure=SETTINGS.classify_nearest_confidence,
        same_fact=raw["same_fact"],
        repeated={i for i, _ in pool if said_again(olds[i], pair.new)},
        lead=close_lead(pair.new),
    )
    contradicted, closed = set(made.contradicted), made.closes
    if target in closed:
        return "closed"

    def alone(as_note: bool) -> bool:
        (v,) = classifier.classify(
            pair.new, [Candidate("old", pair.old, 0.0)], lang=pair.lang, note=as_note
        )
        return v.relation.value == C

    if not alone(False):
        return "classifier"
    if note and not alone(True):
        return "note bar"
    if float(cosines[target]) < raw["band"]:
        return "band"
    if target not in {i for i, _ in pool}:
        return "cap"
    if target not in contradicted:
        return "context"
    if not closed and not made.order:
        return "not clear"
    return "nearer closed" if closed else "nearer open"


def main() -> int:
    bench = parser(__doc__, out="classify_lost")
    bench.add_argument(
        "--sets",
        nargs="+",
        required=True,
        help="seen set names (holdoutN, notesN, shortN); notes sets are read as consolidated notes",
    )
    bench.add_argument(
        "--group",
        action="append",
        default=[],
        metavar="NAME=SET,SET",
        help="pool these sets under NAME in the report (repeatable)",
    )
    bench.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="keep passage vectors in DIR between runs (never in the repo)",
    )
    args = bench.parse_args()
    made = make_embedder("e5")
    embedder = (
        made if args.cache is None else CachedEmbedder(made, args.cache / "e5.npz", autosave=False)
    )
    judge_name = judge_embedder_name()
    classifier = offline_classifier_for(
        embedder, None if judge_name is None else (lambda: embedder)
    )
    dedup = DedupDecider(embedder)
    cal = embedder.calibration
    raw = {
        "band": cal.to_raw(SETTINGS.classify_band_low),
        "floor": cal.to_raw(SETTINGS.classify_nearest_low),
        "same_fact": cal.to_raw(SETTINGS.dedup_threshold),
    }
    counts: dict[tuple[str, str], Counter] = {}
    for name in args.sets:
        pairs = load_pairs(set_path(name))
        for lang in sorted({p.lang for p in pairs}):
            group = [p for p in pairs if p.lang == lang]
            olds = list(dict.fromkeys(p.old for p in group))
            old_vectors = embedder.embed_passages(olds)
            gold = [p for p in group if p.label == C]
            new_vectors = embedder.embed_passages([p.new for p in gold])
            tally = counts.setdefault((name, lang), Counter())
            for pair, vector in zip(gold, new_vectors, strict=True):
                tally[
                    stage_of(
                        pair,
                        olds,
                        old_vectors @ vector,
                        classifier,
                        dedup,
                        embedder,
                        vector,
                        old_vectors,
                        note=name.startswith("notes"),
                        raw=raw,
                    )
                ] += 1
            print(f"  {name} {lang}: {len(gold)} gold CONTRADICTORY", file=sys.stderr)
        if isinstance(embedder, CachedEmbedder):
            embedder.save()
    groups = {"all": list(args.sets)}
    for item in args.group:
        label, _, members = item.partition("=")
        groups[label] = members.split(",")
    rows = []
    for label, members in groups.items():
        for lang in ("en", "ja"):
            total = sum((counts.get((m, lang), Counter()) for m in members), Counter())
            n = sum(total.values())
            if n:
                rows.append([label, lang, n, *(total[s] for s in STAGES)])
    rows += [
        [name, lang, sum(c.values()), *(c[s] for s in STAGES)] for (name, lang), c in counts.items()
    ]
    text = "\n".join(
        [
            f"Command: `{command_line()}`. Gold CONTRADICTORY pairs by the first stage that loses "
            "them (`closed`: the replay closes the old memory; see the script's docstring).",
            "",
            md_table(["sets", "lang", "gold C", *STAGES], rows),
            "",
        ]
    )
    report = {
        "command": command_line(),
        "stages": list(STAGES),
        "counts": {f"{n}/{lang}": dict(c) for (n, lang), c in counts.items()},
    }
    write_results(args.out, text, report)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
