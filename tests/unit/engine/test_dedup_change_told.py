"""Dedup's told-change veto (``engine.classify.dedup_change_told``): the new memory tells a
change in so many words that the old one does not. Invented sentences."""

from __future__ import annotations

import pytest

from omoide.engine.classify import change_told

TOLD = [
    # a switch
    (
        "The user irons his shirts on Sunday evenings.",
        "The user has gone over to non-iron shirts.",
        "gone over to",
    ),
    (
        "The user feeds the cat dry food.",
        "The user has switched the cat to wet food.",
        "has switched",
    ),
    # an end
    (
        "The user plays five-a-side on Wednesday evenings.",
        "The user no longer plays five-a-side on Wednesday evenings.",
        "no longer",
    ),
    (
        "The allotment society pays a man to cut the hedges.",
        "The allotment society let the hedge man go and the members cut them.",
        "let the hedge man go",
    ),
    # a state as it is now
    (
        "The user reads the news on paper at breakfast.",
        "The user reads the news on a tablet at breakfast now.",
        "now",
    ),
    (
        "Tom and his brother share the driving to their mother's.",
        "Since his brother started a new job, Tom does all the driving to their mother's.",
        "Since his brother started",
    ),
    (
        "ユーザーは家計簿をノートにつけている。",
        "ユーザーは今は家計簿をアプリでつけている。",
        "今は",
    ),
    (
        "ユーザーは犬を近所の病院に連れて行く。",
        "ユーザーは最近、犬を隣町の病院に連れて行く。",
        "最近",
    ),
    # it became so, it was decided, a thing was removed or closed
    (
        "ユーザーは犬を近所の動物病院に連れて行っている。",
        "ユーザーは犬を隣町の動物病院で診てもらうようになった。",
        "ようになった",
    ),
    (
        "ユーザーは家計簿をノートに手書きでつけている。",
        "ユーザーは家計簿を手書きのノートからアプリに切り替えた。",
        "に切り替え",
    ),
    (
        "ユーザーはメールの署名に旧姓を入れている。",
        "ユーザーはメールの署名から旧姓を外した。",
        "外した",
    ),
    (
        "ユーザーは週末に釣りの記録をブログに書いている。",
        "ユーザーは釣りのブログを閉じた。",
        "閉じた",
    ),
    (
        "ユーザーは朝、ジョギングをしている。",
        "ユーザーは異動してから、朝のジョギングは週末だけにしている。",
        "てから、",
    ),
]

NOT_TOLD = [
    # a paraphrase tells no change
    (
        "The user walks the dog in the park every morning.",
        "Every morning the user takes the dog for a walk in the park.",
    ),
    ("ユーザーは紙のノートに日記を書いている。", "ユーザーは日記を紙のノートにつけている。"),
    # the old memory already tells a change, in other words
    (
        "The user dropped Spanish after a year because of the grammar.",
        "The user gave up Spanish after a year, as the grammar was too hard.",
    ),
    (
        "ユーザーは書斎のライトをLEDに替え、配線は自分でした。",
        "ユーザーは自分で配線して、書斎のライトをLEDに替えた。",
    ),
    (
        "ユーザーはペンを細字に変えてから、字が書きやすくなった。",
        "ユーザーはペンを細字にしてから、字を楽に書けるようになった。",
    ),
    # a state said with 〜になっている is no change
    (
        "ユーザーは毎晩ストレッチをするのが日課だ。",
        "毎晩ストレッチをするのが、ユーザーの習慣になっている。",
    ),
    # 〜てから in a routine: one step after another, not a change
    (
        "ユーザーは毎朝、顔を洗って化粧水をつけている。",
        "ユーザーは毎朝、顔を洗ってから化粧水をつけている。",
    ),
]


@pytest.mark.parametrize(("old", "new", "cue"), TOLD)
def test_a_change_told_in_the_new_memory_is_found(old: str, new: str, cue: str) -> None:
    assert change_told(old, new) == cue


@pytest.mark.parametrize(("old", "new"), NOT_TOLD)
def test_a_paraphrase_or_a_change_the_old_memory_tells_too_is_not(old: str, new: str) -> None:
    assert change_told(old, new) is None


def test_it_reads_the_new_memory_only_against_the_old_one() -> None:
    # the same pair the other way round: the old memory tells the change, the new one none
    old = "The user has switched the cat to wet food."
    new = "The user feeds the cat dry food."
    assert change_told(old, new) is None
    assert change_told(new, old) == "has switched"
