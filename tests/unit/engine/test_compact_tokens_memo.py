"""The short texts' count and cut memos hold a few MB at most: they were 8192 entries of up to
4000 characters each (~130 MB for 4-byte characters), now bounded by the characters they hold,
with the same results."""

from __future__ import annotations

import tracemalloc

import pytest

from omoide.engine import compact_tokens
from omoide.engine.tokens import estimate_tokens, truncate_to_tokens


def text(i: int) -> str:
    """A distinct text of 4000 four-byte characters (the memos' longest)."""
    return chr(0x1F600 + i % 64) * 3990 + f"{i:010d}"


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("_counts", "_cuts"):
        memo = compact_tokens._TextMemo(
            compact_tokens._MEMO_ENTRIES, compact_tokens._MEMO_TOTAL_CHARS
        )
        monkeypatch.setattr(compact_tokens, name, memo)


@pytest.mark.usefixtures("fresh")
def test_many_long_short_texts_keep_the_memo_within_a_few_megabytes() -> None:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(2000):  # each text dropped by its caller: only the memos keep it
            compact_tokens.count_tokens(text(i))
            compact_tokens.cut_to_tokens(text(i), 10)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 8_000_000, held
    for memo in (compact_tokens._counts, compact_tokens._cuts):
        assert memo.chars <= compact_tokens._MEMO_TOTAL_CHARS
        assert 0 < len(memo) <= compact_tokens._MEMO_ENTRIES


@pytest.mark.usefixtures("fresh")
def test_memoised_counts_and_cuts_are_the_estimates() -> None:
    batch = ["", "a", "猫が好きです。", "word " * 700, *map(text, range(150))]
    for _ in range(2):  # counted, then read from the memo (or counted again once evicted)
        for t in batch:
            assert compact_tokens.count_tokens(t) == estimate_tokens(t)
            for budget in (1, 5, 50):
                assert compact_tokens.cut_to_tokens(t, budget) == (
                    t if estimate_tokens(t) <= budget else truncate_to_tokens(t, budget)
                )


def test_the_oldest_entries_go_first_when_the_characters_are_used_up() -> None:
    memo = compact_tokens._TextMemo(max_entries=10, max_chars=10)
    memo.put("a", 1, 4)
    memo.put("b", 2, 4)
    assert memo.get("a") == (True, 1)  # "a" read: "b" is now the oldest
    memo.put("c", 3, 4)
    assert memo.get("b") == (False, None)
    assert (memo.get("a"), memo.get("c"), memo.chars) == ((True, 1), (True, 3), 8)
    memo.put("a", 9, 2)  # replaced, its characters counted once
    assert (memo.get("a"), memo.chars) == ((True, 9), 6)
