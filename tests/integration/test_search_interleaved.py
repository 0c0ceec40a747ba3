"""A persona's search is the same whatever other personas did just before on the same pooled
connections (PostgreSQL binds each connection to the persona whose rows a statement may see)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from omoide.wiring import Omoide


@pytest.mark.parametrize("mode", ["keyword", "semantic", "hybrid"])
def test_searches_interleaved_with_another_personas_writes_find_their_own_notes(
    make_app: Callable[..., Omoide], mode: str
) -> None:
    app = make_app({"OMOIDE_PG_ANN_ROWS": "1"})  # PostgreSQL: the HNSW path from the first row
    m = app.memories
    for name, text in (
        ("rin", "The user keeps bees on the roof"),
        ("ken", "Ken keeps bees in the garden"),
    ):
        app.auth.create_persona(name)
        m.create(name, m.build_new(content=text))
    for round_ in range(3):
        for name in ("rin", "ken"):
            request = app.search.build_request(name, query="bees", mode=mode)
            hits = [h.content for h in app.search.search(name, request).results]
            assert len(hits) >= 1 and "bees" in hits[0], (name, round_, hits)
            assert all(("Ken" in h) == (name == "ken") for h in hits if "bees" in h)
        m.create("rin", m.build_new(content=f"The user drinks green tea, cup {round_}"))
        m.create("ken", m.build_new(content=f"Ken drinks coffee, cup {round_}"))
