"""Compound memories: the unchanged part of a contradicted memory survives."""

from __future__ import annotations

import pytest

from omoide.engine.classify import remainder, split_compound


@pytest.mark.parametrize(("old", "new", "kept"), [
    pytest.param("The user lives in Tokyo with her two cats.",
                 "The user moved from Tokyo to Osaka last month.",
                 "The user lives with her two cats.", id="en-accompaniment"),
    pytest.param("User lives in Madrid and teaches English at a language school.",
                 "User quit the language school and now works as a translator.",
                 "User lives in Madrid.", id="en-second-clause"),
    pytest.param("ユーザーは名古屋に住んでいて、語学学校で英語を教えている",
                 "ユーザーは語学学校を辞めて、今は翻訳の仕事をしている",
                 "ユーザーは名古屋に住んでいる", id="ja-te-form"),
])
def test_remainder_keeps_the_part_the_new_memory_leaves_alone(old: str, new: str,
                                                              kept: str) -> None:
    assert remainder(old, new) == kept


@pytest.mark.parametrize(("old", "new"), [
    pytest.param("User lives in Tokyo.", "User moved to Osaka.", id="one-fact"),
    pytest.param("User's yoga class is at the community centre on Saturdays.",
                 "User's yoga class is held online on Saturdays now.", id="attribute-not-fact"),
    pytest.param("User drives to work and listens to podcasts on the way.",
                 "User drives to work and listens to podcasts on the train.", id="all-touched"),
])
def test_no_remainder_when_nothing_separate_survives(old: str, new: str) -> None:
    assert remainder(old, new) is None


def test_cosines_pick_the_changed_part_when_no_word_is_shared() -> None:
    old = "ユーザーは結婚していて娘が1人いて、浦和に住んでいる"
    compound = split_compound(old)
    assert compound is not None and len(compound.parts) == 3
    assert remainder(old, "ユーザーは春に夫と離婚した") is None  # no shared word, no cosines
    kept = remainder(old, "ユーザーは春に夫と離婚した", part_similarities=[0.9, 0.5, 0.4])
    assert kept == "ユーザーは娘が1人いて、浦和に住んでいる"
