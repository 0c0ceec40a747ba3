"""End-to-end 3-op classification: what a server does with a new memory among many current ones.

Every classify benchmark (``classify.py``, the LOSO scripts) judges a pair alone: the old
memory is the only candidate. A server never asks that question. Its evolution job ranks the
persona's current memories by raw cosine with the new one and judges only those from the
classification band up, at most ``classify_max_candidates`` of them
(``engine.candidates.select_candidates``); a contradicted memory under the band, or ranked
below the cap behind more similar memories, is never judged and stays current. This bench
measures that path:

- for each labelled set and language, a store holds every distinct old memory of the set in
  that language (the other pairs' old memories are the same-domain neighbourhood, the
  distractors), all current and written before every new memory;
- each new memory alone is judged as the server's evolution job judges it
  (``service.evolution``): the nearest ``NEIGHBOUR_POOL`` stored memories by raw cosine of
  passage vectors, ``select_candidates`` with the band (``classify_band_low`` through the
  embedder's calibration) and the cap, one call of the classifier a server on the embedder
  runs (``offline_classifier_for`` as the wiring builds it: rules + the packaged judge on its own
  embedder) with the candidates in rank
  order, the persona's default ``language`` and ``note=True`` for a notes set (the server's
  ``note`` for a consolidated memory), the stored vectors handed in as ``known``; the nearest
  candidate is closed when it is judged CONTRADICTORY (supersede;
  ``engine.candidates.closable``, since session 28 — ``close_any`` replays the rule before,
  every such candidate closed), EXTENDABLE extends it; when no memory is in the band, the
  nearest from ``classify_nearest_low`` up is judged and closed only on a CONTRADICTORY of
  ``classify_nearest_confidence`` (``engine.candidates.nearest_under_band``, since session 31).
  The candidates are chosen by ``engine.candidates.judged_candidates`` and the verdicts read by
  ``engine.candidates.verdict_effects``, the two calls the evolution job makes, so this replay
  cannot drift from the server's.

The store is replayed in memory (vectors from the embedder, exact cosine ranking as the stores
do), not written through SQLite; the new memories do not enter the store (each is judged
against the old ones only), and dedup (step 2) is not replayed: a new memory above the dedup
threshold that the dedup judge drops never reaches evolution (the report counts the gold pairs
above that threshold). The judge reads each candidate alone (``LearnedClassifier.classify``:
one verdict per candidate, none depends on the others), so every new memory is judged once
against the widest pool of the grid (lowest band, largest cap) and each (band, cap) is read from
those verdicts; ``--check`` re-judges each new memory with exactly the candidates of the
default and of the proposed setting, asserts the verdicts are the same and times those calls
(ms per evolve, vectors cached).

Every writer's "the user" lives under one persona here, so another pair's old memory can truly
conflict with a new memory as written (two writers' commutes: "takes the bus to work now" against
"uses the hire bikes to the office"), and closing it is right. ``bench/data/
classify_store_conflicts.jsonl`` lists the distractor closes reviewed as such (the pair, the old
memory closed, why: read as two statements about one person at their dates, both cannot hold);
the report adds their count and the C precision counting them right, beside the plain one, which
stays the headline (an unreviewed distractor close counts false; ``--reviewed none`` leaves the
file out). Only a close someone read goes in, never one chosen by a rule.

Reported per set and pooled per language and group (``older``: the sets written before the
newest three, on which a band is tuned; ``choose``: holdout71–73 and notes49–51, on which the
choice is checked): end-to-end C recall (gold CONTRADICTORY pairs whose target old memory was
closed), C precision (target closes of gold C pairs over every close: of the target whatever its
label, and of any distractor), distractor closes, E recall (target extended), the share of gold
C / E pairs whose target the band or the cap cut, and candidates judged per new memory.

    python bench/classify_store.py --cache DIR                       # every seen set
    python bench/classify_store.py --cache DIR --sets holdout50 notes28 --check
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from _classify_common import CachedEmbedder, Pair, load_pairs
from _classify_data import HOLDOUTS, NOTES
from lib.cli import parser
from lib.reports import command_line, fmt, md_table, write_results
from omoide.config import PersonaSettings
from omoide.embed import make_embedder
from omoide.embed.base import Embedder
from omoide.engine.candidates import (
    VerdictEffects,
    close_lead,
    judged_candidates,
    said_again,
    select_candidates,
    verdict_effects,
)
from omoide.engine.classify import (
    NOTE_NEAREST_THRESHOLDS,
    NOTE_THRESHOLDS,
    Candidate,
    Classifier,
    PassageVectors,
    Relation,
)
from omoide.service.classify_judge import judge_embedder_name, offline_classifier_for
from omoide.service.evolution import NEIGHBOUR_POOL

PACKAGED_NOTE_THRESHOLDS = dict(NOTE_THRESHOLDS)
PACKAGED_NEAREST = dict(NOTE_NEAREST_THRESHOLDS)
REVIEWED = Path(__file__).resolve().parent / "data" / "classify_store_conflicts.jsonl"

DATA = HOLDOUTS["holdout1"].parent
# The newest seen sets: a band tuned on the older ones is checked on these before it ships.
CHOOSE: dict[str, Path] = {
    **{f"holdout{n}": DATA / f"classify_holdout{n}.jsonl" for n in (71, 72, 73)},
    **{f"notes{n}": DATA / f"classify_notes{n}.jsonl" for n in (49, 50, 51)},
}
OLDER: dict[str, Path] = {k: v for k, v in {**HOLDOUTS, **NOTES}.items() if k not in CHOOSE}
SETTINGS = PersonaSettings()
# The grid, on the spec's scale (``classify_band_low``'s 0 – 1); the calibration maps each to
# the embedder's raw cosine.
BANDS = (0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.0)
# Every cap up to the default's (one pool of the default's size is judged; a smaller cap reads
# its first candidates).
CAPS = tuple(range(1, SETTINGS.classify_max_candidates + 1))
C, E = Relation.CONTRADICTORY.value, Relation.EXTENDABLE.value


@dataclass
class Judged:
    """One new memory: its gold pair, the target's raw cosine and rank, the ranked store and
    the verdicts of the widest pool."""

    pair: Pair
    target: int
    cosine: float
    ranked: list[tuple[int, float]]
    verdicts: dict[int, str] = field(default_factory=dict)
    # stored memories that hold the new one word for word (``engine.candidates.said_again``)
    repeated: frozenset[int] = frozenset()
    # each verdict's confidence (a memory under the band closes only on a sure one)
    confidence: dict[int, float] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "id": self.pair.id,
            "target": self.target,
            "cosine": self.cosine,
            "ranked": [[i, round(s, 6)] for i, s in self.ranked],
            "verdicts": {str(k): v for k, v in self.verdicts.items()},
            "confidence": {str(k): v for k, v in self.confidence.items()},
        }


def note_thresholds(text: str) -> dict[str, float]:
    """``--note-thresholds EN,JA`` read (ValueError when it is not two probabilities)."""
    en, ja = (float(x) for x in text.split(","))
    if not (0.0 < en <= 1.0 and 0.0 < ja <= 1.0):
        raise ValueError(text)
    return {"en": en, "ja": ja}


def notes_stamp(thresholds: dict[str, float]) -> str:
    """What the notes' thresholds add to a trace's stamp: nothing for the packaged ones (older
    traces stay valid), else the two values, so a trace is never read back for other ones."""
    if thresholds == PACKAGED_NOTE_THRESHOLDS:
        return ""
    return f"|notes {thresholds['en']:g},{thresholds['ja']:g}"


def nearest_stamp(thresholds: dict[str, float]) -> str:
    """What ``--note-nearest`` adds to a trace's stamp: nothing for the packaged bars."""
    if thresholds == PACKAGED_NEAREST:
        return ""
    return "|nearest " + ",".join(f"{k} {v:g}" for k, v in sorted(thresholds.items()))


