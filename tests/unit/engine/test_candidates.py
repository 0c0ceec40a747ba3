"""Which current memories the evolution job classifies a new memory against: those from the band
up, best first, at most the cap (``engine.candidates.select_candidates``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.candidates import (
    CLOSE_LEAD,
    closable,
    close_lead,
    close_order,
    nearest_under_band,
    said_again,
    select_candidates,
    verdict_effects,
)
from omoide.engine.classify import Relation
from omoide.engine.lang import Lang

RANKED = [("a", 0.95), ("b", 0.90), ("c", 0.86), ("d", 0.84), ("e", 0.80)]


def test_the_band_keeps_memories_from_its_edge_up() -> None:
    assert select_candidates(RANKED, 0.86, 5) == [("a", 0.95), ("b", 0.90), ("c", 0.86)]


def test_a_lower_band_lets_a_less_similar_memory_be_judged() -> None:
    assert ("d", 0.84) not in select_candidates(RANKED, 0.862, 5)
    assert ("d", 0.84) in select_candidates(RANKED, 0.838, 5)


def test_the_cap_drops_the_least_similar_above_the_band() -> None:
    assert select_candidates(RANKED, 0.0, 2) == [("a", 0.95), ("b", 0.90)]
    assert select_candidates(RANKED, 0.0, 0) == []
    assert select_candidates([], 0.5, 5) == []


@given(st.lists(st.floats(-1, 1), max_size=30), st.floats(-1, 1), st.integers(0, 10))
def test_a_prefix_of_the_ranking_above_the_band(scores: list[float], band: float, cap: int) -> None:
    ranked = [(i, s) for i, s in enumerate(sorted(scores, reverse=True))]
    chosen = select_candidates(ranked, band, cap)
    assert len(chosen) == min(cap, sum(s >= band for _, s in ranked))
    assert chosen == ranked[: len(chosen)]
    assert all(s >= band for _, s in chosen)


def test_only_the_nearest_candidate_is_closed_and_only_when_contradicted() -> None:
    assert closable(["home", "gym"], {"home", "gym"}) == ["home"]
    assert closable(["home", "gym"], {"gym"}) == []
    assert closable([], {"gym"}) == []


def test_the_same_fact_said_before_does_not_shield_the_memory_it_changes() -> None:
    ranked = [("note", 0.97), ("home", 0.91), ("gym", 0.88)]
    assert close_order(ranked, {"home"}, same_fact=0.95) == ["home", "gym"]
    assert closable(close_order(ranked, {"home"}, same_fact=0.95), {"home"}) == ["home"]
    # a restatement the judge does find contradicted is the nearest, and closed
    assert close_order(ranked, {"note", "home"}, same_fact=0.95)[0] == "note"
    # under the duplicate threshold a nearer memory is another fact: it stands in the way
    assert closable(close_order(ranked, {"home"}, same_fact=0.99), {"home"}) == []


@given(
    st.lists(st.tuples(st.integers(0, 9), st.floats(0, 1)), max_size=12, unique_by=lambda t: t[0]),
    st.sets(st.integers(0, 9)),
    st.floats(0, 1),
)
def test_at_most_one_memory_is_closed_and_it_was_contradicted(
    ranked: list[tuple[int, float]], contradicted: set[int], same_fact: float
) -> None:
    closed = closable(close_order(ranked, contradicted, same_fact=same_fact), contradicted)
    assert len(closed) <= 1 and set(closed) <= contradicted


def test_a_memory_said_again_word_for_word_is_passed_over_whatever_the_judge_read() -> None:
    # a dated note said again without its date: its cosine is under the duplicate threshold
    # and a judge may read it as contradicted; the close falls on the memory the new one changes
    ranked = [("note", 0.94), ("home", 0.91)]
    order = close_order(ranked, {"note", "home"}, same_fact=0.955, repeated={"note"})
    assert closable(order, {"note", "home"}) == ["home"]


def test_the_nearest_under_the_band_is_judged_only_when_none_is_in_it() -> None:
    assert nearest_under_band(RANKED, band=0.96, floor=0.9) == [("a", 0.95)]
    # one in the band: the band's candidates are judged, not this
    assert nearest_under_band(RANKED, band=0.9, floor=0.8) == []
    # under the floor too: nothing
    assert nearest_under_band(RANKED, band=0.99, floor=0.96) == []
    assert nearest_under_band([], band=0.9, floor=0.8) == []


@given(st.lists(st.floats(-1, 1), max_size=30), st.floats(-1, 1), st.floats(-1, 1))
def test_under_the_band_at_most_the_nearest_and_never_beside_the_band(
    scores: list[float], band: float, floor: float
) -> None:
    ranked = [(i, s) for i, s in enumerate(sorted(scores, reverse=True))]
    under = nearest_under_band(ranked, band, floor)
    assert under in ([], ranked[:1])
    if under:
        assert select_candidates(ranked, band, 5) == [] and floor <= under[0][1] < band


def test_said_again_is_word_for_word() -> None:
    assert said_again("Aki's bike is blue. (2 June 2026)", "aki’s bike is BLUE")
    assert said_again("アキの自転車は青い。（2026年6月2日）", "アキの自転車は青い")
    assert not said_again("Aki's bike is blue.", "Aki's bike is not blue.")
    assert not said_again("Aki's bike is blue.", "Aki's bike is red.")
    assert not said_again("アキの自転車は青い。", "アキの自転車は青くない。")
    assert not said_again("Aki's bike is blue.", "...")


def test_judged_candidates_are_the_band_or_else_the_nearest_under_it() -> None:
    """Session 31: the nearest memory under the band is judged only when none reaches it, and
    only a sure CONTRADICTORY on it counts."""
    from omoide.engine.candidates import judged_candidates, under_band_keeps

    ranked = [("a", 0.90), ("b", 0.87), ("c", 0.85)]
    assert judged_candidates(ranked, 0.86, 0.84, 5) == ([("a", 0.90), ("b", 0.87)], False)
    assert judged_candidates(ranked, 0.86, 0.84, 1) == ([("a", 0.90)], False)
    assert judged_candidates(ranked[2:], 0.86, 0.84, 5) == ([("c", 0.85)], True)
    assert judged_candidates(ranked[2:], 0.86, 0.855, 5) == ([], False)
    assert judged_candidates([], 0.86, 0.84, 5) == ([], False)
    assert under_band_keeps(True, 0.97, 0.97) and not under_band_keeps(True, 0.969, 0.97)
    assert not under_band_keeps(False, 0.99, 0.97)
    assert under_band_keeps(True, 0.9, 0.85)  # the persona's bar (classify_nearest_confidence)


C, E, N = Relation.CONTRADICTORY, Relation.EXTENDABLE, Relation.INDEPENDENT


def test_verdict_effects_extend_and_close_the_nearest_contradicted() -> None:
    """Session 32: the one reading of verdicts the evolution job and bench/classify_store.py
    share. In the band the judge's verdict counts whatever its confidence; the close falls on
    the nearest candidate past the same fact said before."""
    ranked = [("note", 0.97), ("home", 0.91), ("gym", 0.88), ("park", 0.87)]
    made = verdict_effects(
        ranked,
        {"note": (N, 0.9), "home": (C, 0.98), "gym": (E, 0.6), "park": (C, 0.99)},
        under_band=False,
        sure=0.97,
        same_fact=0.95,
    )
    assert made.extended == ["gym"] and made.contradicted == ["home", "park"]
    assert made.order == ["home", "gym", "park"] and made.closes == ["home"]
    said = verdict_effects(
        ranked[1:2],
        {"home": (C, 0.99)},
        under_band=False,
        sure=0.97,
        same_fact=0.95,
        repeated={"home"},
    )
    assert said.contradicted == ["home"] and said.closes == []


def test_a_close_past_the_same_fact_said_before_needs_a_sure_verdict() -> None:
    """Session 34: a new memory that extends its nearest memory (at the duplicate threshold)
    and is read as contradicting another of the domain further down is mostly not about that
    one; the close passes over the nearest only on a verdict of ``sure``."""
    ranked = [("note", 0.97), ("home", 0.91), ("gym", 0.88)]
    for confidence, closes in ((0.6, []), (0.969, []), (0.97, ["home"])):
        made = verdict_effects(
            ranked,
            {"note": (E, 0.99), "home": (C, confidence), "gym": (N, 0.9)},
            under_band=False,
            sure=0.97,
            same_fact=0.95,
        )
        assert made.contradicted == ["home"] and made.closes == closes
    # a memory that holds the new one word for word is passed over whatever the verdict
    said = verdict_effects(
        ranked,
        {"note": (C, 0.99), "home": (C, 0.6)},
        under_band=False,
        sure=0.97,
        same_fact=0.95,
        repeated={"note"},
    )
    assert said.closes == ["home"]


def test_nothing_closes_when_two_contradicted_candidates_sit_together() -> None:
    """Session 34: the nearest contradicted candidate closes only when it leads every other
    contradicted one by the new memory's ``close_lead`` of raw cosine (none in English); an
    unrelated candidate between them does not count."""
    lead = close_lead("ユーザーは本町の近くに引っ越した。")
    assert lead == CLOSE_LEAD[Lang.JA] > 0 and close_lead("The user moved.") == 0.0
    for second, closes in ((0.9299, []), (0.93 - lead - 1e-9, ["home"])):
        made = verdict_effects(
            [("home", 0.93), ("gym", 0.9299), ("park", second)],
            {"home": (C, 0.9), "gym": (N, 0.9), "park": (C, 0.9)},
            under_band=False,
            sure=0.97,
            same_fact=0.95,
            lead=lead,
        )
        assert made.closes == closes
    for verdicts, lead_of in (({"gym": (E, 0.9)}, lead), ({"gym": (C, 0.9)}, 0.0)):
        lone = verdict_effects(
            [("home", 0.93), ("gym", 0.9299)],
            {"home": (C, 0.9), **verdicts},
            under_band=False,
            sure=0.97,
            same_fact=0.95,
            lead=lead_of,
        )
        assert lone.closes == ["home"]


def test_verdict_effects_under_the_band_count_a_sure_close_alone() -> None:
    nearest = [("home", 0.80)]
    for verdict, sure, closes in [
        ((C, 0.98), 0.97, ["home"]),
        ((C, 0.9), 0.97, []),
        ((C, 0.9), 0.85, ["home"]),
        ((E, 0.99), 0.5, []),
    ]:
        made = verdict_effects(
            nearest, {"home": verdict}, under_band=True, sure=sure, same_fact=0.95
        )
        assert made.closes == closes and made.extended == []


@given(
    st.lists(st.tuples(st.integers(0, 9), st.floats(0, 1)), max_size=8, unique_by=lambda t: t[0]),
    st.dictionaries(st.integers(0, 9), st.tuples(st.sampled_from([C, E, N]), st.floats(0, 1))),
    st.booleans(),
    st.floats(0, 1),
    st.floats(0, 1),
)
def test_verdict_effects_close_at_most_one_contradicted_candidate(
    ranked: list[tuple[int, float]],
    verdicts: dict[int, tuple[Relation, float]],
    under: bool,
    sure: float,
    same_fact: float,
) -> None:
    made = verdict_effects(ranked, verdicts, under_band=under, sure=sure, same_fact=same_fact)
    assert len(made.closes) <= 1 and set(made.closes) <= set(made.contradicted)
    assert not set(made.extended) & set(made.contradicted)
    assert not (under and made.extended)
