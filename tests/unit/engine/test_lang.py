import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.lang import (
    SEARCH_STOPWORDS,
    QueryTerms,
    Run,
    Script,
    char_ngrams,
    cjk_terms,
    english_words,
    fold_latin,
    has_cjk,
    is_japanese,
    normalise,
    query_terms,
    script_runs,
    spaced_for_words,
    without_words,
)


def test_normalise_folds_full_width_ascii_to_half_width() -> None:
    assert normalise("ＴＯＥＩＣ１２３点") == "TOEIC123点"


def test_normalise_widens_half_width_katakana() -> None:
    assert normalise("ｶﾀｶﾅ") == "カタカナ"


def test_normalise_drops_nul_and_lone_surrogates() -> None:
    assert normalise("a\x00b\ud800c") == "abc"


@given(st.text())
def test_normalise_is_idempotent(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("大阪", True, id="kanji"),
        pytest.param("ひらがな", True, id="hiragana"),
        pytest.param("カタカナ", True, id="katakana"),
        pytest.param("한국어", True, id="hangul"),
        pytest.param("hello, world 123", False, id="latin"),
        pytest.param("", False, id="empty"),
    ],
)
def test_has_cjk_detects_cjk_scripts(text: str, expected: bool) -> None:
    assert has_cjk(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("らうらうは猫を飼っている", True, id="kana-and-kanji"),
        pytest.param("大阪", True, id="kanji-only"),
        pytest.param("Rau likes ミケ", True, id="mixed"),
        pytest.param("한국어 漢字", False, id="hangul-with-hanja"),
        pytest.param("hello", False, id="english"),
    ],
)
def test_is_japanese_reads_kana_or_kanji_without_hangul(text: str, expected: bool) -> None:
    assert is_japanese(text) is expected


def test_script_runs_split_at_every_script_change_and_drop_separators() -> None:
    assert script_runs("AIの勉強、2024年!") == [
        Run("AI", Script.LATIN),
        Run("の", Script.HIRAGANA),
        Run("勉強", Script.HAN),
        Run("2024", Script.LATIN),
        Run("年", Script.HAN),
    ]


def test_script_runs_keep_long_vowel_mark_in_katakana_and_repeat_mark_in_kanji() -> None:
    assert script_runs("ユーザー時々") == [
        Run("ユーザー", Script.KATAKANA),
        Run("時々", Script.HAN),
    ]


def test_script_runs_split_katakana_at_the_middle_dot() -> None:
    assert script_runs("ハル・ミケ") == [Run("ハル", Script.KATAKANA), Run("ミケ", Script.KATAKANA)]


def test_english_words_lowercase_and_drop_stopwords() -> None:
    assert english_words("What does Rau's father do for a living?") == ["rau", "father", "living"]


def test_english_words_is_empty_for_a_stopword_only_text() -> None:
    assert english_words("What is it, and where are they?") == []


def test_english_words_finds_latin_inside_japanese() -> None:
    assert english_words("Official髭男dismのライブ") == ["official", "dism"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("ユーザーのペットの名前は？", ["ユーザー", "ペット", "名前"], id="particles"),
        pytest.param("らうらうは車の運転ができる？", ["らうらうは", "車", "運転"], id="name"),
        pytest.param("飼っている", ["飼"], id="okurigana"),
        pytest.param("ふるさと納税の返礼品", ["ふるさと", "納税", "返礼品"], id="hiragana-word"),
        pytest.param("どこにいるの", [], id="grammar-only"),
        pytest.param("大阪と大阪", ["大阪"], id="deduplicated"),
    ],
)
def test_cjk_terms_keep_content_runs(text: str, expected: list[str]) -> None:
    assert cjk_terms(text) == expected


def test_query_terms_split_words_and_cjk() -> None:
    assert query_terms("Ｏｆｆｉｃｉａｌ髭男dismのライブ") == QueryTerms(
        words=("official", "dism"), cjk=("髭男", "ライブ")
    )


def test_query_terms_are_empty_for_stopwords_and_punctuation() -> None:
    assert query_terms("the of and? 。、！").empty


@pytest.mark.parametrize(
    ("text", "n", "expected"),
    [
        pytest.param("北海道大学", 3, ["北海道", "海道大", "道大学"], id="trigrams"),
        pytest.param("大阪", 3, ["大阪"], id="shorter-than-n"),
        pytest.param("", 2, [], id="empty"),
    ],
)
def test_char_ngrams_slide_one_character(text: str, n: int, expected: list[str]) -> None:
    assert char_ngrams(text, n) == expected


def test_char_ngrams_reject_n_below_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        char_ngrams("abc", 0)


@given(st.text(), st.integers(min_value=1, max_value=5))
def test_char_ngrams_cover_the_text(text: str, n: int) -> None:
    grams = char_ngrams(text, n)
    if len(text) >= n:
        assert len(grams) == len(text) - n + 1
        assert all(len(g) == n for g in grams)
    assert "".join(g[0] for g in grams[:-1]) + (grams[-1] if grams else "") == text


def test_spaced_for_words_separates_latin_from_japanese() -> None:
    assert spaced_for_words("AIの勉強") == "AI の 勉強"