def classifier_code_hash() -> str:
    """The server's code and packaged judges (every ``.py`` and ``.json`` file of the package),
    so a trace is never read back for another classifier: a rule changed in a module, not only
    a refitted judge, judges every set again (session 43 found candidates' runs reading back
    the other side's verdicts when only a rule had changed)."""
    h = hashlib.sha256()
    root = resources.files("omoide")
    for path in sorted(Path(str(root)).rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            h.update(path.relative_to(Path(str(root))).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:12]


def _repeated(olds: list[str], ranked: list[tuple[int, float]], new: str) -> frozenset[int]:
    """The ranked stored memories that hold ``new`` word for word, as the server reads them."""
    return frozenset(i for i, _ in ranked if said_again(olds[i], new))


def judge_set(
    name: str,
    pairs: list[Pair],
    embedder,
    classifier: Classifier,
    *,
    band: float,
    cap: int,
    note: bool,
) -> list[Judged]:
    """Every new memory of one set against the store of its language's old memories."""
    out: list[Judged] = []
    for lang in sorted({p.lang for p in pairs}):
        group = [p for p in pairs if p.lang == lang]
        olds = list(dict.fromkeys(p.old for p in group))
        old_vectors = embedder.embed_passages(olds)
        new_vectors = embedder.embed_passages([p.new for p in group])
        where = {text: i for i, text in enumerate(olds)}
        for pair, vector in zip(group, new_vectors, strict=True):
            cosines = old_vectors @ vector
            order = np.argsort(-cosines, kind="stable")
            ranked = [(int(i), float(cosines[i])) for i in order[:NEIGHBOUR_POOL]]
            target = where[pair.old]
            judged = Judged(
                pair,
                target,
                float(cosines[target]),
                ranked,
                repeated=_repeated(olds, ranked, pair.new),
            )
            pool = select_candidates(ranked, band, cap)
            if pool:
                known = PassageVectors(
                    embedder.model_id,
                    {pair.new: vector, **{olds[i]: old_vectors[i] for i, _ in pool}},
                )
                verdicts = classifier.classify(
                    pair.new,
                    [Candidate(str(i), olds[i], s) for i, s in pool],
                    lang=SETTINGS.language,
                    note=note,
                    known=known,
                )
                judged.verdicts = {int(v.key): v.relation.value for v in verdicts}
                judged.confidence = {int(v.key): v.confidence for v in verdicts}
            out.append(judged)
        print(f"  {name} {lang}: {len(group)} new memories, {len(olds)} stored", file=sys.stderr)
    return out


def effects(
    j: Judged, band: float, cap: int, *, floor: float, same_fact: float
) -> tuple[list[tuple[int, float]], VerdictEffects[int]]:
    """The candidates the server judges for ``j`` at (``band``, ``cap``), raw, with ``floor``
    the raw ``classify_nearest_low`` (``engine.candidates.judged_candidates``), and what their
    verdicts (read from the widest pool) do to them (``engine.candidates.verdict_effects``, at
    the persona's ``classify_nearest_confidence`` and the raw duplicate threshold
    ``same_fact``): the evolution job's two calls."""
    chosen, under = judged_candidates(j.ranked, band, floor, cap)
    verdicts = {i: (Relation(j.verdicts[i]), j.confidence[i]) for i, _ in chosen}
    return chosen, verdict_effects(
        chosen,
        verdicts,
        under_band=under,
        sure=SETTINGS.classify_nearest_confidence,
        same_fact=same_fact,
        repeated=j.repeated,
        lead=close_lead(j.pair.new),
    )


def outcome(
    judged: list[Judged],
    band: float,
    cap: int,
    *,
    same_fact: float,
    floor: float = math.inf,
    close_any: bool = False,
    reviewed: Mapping[str, frozenset[int]] | None = None,
) -> dict:
    """The end-to-end counts of one (band, cap): what the server closes and extends, through
    :func:`effects` (the nearest candidate, past any at or above ``same_fact``, the raw
    duplicate threshold, that is not judged CONTRADICTORY; only when judged so), as the
    server's evolution job closes; ``close_any`` is a what-if, the rule before session 28:
    every candidate judged CONTRADICTORY is closed. ``floor`` is the raw ``classify_nearest_low``
    (infinite, the default: nothing under the band is judged). ``reviewed``: by pair id, the
    stored memories whose close by that pair's new memory was reviewed as a true conflict
    (:func:`reviewed_conflicts`), counted apart among the distractor closes."""
    n = {C: 0, E: 0}
    hits = {C: 0, E: 0}
    cut_band = {C: 0, E: 0}
    cut_cap = {C: 0, E: 0}
    closes = wrong_target = distractor = conflicts = calls = 0
    for j in judged:
        candidates, made = effects(j, band, cap, floor=floor, same_fact=same_fact)
        calls += len(candidates)
        gold = j.pair.label
        if gold in n:
            n[gold] += 1
            if j.cosine < band:
                cut_band[gold] += 1
            elif j.target not in {i for i, _ in select_candidates(j.ranked, band, cap)}:
                cut_cap[gold] += 1
        closed = set(made.contradicted if close_any else made.closes)
        for i, _ in candidates:
            if i in closed:
                closes += 1
                if i != j.target:
                    distractor += 1
                    conflicts += i in (reviewed or {}).get(j.pair.id, ())
                elif gold == C:
                    hits[C] += 1
                else:
                    wrong_target += 1
            elif i in made.extended and i == j.target and gold == E:
                hits[E] += 1
    return {
        "memories": len(judged),
        "gold_c": n[C],
        "gold_e": n[E],
        "closes": closes,
        "c_hits": hits[C],
        "wrong_target_closes": wrong_target,
        "distractor_closes": distractor,
        "reviewed_conflicts": conflicts,
        "e_hits": hits[E],
        "c_cut_band": cut_band[C],
        "c_cut_cap": cut_cap[C],
        "e_cut_band": cut_band[E],
        "e_cut_cap": cut_cap[E],
        "calls": calls,
    }


def rates(counts: dict) -> dict:
    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None

    return {
        "c_recall": ratio(counts["c_hits"], counts["gold_c"]),
        "c_precision": ratio(counts["c_hits"], counts["closes"]),
        # the closes of the target alone, as the pair benchmarks count them
        "target_precision": ratio(
            counts["c_hits"], counts["c_hits"] + counts["wrong_target_closes"]
        ),
        # distractor closes reviewed as true conflicts (one persona for every writer) counted right
        "c_precision_reviewed": ratio(
            counts["c_hits"] + counts.get("reviewed_conflicts", 0), counts["closes"]
        ),
        "e_recall": ratio(counts["e_hits"], counts["gold_e"]),
        "c_cut": ratio(counts["c_cut_band"] + counts["c_cut_cap"], counts["gold_c"]),
        "c_cut_band": ratio(counts["c_cut_band"], counts["gold_c"]),
        "c_cut_cap": ratio(counts["c_cut_cap"], counts["gold_c"]),
        "e_cut_band": ratio(counts["e_cut_band"], counts["gold_e"]),
        "e_cut_cap": ratio(counts["e_cut_cap"], counts["gold_e"]),
        "calls_per_memory": ratio(counts["calls"], counts["memories"]),
    }


def reviewed_conflicts(
    path: Path | None, olds_of: Mapping[tuple[str, str], list[str]], pairs: Mapping[str, Pair]
) -> dict[str, frozenset[int]]:
    """The reviewed distractor closes of ``path`` (JSON lines: ``set``, ``id`` the new memory's
    pair, ``closed`` the old memory's text, ``why``), by pair id as the stored memories' index,
    for the sets run (``olds_of`` by set and language; ``pairs`` by id). A row whose pair or
    old memory is not there is an error: the file names what was read."""
    if path is None:
        return {}
    out: dict[str, set[int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if (row["set"], "en") not in olds_of and (row["set"], "ja") not in olds_of:
            continue
        pair = pairs[row["id"]]
        olds = olds_of[row["set"], pair.lang]
        if row["closed"] not in olds or row["closed"] == pair.old:
            raise ValueError(f"{path.name}: {row['id']}: not a distractor of its set: {row}")
        out.setdefault(pair.id, set()).add(olds.index(row["closed"]))
    return {k: frozenset(v) for k, v in out.items()}


def check(
    judged: list[tuple[Judged, list[str], bool]],
    embedder,
    classifier: Classifier,
    settings: list[tuple[float, int, float]],
) -> dict:
    """Re-judge each new memory with exactly one setting's candidates (raw band, cap, raw
    ``classify_nearest_low``), as the service calls the classifier: the verdicts must be those
    read from the widest pool; ms per evolve."""
    out = {}
    for band, cap, floor in settings:
        spent, calls = 0.0, 0
        for j, olds, note in judged:
            chosen, _ = judged_candidates(j.ranked, band, floor, cap)
            if not chosen:
                continue
            vectors = embedder.embed_passages([j.pair.new, *(olds[i] for i, _ in chosen)])
            known = PassageVectors(
                embedder.model_id,
                {
                    j.pair.new: vectors[0],
                    **{olds[i]: v for (i, _), v in zip(chosen, vectors[1:], strict=True)},
                },
            )
            start = time.perf_counter()
            verdicts = classifier.classify(
                j.pair.new,
                [Candidate(str(i), olds[i], s) for i, s in chosen],
                lang=SETTINGS.language,
                note=note,
                known=known,
            )
            spent += time.perf_counter() - start
            calls += 1
            for v in verdicts:
                if v.relation.value != j.verdicts[int(v.key)]:
                    raise AssertionError(
                        f"{j.pair.id}: candidate {v.key} judged "
                        f"{v.relation.value} with this setting's candidates, "
                        f"{j.verdicts[int(v.key)]} in the widest pool"
                    )
        out[f"{band:.4f}/{cap}"] = {
            "evolves": calls,
            "ms_per_evolve": round(1000 * spent / calls, 1) if calls else 0,
        }
    return out


def close_path(reason: str) -> str:
    """Which part of the classifier closed, read from a verdict's reason."""
    if reason.startswith("note: judge"):
        return "judge, one-sentence note (note_judge)"
    if reason.startswith("judge"):
        return "judge"
    if reason.startswith("rule: note:") or reason.startswith("rule: completed"):
        return "rules reading a note (note_close)"
    return "sure rules"


def close_paths(
    judged: list[tuple[Judged, list[str], bool]],
    classifier: Classifier,
    setting: tuple[float, int],
    same_fact: float,
    floor: float,
) -> dict:
    """Every close the server makes at ``setting`` (raw band, cap), the pair re-judged alone
    for its reason: counts by language, target or distractor, and path."""
    out: dict[str, int] = {}
    band, cap = setting
    for j, olds, note in judged:
        candidates, made = effects(j, band, cap, floor=floor, same_fact=same_fact)
        for i, s in candidates:
            if i not in made.closes:
                continue
            (verdict,) = classifier.classify(
                j.pair.new, [Candidate(str(i), olds[i], s)], lang=SETTINGS.language, note=note
            )
            whose = "target" if i == j.target else "distractor"
            key = f"{j.pair.lang}/{whose}/{close_path(verdict.reason)}"
            out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def known_sets(sets: dict[str, Path]) -> str:
    """The names of ``sets`` as runs of numbers per prefix ("holdout1-43, notes1-23"), read
    from the sets themselves: the message named counts two rounds of new sets out of date."""
    numbers: dict[str, list[int]] = {}
    others: list[str] = []
    for name in sets:
        prefix = name.rstrip("0123456789")
        if prefix == name:
            others.append(name)
        else:
            numbers.setdefault(prefix, []).append(int(name[len(prefix) :]))
    shown = []
    for prefix, found in numbers.items():
        runs: list[list[int]] = []
        for n in sorted(set(found)):
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        shown.append(
            ", ".join(f"{prefix}{r[0]}" + (f"-{r[-1]}" if len(r) > 1 else "") for r in runs)
        )
    return ", ".join([*shown, *others])


def main() -> int:
    bench = parser(__doc__, out="classify_store")
    bench.add_argument(
        "--embedder",
        choices=("e5", "use"),
        default="e5",
        help="the server's search embedder (the judge runs on its own, e5)",
    )
    bench.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="keep passage vectors (and each set's verdicts) in DIR between "
        "runs (never in the repo)",
    )
    bench.add_argument(
        "--sets",
        nargs="*",
        default=None,
        help="set names (holdoutN, notesN); default: every older and choose set",
    )
    bench.add_argument(
        "--propose",
        type=float,
        default=None,
        help="a band (spec scale) to set beside the default in the report",
    )
    bench.add_argument(
        "--check",
        action="store_true",
        help="re-judge the choose sets (every set run when none is) with the "
        "default's and the proposal's candidates alone (the verdicts must "
        "match) and time those calls",
    )
    bench.add_argument(
        "--paths",
        action="store_true",
        help="re-judge every close at the default alone and count which part of the "
        "classifier closed it (judge, note judge, note rules, sure rules)",
    )
    bench.add_argument(
        "--pairs",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="a labelled set of your own (the classify jsonl format) to replay too, pooled as "
        "the group 'given' (a NAME starting with 'notes' is read as consolidated notes); "
        "repeatable",
    )
    bench.add_argument(
        "--note-thresholds",
        default=None,
        metavar="EN,JA",
        help="replay with these notes' thresholds (engine.classify.NOTE_THRESHOLDS, the judge's "
        "C probability a one-sentence note needs in both readings) instead of the packaged ones; "
        "they enter the traces' stamp",
    )
    bench.add_argument(
        "--note-nearest",
        default=None,
        metavar="EN|off",
        help="replay with this English bar for a one-sentence note's nearest candidate "
        "(engine.classify.NOTE_NEAREST_THRESHOLDS; 'off': none) instead of the packaged one; "
        "it enters the traces' stamp (bench/note_nearest.py reads two such runs)",
    )
    bench.add_argument(
        "--reviewed",
        default=str(REVIEWED),
        metavar="PATH|none",
        help="distractor closes reviewed as true conflicts (one persona for every writer), "
        "counted apart and in a second C precision; 'none' leaves them out",
    )
    args = bench.parse_args()
    if args.note_thresholds is not None:
        try:
            NOTE_THRESHOLDS.update(note_thresholds(args.note_thresholds))
        except ValueError:
            bench.error(f"--note-thresholds wants EN,JA in (0, 1], got {args.note_thresholds!r}")
    if args.note_nearest is not None:
        NOTE_NEAREST_THRESHOLDS.pop("en", None)
        if args.note_nearest != "off":
            NOTE_NEAREST_THRESHOLDS["en"] = float(args.note_nearest)
    given: dict[str, Path] = {}
    for item in args.pairs:
        name, sep, path = item.partition("=")
        if not sep or not name or not Path(path).is_file():
            bench.error(f"--pairs wants NAME=PATH of an existing file, got {item!r}")
        given[name] = Path(path)
    everything = {**OLDER, **CHOOSE, **given}
    names = [*(args.sets or ([] if given else list(OLDER | CHOOSE))), *given]
    unknown = [n for n in names if n not in everything]
    if unknown:
        bench.error(f"unknown sets {unknown}: {known_sets(everything)}, or --pairs NAME=PATH")
    names = [n for n in names if everything[n].is_file()]

    embedders: dict[str, Embedder] = {}

    def embedder_for(name: str) -> Embedder:
        if name not in embedders:
            made = make_embedder(name)
            embedders[name] = (
                made
                if args.cache is None
                else CachedEmbedder(made, args.cache / f"{name}.npz", autosave=False)
            )
        return embedders[name]

    # what the server's wiring builds: the packaged judge on its own embedder
    embedder = embedder_for(args.embedder)
    judge_name = judge_embedder_name()
    classifier = offline_classifier_for(
        embedder, None if judge_name is None else (lambda: embedder_for(judge_name))
    )
    calibration = embedder.calibration
    band_raw = {b: calibration.to_raw(b) for b in BANDS}
    floor = calibration.to_raw(SETTINGS.classify_nearest_low)
    same_fact = calibration.to_raw(SETTINGS.dedup_threshold)
    low, wide = min(band_raw.values()), max(CAPS)
    # "conf": traces hold each verdict's confidence (session 31); an older one is judged again
    stamp = f"{embedder.model_id}|{classifier_code_hash()}|{low:.6f}|{wide}|{NEIGHBOUR_POOL}|conf"
    stamp += notes_stamp(NOTE_THRESHOLDS) + nearest_stamp(NOTE_NEAREST_THRESHOLDS)

    judged: dict[str, list[Judged]] = {}
    olds_of: dict[tuple[str, str], list[str]] = {}
    by_id: dict[str, Pair] = {}
    for name in names:
        pairs = load_pairs(everything[name])
        by_id.update((p.id, p) for p in pairs)
        for lang in {p.lang for p in pairs}:
            olds_of[name, lang] = list(dict.fromkeys(p.old for p in pairs if p.lang == lang))
        judged[name] = _traced(
            args.cache,
            name,
            stamp,
            pairs,
            lambda pairs=pairs, name=name: judge_set(
                name, pairs, embedder, classifier, band=low, cap=wide, note=name.startswith("notes")
            ),
            embedder=args.embedder,
        )
        for made in embedders.values():
            if isinstance(made, CachedEmbedder):
                made.save()

    reviewed = reviewed_conflicts(
        None if args.reviewed == "none" else Path(args.reviewed), olds_of, by_id
    )
    default = (SETTINGS.classify_band_low, SETTINGS.classify_max_candidates)
    proposed = (args.propose, default[1]) if args.propose is not None else None
    report: dict = {
        "command": command_line(),
        "embedder": embedder.model_id,
        "classifier": f"rules + learned judge ({judge_name}), as a server on "
        f"{args.embedder} runs it",
        "judges": classifier_code_hash(),
        "note_thresholds": dict(NOTE_THRESHOLDS),
        "reviewed": None if args.reviewed == "none" else Path(args.reviewed).name,
        "bands": {str(b): round(r, 4) for b, r in band_raw.items()},
        "caps": list(CAPS),
        "sets": {},
        "pooled": {},
    }

    def grid(rows: list[Judged], *, full: bool = True) -> dict:
        """Every (band, cap) and the close-any what-if; a set alone (``full`` off) gets
        every band at the default cap and every cap at the default band."""
        out = {}
        for b in BANDS:
            for c in CAPS:
                if not full and b != default[0] and c != default[1]:
                    continue
                o = outcome(
                    rows, band_raw[b], c, same_fact=same_fact, floor=floor, reviewed=reviewed
                )
                out[f"{b}/{c}"] = {**o, **rates(o)}
                if full:
                    o = outcome(
                        rows, band_raw[b], c, same_fact=same_fact, floor=floor, close_any=True
                    )
                    out[f"{b}/{c}/any"] = {**o, **rates(o)}
        return out

    for name, rows in judged.items():
        report["sets"][name] = {
            lang: grid([j for j in rows if lang in ("all", j.pair.lang)], full=False)
            for lang in ("en", "ja", "all")
        }
    groups = (("older", OLDER), ("choose", CHOOSE), ("given", given))
    for group, members in groups:
        rows = [j for name in judged if name in members for j in judged[name]]
        if rows:
            for lang in ("en", "ja", "all"):
                report["pooled"][f"{group}/{lang}"] = grid(
                    [j for j in rows if lang in ("all", j.pair.lang)]
                )
    report["above_dedup"] = _above_dedup(judged, calibration.to_raw(SETTINGS.dedup_threshold))
    if args.check:
        chosen = [default] + ([proposed] if proposed else [])
        # the newest sets when they are among those run (re-judging costs a second pass)
        checked = [name for name in judged if name in CHOOSE] or list(judged)
        report["checked_sets"] = checked
        rows = [
            (j, olds_of[name, j.pair.lang], name.startswith("notes"))
            for name in checked
            for j in judged[name]
        ]
        report["check"] = check(
            rows, embedder, classifier, [(calibration.to_raw(b), c, floor) for b, c in chosen]
        )
    if args.paths:
        raw = (calibration.to_raw(default[0]), default[1])
        report["paths"] = {
            group: close_paths(
                [
                    (j, olds_of[name, j.pair.lang], name.startswith("notes"))
                    for name in judged
                    if name in members
                    for j in judged[name]
                ],
                classifier,
                raw,
                same_fact,
                floor,
            )
            for group, members in groups
        }
    for made in embedders.values():
        if isinstance(made, CachedEmbedder):
            made.save()
    text = render(report, default, proposed)
    write_results(args.out, text, report)
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else text)
    return 0


def _traced(
    cache: Path | None, name: str, stamp: str, pairs: list[Pair], run, *, embedder: str
) -> list[Judged]:
    """One set's judged memories, read back from ``cache`` when the same judge, embedder and
    pool made them (a long run can be resumed, or split between processes)."""
    path = cache / "classify_store" / f"{name}_{embedder}.json" if cache is not None else None
    by_id = {p.id: p for p in pairs}
    if path is not None and path.is_file():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved.get("stamp") == stamp:
            olds = {
                lang: list(dict.fromkeys(p.old for p in pairs if p.lang == lang))
                for lang in {p.lang for p in pairs}
            }
            out = []
            for r in saved["judged"]:
                pair = by_id[r["id"]]
                ranked = [(int(i), float(s)) for i, s in r["ranked"]]
                out.append(
                    Judged(
                        pair,
                        r["target"],
                        r["cosine"],
                        ranked,
                        {int(k): v for k, v in r["verdicts"].items()},
                        _repeated(olds[pair.lang], ranked, pair.new),
                        {int(k): v for k, v in r["confidence"].items()},
                    )
                )
            return out
    judged = run()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(
                {"stamp": stamp, "judged": [j.to_json() for j in judged]}, ensure_ascii=False
            ),
            encoding="utf-8",
        )
    return judged


