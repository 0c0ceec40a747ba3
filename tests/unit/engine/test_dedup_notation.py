"""Dedup's notation step: differences of notation vanish, changes stay.

None of these sentences is in the dedup sets under ``bench/data``. The kanji reader is an
optional port of the engine (the server passes none: a dictionary would add ~200 MB to the
install for little gain); here a small reading table stands in for one.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import pair_notation
from omoide.engine.classify.dedup_notation import text_notation

READINGS = {
    "葡萄": "ぶどう",
    "蜻蛉": "とんぼ",
    "市立": "しりつ",
    "私立": "しりつ",
    "子供": "こども",
    "子ども": "こども",
    "焼き": "やき",
    "好み": "このみ",
}


def reading(text: str) -> str:
    """Reads the table's words where they occur; kana as they are."""
    for word, kana in sorted(READINGS.items(), key=lambda item: -len(item[0])):
        text = text.replace(word, kana)
    return text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # (a rate over one period, 月に12回, reads as 毎月12回 since the sixteenth round)
        pytest.param("月に１２回", "毎月12回", id="full-width-digits"),
        pytest.param("図書館で働いてます", "図書館で働いている", id="ja-contracted-polite"),
        pytest.param("図書館で働いております。", "図書館で働いている。", id="ja-humble"),
        # (a bare 兄, 姪 or 祖父 opening the text is the user's own, 私の兄, since session 48)
        pytest.param("兄は歯科医です", "私の兄は歯科医", id="ja-copula"),
        pytest.param("兄は歯科医だ", "私の兄は歯科医", id="ja-plain-copula"),
        pytest.param("車を持っていません", "車を持っていない", id="ja-polite-negative"),
        pytest.param("毎朝新聞を読みます", "毎朝新聞を読む", id="ja-godan-polite"),
        pytest.param(
            "辛いものは選びません。", "辛いものは選ばない。", id="ja-godan-polite-negative"
        ),
        pytest.param("夜は魚を焼きません", "夜は魚を焼かない", id="ja-godan-negative-ki"),
        pytest.param("週末は家で寝ます", "週末は家で寝る", id="ja-ichidan-polite"),
        pytest.param("姪は小学四年生", "私の姪は小学4年生", id="ja-kanji-digit-before-a-counter"),
        pytest.param("一番好きな本", "一番好きな本", id="ja-ichiban-is-no-number"),
        pytest.param("庭は200平米、池は2メートル", "庭は200平米、池は2m", id="ja-unit"),
        pytest.param("僕は釣りが好き", "私は釣りが好き", id="ja-first-person"),
        # a katakana unit word is read whole, never as a shorter unit and the rest of the word
        pytest.param("朝は200ミリリットルの豆乳を飲む", "朝は200mlの豆乳を飲む", id="ja-unit-ml"),
        pytest.param(
            "朝は二百ミリリットルの豆乳を飲む",
            "朝は200mlの豆乳を飲む",
            id="ja-unit-ml-kanji-digits",
        ),
        pytest.param("鉄剤を5ミリグラム処方された", "鉄剤を5mg処方された", id="ja-unit-mg"),
        pytest.param("机の奥行きは60センチメートル", "机の奥行きは60cm", id="ja-unit-cm-whole"),
        pytest.param("公園まで4キロメートル走った", "公園まで4km走った", id="ja-unit-km-whole"),
        pytest.param("検査の線量は2ミリシーベルト", "検査の線量は2mSv", id="ja-compound-unit-msv"),
        pytest.param("発電機は5キロワット", "発電機は5kW", id="ja-compound-unit-kw"),
        pytest.param(
            "祖父の8ミリフィルム", "私の祖父の8mmフィルム", id="ja-unit-before-a-katakana-noun"
        ),
        pytest.param("I'm gonna sell the van", "I am going to sell the van", id="en-contractions"),
        pytest.param("I'd've sold the van", "I would have sold the van", id="en-d-ve"),
        pytest.param("The user can't swim", "I cannot swim", id="en-user-and-cannot"),
        pytest.param(
            "Jo organises a colourful theatre festival",
            "Jo organizes a colorful theater festival",
            id="en-british-spelling",
        ),
        pytest.param(
            "Jo travelled to a dialogue programme",
            "Jo traveled to a dialog program",
            id="en-british-spelling-2",
        ),
        pytest.param(
            "the parcel weighs twelve kilograms",
            "the parcel weighs 12 kg",
            id="en-number-word-before-unit",
        ),
        pytest.param(
            "the parcel weighs 12kg", "the parcel weighs 12 kg", id="en-unit-symbol-spaced"
        ),
        pytest.param("the user's bike weighs 9 kilograms", "my bike weighs 9 kg", id="en-unit"),
        pytest.param("The user is a welder", "I am a welder", id="en-user-is"),
    ],
)
def test_text_notation(text: str, expected: str) -> None:
    assert text_notation(text) == expected


@pytest.mark.parametrize(
    ("first", "second", "expected_second"),
    [
        # (a word of no table: 葡萄 is in the sixteenth round's table of words written in kanji or
        # hiragana, and the two meet in hiragana before the reader is asked)
        pytest.param("蜻蛉が好き", "とんぼが好き", "蜻蛉が好き", id="kanji-and-hiragana"),
        pytest.param("ブドウが好き", "ぶどうが好き", "ブドウが好き", id="katakana-and-hiragana"),
        pytest.param("子供の頃から", "子どもの頃から", "子どものころから", id="mixed-spelling"),
        pytest.param("ヴァイオリンを弾く", "バイオリンを弾く", "ヴァイオリンを弾く", id="vu"),
        pytest.param(
            "お好み焼きを作る",
            "おこのみやきを作る",
            "お好み焼きを作る",
            id="spans-across-an-equal-kana",
        ),
        pytest.param("市立の高校", "私立の高校", "私立の高校", id="kanji-homophones-stay-apart"),
        pytest.param("葡萄が好き", "みかんが好き", "みかんが好き", id="another-word-stays"),
    ],
)
def test_pair_notation_spells_one_word_one_way(
    first: str, second: str, expected_second: str
) -> None:
    assert pair_notation(first, second, reading)[1] == expected_second


def test_kilo_is_read_as_the_others_unit_only_as_a_word_of_its_own() -> None:
    assert pair_notation("公園まで4 km走った", "公園まで4キロ走った")[1] == "公園まで4 km走った"
    assert pair_notation("公園まで4 km走った", "4キロワットの発電機")[1] == "4kWの発電機"
    assert pair_notation("公園まで4 km走った", "4キロマラソンに出た")[1] == "4kmマラソンに出た"


def test_without_a_reader_only_kana_spellings_meet() -> None:
    assert pair_notation("ブドウが好き", "ぶどうが好き")[1] == "ブドウが好き"
    assert pair_notation("葡萄が好き", "ぶどうが好き")[1] == "ぶどうが好き"


def test_english_pairs_are_rewritten_each_on_its_own() -> None:
    # (session 50: a present verb after "I" in the third person, as "the user" says it)
    assert pair_notation("The user doesn't drive", "I don't drive") == (
        "I does not drive",
        "I does not drive",
    )


@given(st.text(alphabet="あいうえおかきくけこアイウエオ葡萄市立は が を", max_size=12))
def test_a_text_and_itself_stay_one(text: str) -> None:
    first, second = pair_notation(text, text, reading)
    assert first == second == text_notation(text)
