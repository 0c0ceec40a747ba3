"""Probe10's per-persona create lock (identical concurrent writes store one memory) is bounded:
a persona's lock is dropped once its write is done (it used to stay, one per persona ever seen).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from omoide.wiring import Omoide


def test_the_memory_service_keeps_no_lock_of_a_persona_after_its_writes(app: Omoide) -> None:
    for name in ("rin", "kai", "mio"):
        app.auth.create_persona(name)

    def write(i: int) -> str:
        persona = ("rin", "kai", "mio")[i % 3]
        new = app.memories.build_new(content="My sister has lived in Osaka since 2019.")
        return app.memories.create(persona, new).status

    with ThreadPoolExecutor(6) as pool:
        statuses = sorted(pool.map(write, range(12)))
    assert statuses == ["created"] * 3 + ["duplicate"] * 9  # one per persona, as before
    assert len(app.memories.create_locks) == 0


def test_an_insert_decided_at_an_older_revision_writes_nothing(app: Omoide) -> None:
    """What keeps another process's identical write out: the store inserts only while the
    persona's revision is the one the decision read (checked inside the write)."""
    app.auth.create_persona("rin")
    memories = app.store.memories("rin")
    new = app.memories.build_new(content="My sister has lived in Osaka since 2019.")
    vector = app.embedder.embed_passages([new.content])[0]
    seen = memories.revision()
    assert app.memories.create("rin", new, vector=vector).status == "created"  # meanwhile
    assert memories.revision() > seen
    assert (
        memories.insert(new, vector=vector, stability=1.0, now=app.clock.now(), if_revision=seen)
        is None
    )
    assert memories.stats().active == 1
    current = memories.revision()
    assert (
        memories.insert(new, vector=vector, stability=1.0, now=app.clock.now(), if_revision=current)
        is not None
    )
    assert memories.stats().active == 2