def _above_dedup(judged: dict[str, list[Judged]], raw: float) -> dict:
    """Gold C / E pairs whose cosine is above the dedup threshold: dedup (not replayed here)
    decides whether they reach evolution at all."""
    rows = [j for r in judged.values() for j in r]
    return {label: sum(j.pair.label == label and j.cosine > raw for j in rows) for label in (C, E)}


_GRID_HEAD = [
    "group",
    "band (spec)",
    "raw",
    "cap",
    "C recall",
    "C precision",
    "C precision on the target alone",
    "closes",
    "wrong-target closes",
    "distractor closes",
    "of them reviewed conflicts",
    "C precision, reviewed conflicts right",
    "E recall",
    "C cut band",
    "C cut cap",
    "E cut band",
    "E cut cap",
    "calls/memory",
]


def _grid_row(key: str, band: float, raw: float, cap: str, r: dict) -> list:
    return [
        key,
        band,
        raw,
        cap,
        fmt(r["c_recall"]),
        fmt(r["c_precision"]),
        fmt(r["target_precision"]),
        r["closes"],
        r["wrong_target_closes"],
        r["distractor_closes"],
        r.get("reviewed_conflicts", 0),
        fmt(r.get("c_precision_reviewed")),
        *(
            fmt(r[k])
            for k in (
                "e_recall",
                "c_cut_band",
                "c_cut_cap",
                "e_cut_band",
                "e_cut_cap",
                "calls_per_memory",
            )
        ),
    ]


