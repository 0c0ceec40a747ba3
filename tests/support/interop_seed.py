"""A persona holding a bit of everything an export must carry (shared by the interop tests)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from omoide.clock import FixedClock
from omoide.wiring import Omoide

TURNS = [
    ("Rau", "I planted tomatoes and basil in my garden this weekend."),
    ("Haru", "Lovely! Which tomato variety did you pick?"),
    ("Rau", "I chose San Marzano tomatoes because I want to make pasta sauce."),
    ("Haru", "Great choice, they are perfect for sauce."),
    ("Rau", "I am flying to Lisbon next month for a conference. By the way, my name is Rau."),
    ("Haru", "Exciting! Have you been to Portugal before?"),
    ("Rau", "Never, but my sister lived in Porto for two years."),
    ("Haru", "Then she can give you tips."),
]


def seed(app: Omoide, persona: str, clock: FixedClock) -> dict[str, Any]:
    """Memories (created, updated, superseded, tombstoned, linked, recalled), a session with
    episodes and notes, blocks, user and persona state with history, a settings override."""
    m = app.memories
    made = {}
    for name, text, tags in (
        ("tokyo", "The user lives in Tokyo with two cats", ["home"]),
        ("coffee", "The user drinks black coffee every morning", ["food"]),
        ("job", "The user works as a nurse at a hospital in Shinjuku", ["work"]),
        ("piano", "The user started learning the piano last spring", []),
        ("ja", "ユーザーは毎朝ジョギングをしている", ["健康"]),
    ):
        out = m.create(
            persona,
            m.build_new(
                content=text,
                tags=tags,
                importance=0.6,
                emotion_intensity=0.8 if name == "piano" else 0.1,
            ),
        )
        made[name] = out.memory.key
        clock.advance(minutes=5)
    m.update(
        persona,
        made["coffee"],
        content="The user drinks black coffee every morning at 7",
        tags=["food", "habit"],
    )
    m.get(persona, made["job"])  # a recall
    m.delete(persona, made["piano"])
    clock.advance(hours=1)
    osaka = m.create(persona, m.build_new(content="The user moved to Osaka", importance=0.7))
    store = app.store.memories(persona)
    # evolution's effect, written as the evolution job writes it: a link and a supersede
    store.apply_evolution(
        osaka.memory.key,
        now=clock.now(),
        neighbour_ids=[store.id_of(made["job"])],
        link_increment=0.2,
        link_cap=1.0,
        extends=[],
        supersedes=[(store.id_of(made["tokyo"]), clock.now())],
    )
    app.queue.run_ready(persona)
    app.sessions.open(persona, session_id="s1")
    app.sessions.record(
        persona,
        "s1",
        [
            {
                "speaker": who,
                "role": "user" if who == "Rau" else "assistant",
                "content": text,
                "external_id": f"D{i}",
                "timestamp": (clock.now() + timedelta(minutes=i)).isoformat(),
                **({"metadata": {"image_caption": "a basil plant"}} if i == 1 else {}),
            }
            for i, (who, text) in enumerate(TURNS)
        ],
    )
    app.sessions.end(persona, "s1")
    app.queue.run_ready(persona)
    app.sessions.open(persona, session_id="s2")
    app.sessions.record(
        persona,
        "s2",
        [{"speaker": "Rau", "role": "user", "content": "Still open: the weather is nice today."}],
    )
    app.blocks.write_block(
        persona, block_name="persona", content="You are Haru, a gardener.", priority=5
    )
    app.blocks.write_block(
        persona, block_name="notes", content="Likes tomatoes.", metadata={"source": "test"}
    )
    app.state.update_user_state(persona, {"name": "Rau", "mood": "calm"})
    app.state.update_user_state(persona, {"hobby": "gardening"}, source_session="s1")
    clock.advance(hours=2)
    app.state.update_user_state(persona, {"mood": "excited"})
    app.state.update_persona_state(persona, {"emotion": "joy"})
    app.settings_service.update(persona, {"dedup_threshold": 0.9})
    return made
