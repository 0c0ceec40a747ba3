"""A chat with the persona through HTTP keeps every informative turn of the user (issue 8,
"no conversation is lost"): ten turns, seven of them the user's, each with a fact. Half of all
turns (five notes) cut two of them before the persona's turns stopped counting against the
user's. Also: the user's pronoun is read as the person they named, and a dropped "I" is given
back. A chat written for this test."""

from __future__ import annotations

from omoide_testing import LiveServer, chat_notes

from omoide.clock import FixedClock

USER, PERSONA = "Rin", "Mika"
TURNS = [
    (
        USER,
        "user",
        "I finally switched from black tea to rooibos, my dentist said the tannins stain my teeth.",
    ),
    (USER, "user", "My brother Teo is moving to Valencia in March."),
    (PERSONA, "assistant", "Valencia! What's taking him there?"),
    (USER, "user", "He got a job at a robotics lab there."),
    (USER, "user", "I'm helping him pack up his flat next weekend."),
    (PERSONA, "assistant", "That's kind of you. How are you doing otherwise?"),
    (USER, "user", "started volunteering at the animal shelter on Saturdays."),
    (USER, "user", "Mostly I walk the older dogs, the ones nobody adopts."),
    (PERSONA, "assistant", "That sounds rewarding."),
    (USER, "user", "My neighbour Ines gave me her old bike, so I cycle there now."),
]


def test_every_informative_user_turn_of_a_chat_becomes_a_note(
    server: LiveServer, clock: FixedClock
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as c:
        notes = chat_notes(c, server.omoide, "rin", "tea", TURNS, start=clock.now(), step_s=20)
    cited = {s["external_id"] for n in notes for s in n["sources"]}
    users = {f"t{i}" for i, (_, role, _) in enumerate(TURNS) if role == "user"}
    assert users <= cited, sorted(users - cited)
    text = "\n".join(n["content"] for n in notes)
    assert "Teo got a job at a robotics lab there." in text, text
    assert "Rin started volunteering at the animal shelter" in text, text
    assert "Rin walks the older dogs" in text, text