def render(report: dict, default: tuple[float, int], proposed: tuple[float, int] | None) -> str:
    settings = [default] + ([proposed] if proposed else [])
    band0, cap0 = default
    lines = [
        f"Embedder {report['embedder']}; classifier: {report['classifier']}; "
        f"judges {report['judges']}. Command: `{report['command']}`.",
        "",
    ]
    lines += [f"## Pooled by group and language: every band at the cap {cap0}", ""]
    rows = [
        _grid_row(key, b, report["bands"][str(b)], str(cap0), grid[f"{b}/{cap0}"])
        for key, grid in report["pooled"].items()
        for b in BANDS
    ]
    lines += [md_table(_GRID_HEAD, rows), ""]
    lines += [
        f"## Pooled: every cap at the band {band0}, and the what-if where every candidate "
        "judged CONTRADICTORY is closed (`any`: the rule before session 28)",
        "",
    ]
    rows = [
        _grid_row(
            key, band0, report["bands"][str(band0)], f"{c}{suffix}", grid[f"{band0}/{c}{suffix}"]
        )
        for key, grid in report["pooled"].items()
        for suffix in ("", "/any")
        for c in CAPS
    ]
    lines += [md_table(_GRID_HEAD, rows), ""]
    lines += [
        "## Per set and language: " + " vs ".join(f"band {b} cap {c}" for b, c in settings),
        "",
    ]
    head = [
        "set",
        "lang",
        *[
            f"{what} @{b}"
            for b, _ in settings
            for what in ("C recall", "C prec", "closes", "distr.", "reviewed", "E recall")
        ],
    ]
    rows = []
    for name, langs in report["sets"].items():
        for lang in ("en", "ja"):
            row = [name, lang]
            for b, c in settings:
                r = langs[lang][f"{b}/{c}"]
                row += [
                    fmt(r["c_recall"]),
                    fmt(r["c_precision"]),
                    r["closes"],
                    r["distractor_closes"],
                    r.get("reviewed_conflicts", 0),
                    fmt(r["e_recall"]),
                ]
            rows.append(row)
    lines += [md_table(head, rows), ""]
    lines += [
        f"Gold pairs above the dedup threshold (dedup decides whether they reach "
        f"evolution; not replayed): {report['above_dedup']}.",
        "",
    ]
    if "paths" in report:
        lines += [f"## Which part of the classifier closed, at band {band0} cap {cap0}", ""]
        keys = sorted({k for counts in report["paths"].values() for k in counts})
        lines += [
            md_table(
                ["lang / whose / path", *report["paths"]],
                [[k, *(report["paths"][g].get(k, 0) for g in report["paths"])] for k in keys],
            ),
            "",
        ]
    if "check" in report:
        lines += [
            f"Re-judged ({', '.join(report['checked_sets'])}) with each setting's "
            "candidates alone, as the service calls the classifier (the same verdicts "
            "as from the widest pool): "
            + "; ".join(
                f"raw band/cap {k}: {v['evolves']} evolves, {v['ms_per_evolve']} ms "
                "per evolve (vectors cached)"
                for k, v in report["check"].items()
            ),
            "",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