@given(st.text())
def test_english_words_are_lowercase_non_stopwords(text: str) -> None:
    for word in english_words(text):
        assert word == word.lower()
        assert word not in SEARCH_STOPWORDS
        assert not has_cjk(word)


@given(st.text())
def test_cjk_terms_contain_only_cjk(text: str) -> None:
    for term in cjk_terms(text):
        assert term
        assert all(has_cjk(ch) for ch in term)


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("café", "cafe"),
        ("Málaga", "Malaga"),
        ("ZOË", "ZOE"),
        ("naïve façade", "naive facade"),
        (unicodedata.normalize("NFD", "crème brûlée"), "creme brulee"),
        ("x\u0301y", "xy"),
        ("ǘ", "u"),
        ("plain ascii", "plain ascii"),
        # other scripts keep their marks: kana voicing, Cyrillic й, Greek tonos
        ("がっこう", "がっこう"),
        ("ガス", "ガス"),
        ("й", "й"),
        ("ά", "ά"),
        # letters that are not a base plus a mark stay
        ("ø ł æ ß", "ø ł æ ß"),
    ],
)
def test_fold_latin_drops_the_marks_of_latin_letters_only(text: str, folded: str) -> None:
    assert fold_latin(text) == folded
    assert unicodedata.is_normalized("NFC", fold_latin(text))


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("What does Aiko's brother cook?", "What does brother cook?"),
        ("When did AIKO’s cat arrive?", "When did cat arrive?"),
        ("Where does Aiko live, Aiko?", "Where does live,?"),
        ("Does Zoë like tea?", "Does like tea?"),  # diacritics folded as query_terms folds them
        ("Aikoは何が好き？", "は何が好き?"),  # another script stays (NFKC where a word went)
        ("Aikos and Aiko-san cook", "Aikos and -san cook"),  # whole words only
        ("What does Ren cook?", "What does Ren cook?"),  # not a given word: the text as it is
    ],
)
def test_without_words_drops_the_given_latin_words_with_their_possessive(
    text: str, left: str
) -> None:
    assert without_words(text, {"aiko", "zoe"}) == left


def test_without_words_keeps_the_text_with_no_words_given() -> None:
    text = "Ｗｈａｔ  does Aiko cook?"
    assert without_words(text, set()) is text


def _is_japanese_per_character(text: str) -> bool:
    """is_japanese as it read every character's script (before it searched by regex)."""
    from omoide.engine.lang.script import Script, _script

    scripts = {_script(ch) for ch in text}
    if Script.HIRAGANA in scripts or Script.KATAKANA in scripts:
        return True
    if Script.HAN in scripts:
        return Script.HANGUL not in scripts
    return any(0xFF66 <= ord(ch) <= 0xFF9F for ch in text)


_SCRIPT_EDGES = "aé1 。・゠ァヺーヿㇰｰｦﾟ々〆〇一龥㐀豈한ᄀㄱ𠀀𪚲\u3000"


@given(st.one_of(st.text(), st.text(alphabet=_SCRIPT_EDGES)))
def test_is_japanese_reads_as_the_per_character_scripts_did(text: str) -> None:
    assert is_japanese(text) == _is_japanese_per_character(text)


def _script_by_comparisons(ch: str) -> Script:
    """A character's script as ``_script`` read it before its spans were one table (the
    code points written out a second time in comparisons)."""
    cp = ord(ch)
    if 0x3040 <= cp <= 0x309F:
        return Script.HIRAGANA
    if cp in (0x30A0, 0x30FB):
        return Script.OTHER
    if 0x30A0 <= cp <= 0x30FF or 0x31F0 <= cp <= 0x31FF or cp == 0xFF70:
        return Script.KATAKANA
    if 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2FFFF:
        return Script.HAN
    if 0xF900 <= cp <= 0xFAFF or cp in (0x3005, 0x3006, 0x3007):
        return Script.HAN
    if 0xAC00 <= cp <= 0xD7AF or 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F:
        return Script.HANGUL
    if ch.isalnum():
        return Script.LATIN
    return Script.OTHER


_CJK_SCRIPTS = {Script.HAN, Script.HIRAGANA, Script.KATAKANA, Script.HANGUL}


def test_every_character_has_the_script_the_comparisons_gave() -> None:
    from omoide.engine.lang.script import _script

    for cp in range(0x110000):
        ch = chr(cp)
        assert _script(ch) == _script_by_comparisons(ch), hex(cp)


@given(st.one_of(st.text(), st.text(alphabet=_SCRIPT_EDGES)))
def test_has_cjk_answers_as_reading_each_character_did(text: str) -> None:
    """has_cjk is one regex search now; it was a loop over every character's script."""
    assert has_cjk(text) == any(_script_by_comparisons(ch) in _CJK_SCRIPTS for ch in text)


@given(
    st.one_of(
        st.text(alphabet=st.characters(min_codepoint=0x1F000, max_codepoint=0x30FFF)),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=50),
    )
)
def test_has_cjk_answers_as_before_on_astral_characters(text: str) -> None:
    assert has_cjk(text) == any(_script_by_comparisons(ch) in _CJK_SCRIPTS for ch in text)
