"""A change told in so many words is saved, not dropped as a duplicate (issue 8, "never loses
a fact"): through ``MemoryService.create`` on a real SQLite file with the bundled e5, the
learned dedup judge would drop these near-copies, the told-change veto
(``engine.classify.dedup_change_told``) keeps them, and the background jobs then link or close
the old memory; a plain paraphrase is still dropped. Invented sentences."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from bundled_models import bundled

from omoide.service import dedup
from omoide.wiring import Omoide

pytestmark = pytest.mark.slow

CHANGES = [
    (
        "The user irons his shirts on Sunday evenings.",
        "The user has gone over to non-iron shirts, so the Sunday evening ironing is over.",
    ),
    (
        "ユーザーは家計簿をノートに手書きでつけている。",
        "ユーザーは家計簿を手書きのノートからアプリに切り替えた。",
    ),
]
PARAPHRASES = [
    (
        "The user walks the dog in the park every morning.",
        "Every morning the user takes the dog for a walk in the park.",
    ),
    ("ユーザーは日記を紙のノートに書いている。", "ユーザーは紙のノートに日記をつけている。"),
]


@pytest.fixture
def e5_app(make_app: Callable[..., Omoide]) -> Omoide:
    app = make_app(embedder=bundled("e5"))
    app.auth.create_persona("rin")
    return app


def create(app: Omoide, content: str) -> Any:
    return app.memories.create("rin", app.memories.build_new(content=content))


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_told_change_is_saved_and_then_linked_or_closed(
    e5_app: Omoide, old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = create(e5_app, old).memory
    e5_app.runner.run_until_idle()
    # without the veto the judge drops it: the pair is one the veto decides (the
    # added-information veto, which may keep it too, is patched out with it)
    with monkeypatch.context() as patched:
        patched.setattr(dedup, "change_told", lambda old, new: None)
        patched.setattr(dedup, "added_information", lambda old, new, written=None: None)
        assert create(e5_app, new).status == "duplicate"
    saved = create(e5_app, new)
    assert saved.status == "created"
    e5_app.runner.run_until_idle()
    assert e5_app.memories.stats("rin").total == 2
    before = e5_app.memories.get("rin", first.key, recall=False)
    linked = {link.other_key for link in e5_app.memories.links("rin", saved.memory.key)}
    assert before.superseded_by == saved.memory.key or first.key in linked


@pytest.mark.parametrize(("old", "new"), PARAPHRASES)
def test_a_plain_paraphrase_is_still_dropped(e5_app: Omoide, old: str, new: str) -> None:
    first = create(e5_app, old).memory
    again = create(e5_app, new)
    assert again.status == "duplicate"
    assert again.duplicate_of.key == first.key
    assert e5_app.memories.stats("rin").active == 1
