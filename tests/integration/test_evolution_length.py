"""The evolution minimum (``evolution_min_chars``) counts a wide character twice: a Japanese
memory says as much in about half the characters an English one needs, and is linked to its
neighbours from the same amount of content (engine.width.text_columns)."""

from __future__ import annotations

from omoide.engine.fsrs import initial_stability
from omoide.wiring import Omoide


def _linked(app: Omoide, persona: str, old: str, new: str) -> bool:
    """Store ``old`` then ``new`` (no dedup: the pairs are near-copies on purpose), evolve
    ``new`` and say whether it was linked to ``old``."""
    store = app.store.memories(persona)
    keys = []
    for content in (old, new):
        vector = app.embedder.embed_passages([content])[0]
        keys.append(
            store.insert(
                app.memories.build_new(content=content),
                vector=vector,
                stability=initial_stability(0.0),
                now=app.clock.now(),
            ).key
        )
    app.evolution.evolve(persona, keys[1])
    return keys[0] in {link.other_key for link in app.memories.links(persona, keys[1])}


def test_a_japanese_memory_under_thirty_characters_is_linked(app: Omoide, persona: str) -> None:
    new = "ユーザーは近所の公園で毎朝ラジオ体操をする"  # 21 characters, 42 columns
    assert len(new) < 30
    assert _linked(app, persona, "ユーザーは近所の公園で毎朝ラジオ体操をしている", new)


def test_a_short_japanese_memory_is_still_skipped(app: Omoide, persona: str) -> None:
    new = "ユーザーは公園で体操する"  # 12 characters, 24 columns
    assert not _linked(app, persona, "ユーザーは公園で体操をする", new)


def test_english_keeps_its_character_count(make_app, clock) -> None:
    app = make_app()
    app.auth.create_persona("rin")
    shorter = "User swims at the pool daily."  # 29 characters
    assert len(shorter) == 29
    assert not _linked(app, "rin", "User swims at the pool every day.", shorter)
    app.auth.create_persona("kai")
    exact = "User swims at the pool daily!!"  # 30 characters
    assert _linked(app, "kai", "User swims at the pool daily!", exact)
