"""A pasted price list, log or table is not a fact about the user: consolidation makes no note
of it, while the turn stays in its episode and the talk around it still makes notes. Over HTTP,
both stores, a chat written for this test."""

from __future__ import annotations

from omoide_testing import LiveServer, chat_notes

from omoide.clock import FixedClock

PRICES = "Here is what the rental shop sent me:\n" + "\n".join(
    f"bike model TR-{i:03d}   frame {48 + i} cm   price {2500 + i * 300} yen/day   left {i % 4}"
    for i in range(6)
)
LOG = "The router printed this:\n" + "\n".join(
    f"2026-11-2{i} 03:0{i}:44.201 ERR dhcpd[{800 + i}]: lease 10.0.0.{i} expired (0x{i}f3a)"
    for i in range(6)
)
TURNS = [
    ("user", "My cousin Bruna is cycling from Porto to Santiago de Compostela in June."),
    ("assistant", "What a trip! Is she renting a bike?"),
    ("user", PRICES),
    ("assistant", "Those prices look reasonable."),
    ("user", LOG),
    ("assistant", "That looks like the router lost its leases."),
    ("user", "Bruna wants the lightest touring bike because she is carrying a tent."),
    ("assistant", "Sensible."),
]


def test_a_pasted_table_or_log_makes_no_note(server: LiveServer, clock: FixedClock) -> None:
    key = server.create_persona("heron")
    turns = [("Tiago" if role == "user" else "heron", role, text) for role, text in TURNS]
    with server.client(key) as c:
        notes = [
            n["content"]
            for n in chat_notes(c, server.omoide, "heron", "ride", turns, start=clock.now())
        ]
        found = c.get(
            "/api/search/heron",
            params={"q": "bike model TR-003 frame price", "include_episodes": "true"},
        ).json()
    assert any("Santiago de Compostela" in n for n in notes), notes
    assert not [n for n in notes if "TR-0" in n or "dhcpd" in n or "lease" in n], notes
    excerpts = [r["content"] for r in found["results"] if r["type"] == "episode"]
    assert any("TR-003" in e for e in excerpts), found  # the turn is kept in its episode
