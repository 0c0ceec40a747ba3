"""Dedup reads a kana spelling of a kanji word through a table of each kanji's readings
(``engine.classify.dedup_kanji``, round 34): 粘った / ねばった read alike, 猫 / うさぎ apart."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation
from omoide.engine.classify.dedup_kanji import spells
from omoide.service.dedup import kanji_readings

TABLE = {
    "粘": "ねばる ねん",
    "履": "くつ はく ふむ り",
    "麓": "ふもと ろく",
    "麻": "あさ ま",
    "痺": "しびれる ひ",
    "餌": "え えさ じ",
    "学": "がく まなぶ",
    "校": "こう",
    "付": "つく つける ふ",
    "猫": "びょう ねこ",
    "買": "かう ばい",
    "受": "うける じゅ",
    "以": "い",
    "前": "ぜん まえ",
    "葉": "は よう",
    "書": "かく しょ",
    "寝": "しん ねる",
    "言": "いう げん こと",
}


@pytest.mark.parametrize(
    ("written", "kana"),
    [
        ("粘った", "ねばった"),  # a godan verb's stem before its ending
        ("付けて", "つけて"),  # an ichidan verb: the kanji is つ, the ending けて
        ("履かない", "はかない"),
        ("麓", "ふもと"),  # a noun's kun reading
        ("麻痺", "まひ"),  # two kanji, each an on reading
        ("餌", "エサ"),  # katakana is folded to hiragana
        ("学校", "がっこう"),  # a final く read as a small っ
        ("葉書", "はがき"),  # a verb's continuative form in a compound: 書く → 書き (voiced)
        ("寝言", "ねごと"),  # an ichidan verb's continuative: 寝る → 寝
    ],
)
def test_a_kana_spelling_of_the_kanji_is_read(written: str, kana: str) -> None:
    assert spells(written, kana, TABLE)


@pytest.mark.parametrize(
    ("written", "kana"),
    [
        ("猫", "うさぎ"),  # another animal
        ("買った", "もらった"),  # another verb with the same ending
        ("受けて", "かけて"),
        ("以前は", "いまは"),  # a noun's reading is never cut to a stem
        ("書", "しき"),  # a continuative is of a verb reading only (しょ is none)
    ],
)
def test_another_word_in_kana_is_not_read_as_the_kanji(written: str, kana: str) -> None:
    assert not spells(written, kana, TABLE)


def test_pair_notation_writes_the_kana_as_the_kanji_only_with_the_table() -> None:
    first, second = "私は3時間粘った。", "私は3時間ねばった。"
    assert pair_notation(first, second)[1] != pair_notation(first, second)[0]
    a, b = pair_notation(first, second, kanji=TABLE)
    assert a == b


def test_a_changed_word_in_kana_stays_apart_with_the_table() -> None:
    a, b = pair_notation("私は猫を飼っている。", "私はうさぎを飼っている。", kanji=TABLE)
    assert a != b


def test_the_packaged_table_holds_the_readings() -> None:
    table = kanji_readings()
    assert "ねばる" in table["粘"].split()
    assert spells("賄って", "まかなって", table)
    assert not spells("叔母", "いとこ", table)


def test_a_continuative_in_a_compound_reads_the_pair_alike() -> None:
    a, b = pair_notation("毎月はがきを送ってくる。", "毎月葉書を送ってくる。", kanji=TABLE)
    assert a == b
