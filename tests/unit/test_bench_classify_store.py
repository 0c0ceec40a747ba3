"""The end-to-end classification bench (``bench/classify_store.py``): what a server closes and
extends among many stored memories, counted per (band, cap); and the embedding cache that saves
once."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import classify_store as store  # noqa: E402
from _classify_common import CachedEmbedder, Pair  # noqa: E402
from omoide.embed.hashing import HashEmbedder  # noqa: E402


def judged(
    label: str, target: int, ranked: list[tuple[int, float]], verdicts: dict[int, str]
) -> store.Judged:
    pair = Pair(
        id=f"p{target}{label[0]}", lang="en", old="old", new="new", label=label, difficulty="easy"
    )
    cosine = dict(ranked)[target]
    # every verdict sure unless a test says otherwise (only under the band does it count)
    sure = dict.fromkeys(verdicts, 1.0)
    return store.Judged(pair, target, cosine, ranked, verdicts, confidence=sure)


ROWS = [
    # a contradiction whose target is the second nearest, at 0.84: under a band of 0.86
    judged("CONTRADICTORY", 1, [(0, 0.9), (1, 0.84)], {0: "INDEPENDENT", 1: "CONTRADICTORY"}),
    # an extension whose target is nearest; a distractor is closed by it
    judged("EXTENDABLE", 2, [(2, 0.95), (3, 0.88)], {2: "EXTENDABLE", 3: "CONTRADICTORY"}),
    # a contradiction ranked third: the cap of 2 cuts it whatever the band
    judged(
        "CONTRADICTORY",
        4,
        [(5, 0.97), (6, 0.96), (4, 0.95)],
        {5: "INDEPENDENT", 6: "INDEPENDENT", 4: "CONTRADICTORY"},
    ),
]


def test_a_high_band_cuts_the_target_and_a_low_one_closes_it() -> None:
    high = store.outcome(ROWS, 0.86, 2, same_fact=0.99, close_any=True)
    assert (high["c_hits"], high["c_cut_band"], high["c_cut_cap"]) == (0, 1, 1)
    assert (high["closes"], high["distractor_closes"], high["e_hits"]) == (1, 1, 1)
    low = store.outcome(ROWS, 0.8, 2, same_fact=0.99, close_any=True)
    assert (low["c_hits"], low["c_cut_band"], low["closes"]) == (1, 0, 2)
    assert store.rates(low)["c_precision"] == 0.5
    assert store.rates(low)["c_recall"] == 0.5
    assert low["calls"] == 6


def test_a_wider_cap_reaches_the_third_memory() -> None:
    counts = store.outcome(ROWS, 0.8, 3, same_fact=0.99, close_any=True)
    assert (counts["c_hits"], counts["c_cut_cap"]) == (2, 0)


def test_the_cache_without_autosave_writes_only_when_saved(tmp_path: Path) -> None:
    path = tmp_path / "v.npz"
    cached = CachedEmbedder(HashEmbedder(16), path, autosave=False)
    vectors = cached.embed_passages(["a cat", "a dog"])
    assert not list(tmp_path.iterdir())
    cached.save()
    again = CachedEmbedder(HashEmbedder(16), path)
    assert np.allclose(again.embed_passages(["a cat", "a dog"]), vectors)


def test_the_server_closes_only_the_nearest_candidate() -> None:
    counts = store.outcome(ROWS, 0.8, 2, same_fact=0.99)
    # the second row's distractor (ranked second) is no longer closed; the first row's target,
    # ranked second, is not closed either
    assert (counts["closes"], counts["distractor_closes"], counts["c_hits"]) == (0, 0, 0)
    assert counts["e_hits"] == 1


def test_a_close_is_put_down_to_the_part_that_made_it() -> None:
    assert store.close_path("judge (I=0.01, E=0.02, C=0.97)") == "judge"
    assert store.close_path("note: judge (I=0.00, E=0.00, C=1.00)").startswith("judge, one")
    assert store.close_path("rule: note: ended piano") == "rules reading a note (note_close)"
    assert store.close_path("rule: changed from the old value to another") == "sure rules"


def test_a_restatement_nearer_than_the_contradicted_memory_is_passed_over() -> None:
    # the nearest (0.97) says the new memory's fact again (not contradicted): the close falls on
    # the next, the memory the new one changes; under a higher duplicate threshold it does not
    row = judged("CONTRADICTORY", 8, [(7, 0.97), (8, 0.9)], {7: "EXTENDABLE", 8: "CONTRADICTORY"})
    assert store.outcome([row], 0.8, 5, same_fact=0.95)["c_hits"] == 1
    assert store.outcome([row], 0.8, 5, same_fact=0.99)["c_hits"] == 0


def test_the_nearest_under_the_band_closes_on_a_sure_verdict_alone() -> None:
    # nothing in the band (0.86): the nearest, at 0.85, is judged from the floor (0.84) up
    sure = judged("CONTRADICTORY", 1, [(1, 0.85), (2, 0.80)], {1: "CONTRADICTORY"})
    sure.confidence = {1: 0.99}
    unsure = judged("CONTRADICTORY", 3, [(3, 0.85)], {3: "CONTRADICTORY"})
    unsure.confidence = {3: 0.9}
    extends = judged("EXTENDABLE", 4, [(4, 0.85)], {4: "EXTENDABLE"})
    extends.confidence = {4: 0.99}
    counts = store.outcome([sure, unsure, extends], 0.86, 5, same_fact=0.99, floor=0.84)
    assert (counts["closes"], counts["c_hits"], counts["e_hits"]) == (1, 1, 0)
    assert counts["c_cut_band"] == 2 and counts["calls"] == 3
    # without the floor (or under it) nothing is judged there
    assert store.outcome([sure], 0.86, 5, same_fact=0.99)["closes"] == 0
    assert store.outcome([sure], 0.86, 5, same_fact=0.99, floor=0.855)["closes"] == 0


def test_an_unknown_set_is_told_with_the_sets_there_are() -> None:
    """Session 30: the message named "holdout1-41, notes1-21", two rounds of sets out of date."""
    sets = {f"holdout{n}": Path() for n in (1, 2, 3, 5, 44)} | {"notes1": Path(), "mine": Path()}
    assert store.known_sets(sets) == "holdout1-3, holdout5, holdout44, notes1, mine"
    everything = store.OLDER | store.CHOOSE
    shown = store.known_sets(everything)
    top = max(int(n.removeprefix("holdout")) for n in everything if n.startswith("holdout"))
    assert f"holdout1-{top}" in shown, shown


def test_other_notes_thresholds_are_read_and_stamp_the_traces() -> None:
    assert store.note_thresholds("0.95,0.9") == {"en": 0.95, "ja": 0.9}
    for bad in ("0.95", "0.9,1.5", "x,0.9", "0,0.9"):
        with pytest.raises(ValueError):
            store.note_thresholds(bad)
    assert store.notes_stamp(dict(store.PACKAGED_NOTE_THRESHOLDS)) == ""
    assert store.notes_stamp({"en": 0.95, "ja": 0.9}) == "|notes 0.95,0.9"


def test_a_reviewed_conflict_is_counted_apart_and_right_in_the_second_precision() -> None:
    """Session 34: a distractor close reviewed as a true conflict (every writer's user is one
    persona) stays a distractor close in the plain precision and counts right in the second."""
    row = judged("CONTRADICTORY", 1, [(0, 0.95), (1, 0.9)], {0: "CONTRADICTORY", 1: "INDEPENDENT"})
    plain = store.outcome([row], 0.8, 5, same_fact=0.99)
    assert (plain["distractor_closes"], plain["reviewed_conflicts"]) == (1, 0)
    counted = store.outcome([row], 0.8, 5, same_fact=0.99, reviewed={row.pair.id: frozenset({0})})
    assert (counted["distractor_closes"], counted["reviewed_conflicts"]) == (1, 1)
    assert store.rates(plain)["c_precision_reviewed"] == 0.0
    assert store.rates(counted)["c_precision_reviewed"] == 1.0
    assert store.rates(counted)["c_precision"] == 0.0


def test_the_reviewed_file_names_a_distractor_of_its_set(tmp_path: Path) -> None:
    pair = Pair(id="x-1", lang="en", old="old a", new="new", label="CONTRADICTORY", difficulty="")
    olds = {("s", "en"): ["old a", "old b"]}
    path = tmp_path / "r.jsonl"
    path.write_text('{"set": "s", "id": "x-1", "closed": "old b", "why": "w"}\n', encoding="utf-8")
    assert store.reviewed_conflicts(path, olds, {"x-1": pair}) == {"x-1": frozenset({1})}
    assert store.reviewed_conflicts(path, {("t", "en"): ["old b"]}, {"x-1": pair}) == {}
    path.write_text('{"set": "s", "id": "x-1", "closed": "old a", "why": "w"}\n', encoding="utf-8")
    with pytest.raises(ValueError):
        store.reviewed_conflicts(path, olds, {"x-1": pair})
