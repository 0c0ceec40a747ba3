"""Demo data for the dashboard's browser tests and screenshots: two personas with Japanese and
English memories, a superseded fact, hostile markup, blocks, a state timeline and a consolidated
conversation. Everything goes through the services, as a client's requests would.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from omoide.clock import FixedClock
from omoide.wiring import Omoide

__all__ = ["IMG_PAYLOAD", "SCRIPT_PAYLOAD", "Seeded", "seed_dashboard"]

# Each payload would set a window flag if the page ever ran it.
IMG_PAYLOAD = '<img src=x onerror="window.__omoide_pwned = 1">'
SCRIPT_PAYLOAD = "<script>window.__omoide_pwned = 2</script>"

TURNS = [
    ("Haruka", "user", "Hi! My name is Haruka."),
    ("Rin", "assistant", "Nice to meet you, Haruka."),
    ("Haruka", "user", "I live in Osaka now, I moved last spring."),
    ("Rin", "assistant", "Osaka is lively."),
    ("Haruka", "user", "I really love green tea, especially matcha."),
    ("Rin", "assistant", "Matcha is lovely."),
    ("Haruka", "user", "昨日は京都で紅葉を見ました。"),
    ("Rin", "assistant", "素敵ですね。"),
    ("Haruka", "user", "私は猫を二匹飼っています。"),
    ("Rin", "assistant", "猫の名前は何ですか？"),
]


@dataclass(frozen=True)
class Seeded:
    rin_key: str
    kai_key: str
    tokyo: str  # closed: superseded by ``kyoto`` with its validity ended
    kyoto: str
    tea: str
    hostile: str  # content with both payloads
    kai_secret: str  # a memory of the other persona
    session_id: str


def _create(app: Omoide, persona: str, content: str, **fields: object) -> str:
    outcome = app.memories.create(persona, app.memories.build_new(content=content, **fields))
    assert outcome.memory is not None, outcome
    return outcome.memory.key


def seed_dashboard(app: Omoide, clock: FixedClock) -> Seeded:
    """Fill an app with the demo data, before its workers start (the queued jobs that follow
    find their work done: segmentation and consolidation run here, synchronously)."""
    _, rin_key = app.auth.create_persona("rin")
    _, kai_key = app.auth.create_persona("kai")
    tokyo = _create(
        app, "rin", "ユーザーは東京に住んでいる。", tags=["home"], kind="fact", importance=0.8
    )
    tea = _create(
        app,
        "rin",
        "User prefers green tea over coffee, 特に抹茶が好き。",
        tags=["food", "preference"],
        kind="preference",
        importance=0.6,
        emotion_intensity=0.8,
    )
    hostile = _create(
        app,
        "rin",
        f"Notes pasted from a web page: {IMG_PAYLOAD} {SCRIPT_PAYLOAD} & 終わり",
        tags=["<b>tag</b>"],
    )
    kai_secret = _create(app, "kai", "Kai's private diary entry about the lighthouse.")
    clock.advance(days=2)
    app.memories.get("rin", tea)  # a recall: stability 10 → 15 days, a dot on its curve
    clock.advance(days=1)
    kyoto = _create(
        app, "rin", "ユーザーは京都に引っ越した。", tags=["home"], kind="fact", importance=0.8
    )
    # Close the Tokyo fact the way evolution's CONTRADICTORY verdict does.
    memories = app.store.memories("rin")
    memories.apply_evolution(
        kyoto,
        now=clock.now(),
        neighbour_ids=[],
        link_increment=0.1,
        link_cap=1.0,
        extends=[],
        supersedes=[(memories.id_of(tokyo), clock.now())],
    )
    for i in range(3):
        _create(
            app,
            "rin",
            f"Weekly plan {i + 1}: practise piano on Tuesday number {i * 7 + 3}.",
            tags=["plan"],
            kind="event",
        )
    app.blocks.write_block(
        "rin",
        block_name="persona_state",
        content="穏やかで好奇心旺盛。",
        priority=10,
        max_tokens=200,
    )
    app.blocks.write_block(
        "rin", block_name="user_model", content=f"Haruka, lives in Kyoto. {IMG_PAYLOAD}", priority=5
    )
    app.state.update_user_state("rin", {"name": "はるか", "nickname": "はるちゃん"})
    clock.advance(hours=5)
    app.state.update_user_state("rin", {"name": "Haruka"})
    app.state.update_persona_state("rin", {"mood": "calm", "emotion": "joy"})
    clock.advance(hours=1)
    app.state.update_persona_state("rin", {"mood": f"curious {SCRIPT_PAYLOAD}"})
    session_id = "ses-cafe"
    app.sessions.open("rin", session_id=session_id, started_at=clock.now().isoformat())
    app.sessions.record(
        "rin",
        session_id,
        [
            {
                "speaker": speaker,
                "role": role,
                "content": content,
                "timestamp": (clock.now() + timedelta(minutes=i)).isoformat(),
            }
            for i, (speaker, role, content) in enumerate(TURNS)
        ],
    )
    app.sessions.end("rin", session_id)
    for episode_id in app.sessions.segment("rin", session_id, final=True):
        app.sessions.consolidate("rin", episode_id)
    app.sessions.open("rin", session_id="ses-open")  # still open: not cut into episodes yet
    app.sessions.record(
        "rin",
        "ses-open",
        [
            {
                "speaker": f"Haruka {IMG_PAYLOAD}",
                "role": "user",
                "content": f"Look: {SCRIPT_PAYLOAD}",
            }
        ],
    )
    # A job that fails on its one attempt once the workers run (its memory does not exist).
    app.jobs.enqueue(
        kind="memory.evolve",
        persona_id=app.store.get_persona("rin").id,
        payload={"key": "mem_missing"},
        now=clock.now(),
        max_attempts=1,
    )
    return Seeded(
        rin_key=rin_key,
        kai_key=kai_key,
        tokyo=tokyo,
        kyoto=kyoto,
        tea=tea,
        hostile=hostile,
        kai_secret=kai_secret,
        session_id=session_id,
    )
