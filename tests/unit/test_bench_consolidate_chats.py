"""The chats consolidation bench (``bench/consolidate_chats.py``) splits a note's sentences the
way consolidation splits a turn: one splitter, the engine's."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import consolidate_chats as chats  # noqa: E402
from omoide.engine.consolidate import split_sentences  # noqa: E402


def test_a_notes_sentences_are_the_engines_without_the_closing_bracket() -> None:
    note = "Rin moved to Leeds in 2025, e.g. for work. Rin likes it (Rin, 2 March 2026)"
    assert chats.sentences(note) == split_sentences(
        "Rin moved to Leeds in 2025, e.g. for work. Rin likes it"
    )
    assert chats.sentences(note) == ["Rin moved to Leeds in 2025, e.g. for work.", "Rin likes it"]
    assert chats.sentences("花子は京都に住んでいる。猫を飼っている（2026年3月2日）") == [
        "花子は京都に住んでいる。",
        "猫を飼っている",
    ]


def test_a_fact_is_kept_by_a_note_citing_its_turn_with_half_its_words() -> None:
    chat = {
        "id": "x",
        "lang": "en",
        "user": "Rin",
        "turns": [
            {"role": "user", "speaker": "Rin", "content": "I moved to Leeds for a design job."}
        ],
        "facts": [{"turn": 0, "fact": "Rin moved to Leeds for a design job.", "kind": "fact"}],
    }
    notes = [
        {
            "content": "Rin moved to Leeds for a design job. (2 March 2026)",
            "kind": "fact",
            "sources": [{"external_id": "t0"}],
        }
    ]
    tally, detail = chats.score_chat(chat, notes)
    assert (tally.kept, tally.matching_notes) == (1, 1)
    assert (tally.sentences, tally.stray_sentences) == (1, 0)
    assert detail["missed"] == []
