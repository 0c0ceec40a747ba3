"""A farewell that closes a chat ("Good night, talk tomorrow!", "Bye, see you soon!") is not a
fact about the user: no note is made of it. Over HTTP, both stores, a chat written for this
test."""

from __future__ import annotations

from omoide_testing import LiveServer, chat_notes

from omoide.clock import FixedClock

TURNS = [
    ("user", "My brother Cormac is training to be a lighthouse keeper on Rathlin Island."),
    ("assistant", "That sounds like a remarkable job! Is he enjoying it?"),
    ("user", "He loves it, he says the storms are the best part."),
    ("assistant", "Storms on Rathlin must be spectacular."),
    ("user", "Good night, talk tomorrow!"),
    ("assistant", "Good night! Sleep well."),
    ("user", "Bye, see you soon!"),
    ("assistant", "Bye!"),
]


def test_a_farewell_makes_no_note(server: LiveServer, clock: FixedClock) -> None:
    key = server.create_persona("lark")
    turns = [("Niamh" if role == "user" else "lark", role, text) for role, text in TURNS]
    with server.client(key) as c:
        notes = [
            n["content"]
            for n in chat_notes(c, server.omoide, "lark", "evening", turns, start=clock.now())
        ]
    assert any("Rathlin" in n for n in notes), notes
    assert not [
        n for n in notes if "night" in n.lower() or "bye" in n.lower() or "see you" in n.lower()
    ], notes
