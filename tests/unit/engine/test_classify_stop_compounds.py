"""止め inside a compound noun is no ending (qa45h): ``lexicon.STOPPED["ja"]`` matched 止め in
日焼け止め (sunscreen), 滑り止め, 痛み止め …, so a new memory that merely mentions sunscreen read
as "stopped" and closed the old one. 止め right after a noun stem is now a noun unless a verb
ending follows; the verb (止めた, 止めている, 止めにした) still ends something. Sentences invented
for these tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify import Candidate, OfflineClassifier
from omoide.engine.classify.refusal import ends_something

COMPOUND_NOUNS = [
    "ユーザーは毎朝日焼け止めを塗っている。",
    "ユーザーは滑り止めの付いた靴下を履いている。",
    "ユーザーは頭痛のときに痛み止めを飲む。",
    "ユーザーは咳止めが効いたと言っていた。",
    "ユーザーは旅行に下痢止めを持っていく。",
    "ユーザーは船に乗る前に酔い止めを飲む。",
    "ユーザーは友人に口止めされた。",
    "ユーザーは大雪で駅に足止めされた。",
    "ユーザーの家の前の道が工事で通行止めになっている。",
    "ユーザーは日焼け止めまで忘れてきた。",
    "ユーザーは日焼け止めよりも帽子を選ぶ。",
    "ユーザーのかばんには日焼け止め。",
]

ENDINGS = [
    "ユーザーはタバコを止めた。",
    "ユーザーはジムに通うのを止めている。",
    "ユーザーはお酒は止めにした。",
    "ユーザーは夜更かしも止めました。",
    "ユーザーは去年から甘い物を食べるのを止めています。",
    "ユーザーは喫煙止めた。",  # a dropped を: the verb all the same
    "ユーザーは来月から夜食を止めようと思っている。",
    "ユーザーは日焼け止めを塗るのを止めた。",  # the noun, then the verb
    "ユーザーの町の花火大会は取り止めになった。",
    "ユーザーが読んでいた連載は打ち止めになった。",
    "ユーザーの好きなお菓子が販売差し止めになった。",
]


@pytest.mark.parametrize("text", COMPOUND_NOUNS)
def test_tome_in_a_compound_noun_ends_nothing(text: str) -> None:
    assert not ends_something(text, "ja")


@pytest.mark.parametrize("text", ENDINGS)
def test_the_verb_tomeru_still_ends_something(text: str) -> None:
    assert ends_something(text, "ja")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "ユーザーは毎朝ジョギングをしている。",
            "ユーザーはジョギングの前に日焼け止めを塗るようにしている。",
        ),
        (
            "ユーザーは週末に山登りをしている。",
            "ユーザーは山登り用に滑り止めの付いた手袋を買った。",
        ),
        ("ユーザーは頭痛持ちだ。", "ユーザーは頭痛のときに痛み止めを飲んでいる。"),
    ],
)
def test_a_pair_mentioning_such_a_noun_is_not_read_as_stopped(old: str, new: str) -> None:
    (verdict,) = OfflineClassifier().classify(new, [Candidate("a", old, 0.0)], lang="ja")
    assert verdict.relation.value != "CONTRADICTORY", verdict.reason
    assert "ended" not in verdict.reason


def test_a_pair_whose_new_memory_stops_it_is_still_read_as_stopped() -> None:
    (verdict,) = OfflineClassifier().classify(
        "ユーザーはジョギングを止めた。",
        [Candidate("a", "ユーザーは毎朝ジョギングをしている。", 0.0)],
        lang="ja",
    )
    assert verdict.relation.value == "CONTRADICTORY" and "ended" in verdict.reason
