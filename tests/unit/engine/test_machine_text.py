"""Pasted machine text (tables, logs, price lists, dumps) is told from talk by its shape; a
turn that is mostly such text makes no note, whatever its words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from omoide.engine.consolidate.machine import is_machine_line, is_machine_text, machine_share
from omoide.engine.consolidate.offline import consolidate_offline
from omoide.engine.consolidate.types import EventText

PRICE_LIST = "Here is the supplier's list:\n" + "\n".join(
    f"kayak model KX-{i:03d}   length {300 + i} cm   price {90000 + i * 500} yen" for i in range(5)
)
LOG = "\n".join(
    f"2026-12-0{i} 04:1{i}:07,112 WARN [pool-{i}] retry {i}/5 after 30.0s" for i in range(1, 5)
)
MARKDOWN = "| day | km | pace |\n|---|---|---|\n| Mon | 8.2 | 5:31 |\n| Wed | 12.0 | 5:44 |"
CSV = ",".join(f"field{i}" for i in range(80))
DUMP = "token: " + "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8="

TALK = [
    "I paid 3,000 yen on 2026-12-01 for a new kiln shelf and two paddles.",
    "Our flight JL123 leaves on 24 December at 10:35 from gate 12.",
    "Nooooooooooo way, that is amazing news about your sister!",
    "Here is the link: https://example.org/a/very/long/path/to/the/exhibition/page/2026",
    "私の窯は1,160度まで上がります。来年の2月に新しい窯を買う予定です。",
    "Shopping list for Saturday: eggs, flour, two lemons, butter and a bag of rice.",
    "My new phone number ends in 4471 and my locker is 12B.",
]


@pytest.mark.parametrize(
    "text",
    [PRICE_LIST, LOG, MARKDOWN, CSV, DUMP],
    ids=["price-list", "log", "markdown", "csv-row", "dump"],
)
def test_machine_text_is_recognised(text: str) -> None:
    assert is_machine_text(text), machine_share(text)


@pytest.mark.parametrize("text", TALK)
def test_talk_with_numbers_and_links_is_not(text: str) -> None:
    assert not is_machine_text(text)
    assert not any(is_machine_line(line) for line in text.splitlines())


def test_a_short_lead_in_before_a_table_does_not_save_it() -> None:
    assert 0.5 < machine_share(PRICE_LIST) < 1.0


def test_a_pasted_table_makes_no_note_but_talk_does() -> None:
    when = datetime(2026, 12, 3, tzinfo=UTC)
    events = [
        EventText(1, "Ana", "user", PRICE_LIST, when),
        EventText(2, "kiri", "assistant", "Thanks, I have it.", when),
        EventText(
            3,
            "Ana",
            "user",
            "My sister Lucia bought the KX-002 kayak last summer "
            "and paddles it on Lake Biwa every weekend.",
            when,
        ),
    ]
    notes = consolidate_offline(events, notes_per_turn=1).notes
    assert [n.source_event_ids for n in notes] == [(3,)]
