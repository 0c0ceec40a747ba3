"""Dedup's negation-scope signal (none of these sentences is in the dedup sets)."""

from __future__ import annotations

import pytest

from omoide.engine.classify.dedup_scope import scope_changed


@pytest.mark.parametrize(
    ("first", "second", "changed"),
    [
        pytest.param(
            "I don't cook on weekdays",
            "I don't cook every weekday",
            True,
            id="en-negated-every-added",
        ),
        pytest.param(
            "I cook on weekdays",
            "I cook every weekday",
            False,
            id="en-every-in-a-positive-statement-is-frequency",
        ),
        pytest.param("I drink tea", "I only drink tea", True, id="en-only-added"),
        pytest.param("I still play chess", "I play chess", True, id="en-still-removed"),
        pytest.param(
            "I no longer play chess",
            "I don't play chess anymore",
            False,
            id="en-two-wordings-of-no-longer",
        ),
        pytest.param("雨の日は歩かない", "雨の日しか歩かない", True, id="ja-shika-added"),
        pytest.param("もう釣りはしない", "まだ釣りをしている", True, id="ja-mou-to-mada"),
        pytest.param("パンだけ食べる", "パンのみ食べる", False, id="ja-dake-and-nomi"),
        pytest.param(
            "おこのみやきを作る", "お好み焼きを作る", False, id="ja-nomi-inside-a-word-is-not-only"
        ),
        pytest.param(
            "I don't answer email on Sundays",
            "I don't answer email on Sunday evenings",
            True,
            id="en-part-of-the-day-added",
        ),
        pytest.param(
            "I swim every morning",
            "Each morning I swim",
            False,
            id="en-part-of-the-day-on-both-sides",
        ),
        pytest.param(
            "夜9時以降はスマホを見ない",
            "9時以降はスマホを見ない",
            True,
            id="ja-part-of-the-day-removed",
        ),
        pytest.param(
            "毎朝パンを焼く", "朝はいつもパンを焼く", False, id="ja-part-of-the-day-reworded"
        ),
    ],
)
def test_scope_changed(first: str, second: str, changed: bool) -> None:
    assert scope_changed(first, second) is changed
    assert scope_changed(second, first) is changed
