"""The evidence probes of round 19: where set and temporal questions' evidence is ranked
(``bench/locomo_evidence_study.py``), and the turn before a note
(``bench/locomo_note_context.py``)."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_evidence_study as study  # noqa: E402
import locomo_note_context as note_context  # noqa: E402
from locomo_evidence_study import Asked, Shown  # noqa: E402


def test_place_bands() -> None:
    assert [study.place(r, 5) for r in (0, 4, 5, 14, 15, 29, 30, None)] == [
        "budget",
        "budget",
        "next15",
        "next15",
        "15-29",
        "15-29",
        "30-49",
        "none",
    ]


def _asked(
    evidence: tuple[str, ...],
    ranked: list[Shown],
    included: int,
    noted: dict[str, set[str]],
    category: int = 1,
) -> Asked:
    return Asked("7", category, evidence, ranked, included, False, noted)


def test_set_study_counts_evidence_places_and_idle_budget() -> None:
    ranked = [
        Shown("note", "hub", ("D1:1",), "e1"),
        Shown("note", "n2", ("D1:2",), "e1"),
        Shown("episode", "9", ("D2:1", "D2:2"), None),
        Shown("note", "n3", ("D3:5",), "e3"),
    ]
    item = _asked(
        ("D1:2", "D3:5", "D4:1"), ranked, 3, {"D1:2": {"n2"}, "D3:5": {"n3"}, "D4:1": set()}
    )
    other = _asked(("D9:9",), [Shown("note", "hub", ("D1:1",), "e1")], 1, {"D9:9": set()})
    hub = study.hubs([item, other])
    assert ("7", "hub") in hub
    c = study.set_study([item], hub)
    assert (c["turns"], c["noted"]) == (3, 2)
    assert (c["noted_budget"], c["noted_next15"], c["bare_none"]) == (1, 1, 1)
    assert (c["notes"], c["idle_notes"], c["idle_hubs"]) == (2, 1, 1)
    assert (c["episodes"], c["idle_episodes"]) == (1, 1)
    assert c["idle_episode_above"] == 0  # the idle hub is first; n2 (same episode) cites evidence
    assert (c["sessions"], c["evidence_sessions"], c["evidence_sessions_reached"]) == (2, 3, 1)


def test_temporal_study_counts_questions_with_evidence_outside() -> None:
    inside = _asked(("D1:1",), [Shown("note", "a", ("D1:1",), "e")], 1, {"D1:1": {"a"}}, 2)
    outside = _asked(
        ("D2:1",),
        [Shown("note", "b", ("D1:1",), "e"), Shown("episode", "3", ("D2:1",), None)],
        1,
        {"D2:1": set()},
        2,
    )
    c = study.temporal_study([inside, outside])
    assert (c["questions"], c["questions_outside"], c["turn_budget"], c["turn_next15"]) == (
        2,
        1,
        1,
        1,
    )
    assert (c["noted"], c["outside_noted"]) == (1, 0)


def test_the_turn_before_a_note_is_the_one_before_its_first_source_in_its_session() -> None:
    conn = sqlite3.connect(":memory:")
    conn.executescript("""
        CREATE TABLE memories (id INTEGER, persona_id INTEGER, status TEXT);
        CREATE TABLE memory_sources (memory_id INTEGER, event_id INTEGER);
        CREATE TABLE session_events (id INTEGER, session_pk INTEGER, seq INTEGER);
        INSERT INTO session_events VALUES (1, 10, 0), (2, 10, 1), (3, 10, 2), (4, 11, 0);
        INSERT INTO memories VALUES (100, 1, 'active'), (101, 1, 'active'),
                                    (102, 1, 'tombstoned'), (103, 2, 'active');
        INSERT INTO memory_sources VALUES (100, 3), (100, 2), (101, 4), (102, 3), (103, 3);
    """)
    # note 100's first source is turn 2 (seq 1): the turn before is 1; note 101 opens its
    # session; 102 is not active; 103 is another persona's
    assert note_context.previous_turns(conn, 1) == {100: 1}
    # after its last source (turn 3, seq 2) nothing follows in session 10; 101's turn is alone
    assert note_context.next_turns(conn, 1) == {}
    conn.execute("INSERT INTO session_events VALUES (5, 11, 1)")
    assert note_context.next_turns(conn, 1) == {101: 5}
