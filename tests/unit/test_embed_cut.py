"""The one prefix cut both bundled embedders use before embedding (embed.base.cut_to_tokens)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from omoide.embed.base import cut_to_tokens


def words(text: str) -> int:
    """A stand-in tokenizer: start and end marks, a token per Latin word and per CJK character."""
    cjk = sum(1 for c in text if c in "猫犬")
    latin = len(text.replace("猫", " ").replace("犬", " ").split())
    return 2 + latin + cjk


@given(st.text(alphabet="ab 猫犬", max_size=3000), st.integers(min_value=20, max_value=300))
def test_the_cut_is_a_prefix_that_fits(text: str, limit: int) -> None:
    cut = cut_to_tokens(text, words, limit)
    assert text.startswith(cut)
    assert cut == text or words(cut) <= limit


def test_a_text_that_fits_is_returned_without_tokenizing() -> None:
    def refuse(text: str) -> int:
        raise AssertionError("tokenized a short text")

    assert cut_to_tokens("short text", refuse, 512) == "short text"


def test_a_long_text_is_cut_close_to_the_limit() -> None:
    text = "word " * 5000
    cut = cut_to_tokens(text, words, 512)
    assert 480 <= words(cut) <= 512
