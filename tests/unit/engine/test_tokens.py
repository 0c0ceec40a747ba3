import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.errors import ParameterError
from omoide.engine.tokens import ELLIPSIS, estimate_tokens, fitting, truncate_to_tokens

# Broad Unicode plus a dense mix of the classes the estimate tells apart.
MIXED = "ab Zq 09_,.:/()-!今日は天気ですねカタカナ、。「」ｔｏ３éжЖ😀\u3000\n\t"
TEXT = st.one_of(st.text(), st.text(alphabet=MIXED))
JA = "今日は良い天気ですね、明日も晴れるでしょう。"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("", 0, id="empty"),
        pytest.param("   \n\t", 0, id="whitespace-only"),
        pytest.param("hello world", 2, id="two-short-words"),
        pytest.param("Hello, world! How are you today?", 9, id="sentence"),
        pytest.param("internationalization", 4, id="long-word-5-chars-per-token"),
        pytest.param("2026-11-30", 6, id="digits-3-per-token"),
        pytest.param("user_name", 3, id="underscore-splits"),
        pytest.param("https://example.com", 7, id="url"),
        pytest.param("今日は良い天気ですね。", 11, id="japanese-one-per-char"),
        pytest.param("カタカナ", 4, id="katakana"),
        pytest.param("한국어", 3, id="hangul"),
        pytest.param("ｔｏｄａｙ３", 6, id="full-width"),
        pytest.param("今日\u3000明日", 4, id="ideographic-space-free"),
        pytest.param("Привет мир", 5, id="cyrillic-2-per-token"),
        pytest.param("café", 2, id="accented-latin"),
        pytest.param("😀😀", 2, id="emoji"),
        pytest.param("私はPythonが好き", 7, id="mixed-scripts"),
    ],
)
def test_estimate_tokens_counts_by_character_class(text: str, expected: int) -> None:
    assert estimate_tokens(text) == expected


@given(a=TEXT, b=TEXT)
def test_estimate_tokens_never_decreases_when_text_appended(a: str, b: str) -> None:
    assert estimate_tokens(a + b) >= estimate_tokens(a)
    assert estimate_tokens(a + b) >= estimate_tokens(b)


@given(a=TEXT, b=TEXT)
def test_estimate_tokens_of_concatenation_is_at_most_sum(a: str, b: str) -> None:
    assert estimate_tokens(a + b) <= estimate_tokens(a) + estimate_tokens(b)


def test_estimate_tokens_charges_ellipsis_one_token() -> None:
    assert estimate_tokens("word" + ELLIPSIS) == 2
    assert estimate_tokens("単語" + ELLIPSIS) == 3


@pytest.mark.parametrize(
    ("text", "max_tokens", "expected"),
    [
        pytest.param("The quick brown fox jumps", 3, "The quick…", id="cuts-at-space"),
        pytest.param("The quick brown fox jumps", 1, "The", id="no-room-for-ellipsis"),
        pytest.param("The quick brown fox jumps", 0, "", id="zero-budget"),
        pytest.param("The quick, brown fox", 4, "The quick,…", id="keeps-comma"),
        pytest.param("a" * 100, 5, "a" * 20 + "…", id="mid-word-when-no-break"),
        pytest.param(JA, 12, "今日は良い天気ですね、…", id="ja-after-touten"),
        pytest.param(JA, 15, "今日は良い天気ですね、明日も…", id="ja-no-far-backoff"),
        pytest.param("今日は良い天気ですね", 5, "今日は良…", id="ja-mid-sentence"),
        pytest.param("First line\n\nSecond line", 4, "First line…", id="trailing-newlines"),
    ],
)  # fmt: skip
def test_truncate_to_tokens_cuts_readably_when_text_too_long(
    text: str, max_tokens: int, expected: str
) -> None:
    assert truncate_to_tokens(text, max_tokens) == expected
    assert estimate_tokens(expected) <= max_tokens


def test_truncate_to_tokens_returns_text_unchanged_when_it_fits() -> None:
    assert truncate_to_tokens("hello world", 2) == "hello world"
    assert truncate_to_tokens("", 0) == ""
    assert truncate_to_tokens("   ", 0) == "   "


def test_truncate_to_tokens_rejects_negative_budget() -> None:
    with pytest.raises(ParameterError, match="max_tokens must be 0 or more, got -1"):
        truncate_to_tokens("hello", -1)


@given(text=TEXT, max_tokens=st.integers(min_value=0, max_value=60))
def test_truncate_to_tokens_result_fits_budget(text: str, max_tokens: int) -> None:
    assert estimate_tokens(truncate_to_tokens(text, max_tokens)) <= max_tokens


@given(text=TEXT, extra=st.integers(min_value=0, max_value=10))
def test_truncate_to_tokens_is_identity_when_text_fits(text: str, extra: int) -> None:
    assert truncate_to_tokens(text, estimate_tokens(text) + extra) == text


@given(text=TEXT, max_tokens=st.integers(min_value=0, max_value=60))
def test_truncate_to_tokens_returns_prefix_plus_optional_ellipsis(
    text: str, max_tokens: int
) -> None:
    result = truncate_to_tokens(text, max_tokens)
    if result == text:
        return
    head = result.removesuffix(ELLIPSIS)
    assert text.startswith(head)
    assert head == head.rstrip()
    assert result.endswith(ELLIPSIS) == (head != "" and max_tokens >= 2)


@given(text=st.text(alphabet="abcdefghij今日は天気 ", min_size=200), max_tokens=st.integers(2, 40))
def test_truncate_to_tokens_keeps_most_of_budget(text: str, max_tokens: int) -> None:
    # The readable cut may give up an eighth of the budget, never more (plus the ellipsis).
    result = truncate_to_tokens(text, max_tokens)
    if text.strip():
        assert estimate_tokens(result) >= max_tokens - 1 - max(1, (max_tokens - 1) // 8) - 1


def test_fitting_leaves_out_only_the_lines_over_the_room_in_order() -> None:
    items = [("a", "short"), ("b", "word " * 50), ("c", "also short")]
    assert fitting(items, 5) == [("a", "short"), ("c", "also short")]
    assert fitting(items, 0) == []


def _estimate_run_by_run(text: str) -> int:
    """estimate_tokens as it read each run of one class (before it counted in the regex
    engine): ceil(length / characters a token) per run, whitespace free."""
    from omoide.engine.tokens import _CHARS_PER_TOKEN, _RUNS

    total = 0
    for run in _RUNS.finditer(text):
        per = _CHARS_PER_TOKEN.get(run.lastgroup)
        if per is not None:
            total += -(-len(run[0]) // per)
    return total


@given(text=st.one_of(TEXT, st.text(alphabet=MIXED, min_size=200, max_size=2000)))
def test_estimate_tokens_counts_as_run_by_run(text: str) -> None:
    assert estimate_tokens(text) == _estimate_run_by_run(text)


@given(text=st.one_of(TEXT, st.text(alphabet="ab  \n", min_size=50)), max_tokens=st.integers(0, 8))
def test_truncate_to_tokens_tells_a_long_text_fits_as_a_whole_count_does(
    text: str, max_tokens: int
) -> None:
    """A text far longer than the budget is read only up to it: the same answer."""
    assert (truncate_to_tokens(text, max_tokens) == text) == (estimate_tokens(text) <= max_tokens)
