"""A consolidated note carries its date once. Offline consolidation follows a relative date
with the day it means and closes each note with the day it was said, so a turn saying "today"
(or "this morning", 今日) or writing the day out became "… today (8 May 2023) … (8 May 2023)":
the same day twice in one note, over HTTP as a client records and ends a chat."""

from __future__ import annotations

from datetime import UTC, datetime

from omoide_testing import LiveServer, chat_notes

SAID = datetime(2023, 5, 8, 14, 0, tzinfo=UTC)
TURNS = [
    ("Ken", "user", "I adopted a puppy today, her name is Pepper and she is a shiba!"),
    ("Aiko", "assistant", "That's wonderful!"),
    ("Ken", "user", "I went hiking on 8 May 2023 with my sister Mia in the Alps."),
    ("Aiko", "assistant", "Sounds lovely."),
    ("Ken", "user", "Tonight I'm cooking ramen for my whole family at my new apartment."),
    ("Aiko", "assistant", "Enjoy!"),
    ("Ken", "user", "今日、京都に引っ越しました。新しい家はとても広いです。"),
    ("Aiko", "assistant", "いいですね。"),
    ("Ken", "user", "Yesterday I ran my first marathon in Osaka and finished in four hours."),
]


def test_each_note_carries_its_date_once(server: LiveServer) -> None:
    key = server.create_persona("ken")
    with server.client(key) as client:
        notes = chat_notes(client, server.omoide, "ken", "s-dates", TURNS, start=SAID, step_s=20)
    contents = [n["content"] for n in notes]
    assert len(contents) >= 4, contents
    for content in contents:
        assert content.count("8 May 2023") + content.count("2023年5月8日") == 1, content
    # the relative date still says the day it means, and a past day keeps the note's own date
    assert any("today (8 May 2023)" in c for c in contents), contents
    assert any("(7 May 2023)" in c and c.endswith("(8 May 2023)") for c in contents), contents
