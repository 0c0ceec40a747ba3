"""Stage 4 counts the summary exactly (what folding it into the system message adds, no
message overhead unless it is a message of its own) and counts each kept message once."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from omoide.engine import compact, compact_tokens
from omoide.engine.chat_prompt import into_system_prompt
from omoide.engine.compact import (
    MESSAGE_OVERHEAD,
    SUMMARY_PREFIX,
    CompactParams,
    apply_summary,
    count_tokens,
    minimum_tokens,
    request_tokens,
    split_turns,
    summary_room,
    summary_split,
)

Message = dict[str, Any]
SUMMARY = "あ" * 300  # one token a character and no place to cut early: cuts are exact


def turns(n: int, system: bool) -> list[Message]:
    out: list[Message] = [{"role": "system", "content": "You are Rin."}] if system else []
    for i in range(n):
        out += [
            {"role": "user", "content": f"question {i} " + "word " * 30},
            {"role": "assistant", "content": f"answer {i} " + "ok " * 30},
        ]
    return out


@pytest.mark.parametrize("system", [True, False], ids=["joins-system", "own-message"])
def test_a_summary_cut_to_its_room_takes_all_of_it(system: bool) -> None:
    """The room was counted 4 tokens short when the summary joins the system message (a
    message's overhead it does not cost): the summary came out 4 characters shorter than the
    budget allowed."""
    messages = turns(6, system)
    split = summary_split(messages, keep_recent=1)
    note = SUMMARY_PREFIX + "あ" * 99 + "…"  # what 100 tokens of the summary read
    expected = into_system_prompt([*split.head, *split.recent[0]], note)
    budget = request_tokens(expected)
    result = apply_summary(
        split,
        SUMMARY,
        max_chars=300,
        params=CompactParams(budget_tokens=budget, keep_recent=1),
        tokens_before=0,
    )
    assert list(result.messages) == expected
    assert result.tokens_after == budget


def test_the_summarys_room_and_the_floor_count_its_marker_as_it_is_folded() -> None:
    with_system, without = turns(4, True), turns(4, False)
    params = CompactParams(budget_tokens=5000)
    head = split_turns(with_system).head
    marker = count_tokens(SUMMARY_PREFIX)
    assert summary_room(with_system, params, 300) == 5000 - request_tokens(head) - marker - 150
    assert summary_room(without, params, 300) == 5000 - request_tokens([]) - marker - 4 - 150
    latest = list(split_turns(with_system).turns[-1])
    assert minimum_tokens(with_system, params) == request_tokens([*head, *latest]) + marker
    assert minimum_tokens(without, params) == request_tokens(without[-2:]) + marker + 4
    assert MESSAGE_OVERHEAD == 4


def test_each_kept_message_is_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The joined request was counted in full before and after its loop, and again for each
    cut of the summary: every kept message two to four times."""
    counted: list[int] = []
    real = compact_tokens.message_tokens

    def counting(message: Message) -> int:
        counted.append(id(message))
        return real(message)

    monkeypatch.setattr(compact, "message_tokens", counting)
    monkeypatch.setattr(compact_tokens, "message_tokens", counting)
    messages = turns(12, True)
    split = summary_split(messages, keep_recent=2)
    kept = [m for turn in split.recent for m in turn]
    counted.clear()
    apply_summary(
        split, "a summary", max_chars=300, params=CompactParams(100_000, 2), tokens_before=0
    )
    assert sorted(counted) == sorted([*map(id, split.head), *map(id, kept)])


_text = st.text(alphabet=st.sampled_from("abc xyz 猫犬。\n"), min_size=0, max_size=300)


@st.composite
def conversations(draw: st.DrawFn) -> list[Message]:
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append({"role": draw(st.sampled_from(["system", "developer"])), "content": ""})
        messages[0]["content"] = draw(_text)
    for _ in range(draw(st.integers(2, 10))):
        messages.append({"role": "user", "content": draw(_text)})
        messages.append({"role": "assistant", "content": draw(_text)})
    return messages


def _pairs(*pairs: tuple[str, str]) -> list[Message]:
    return [
        m
        for u, a in pairs
        for m in ({"role": "user", "content": u}, {"role": "assistant", "content": a})
    ]


@settings(max_examples=200, deadline=None)
@given(conversations(), st.integers(20, 2500), st.integers(0, 6))
# The four kept turns left the room at exactly the summary's marker: the squeeze made room for
# the bare marker only, and the summary, cut to nothing, was left out (budget 67 > minimum 35).
@example(
    messages=[
        {"role": "system", "content": "a。a。a"},
        *_pairs(("", ""), ("a", "a"), ("a", "a"), ("a。", "a。"), ("a a", "a a。a")),
    ],
    budget=67,
    keep=4,
)
def test_a_cut_summary_fills_the_budget_exactly(
    messages: list[Message], budget: int, keep: int
) -> None:
    """Whenever the summary had to be cut, the request ends exactly at the budget (the
    summary's characters are a token each), and the count is the request's own."""
    params = CompactParams(budget_tokens=budget, keep_recent=keep)
    split = summary_split(messages, keep, step=4, room_tokens=summary_room(messages, params, 300))
    result = apply_summary(split, SUMMARY, max_chars=300, params=params, tokens_before=0)
    assert result.tokens_after == request_tokens(result.messages)
    text = str(result.messages[0]["content"]) if result.messages else ""
    shown = text.split(SUMMARY_PREFIX, 1)[1] if SUMMARY_PREFIX in text else None
    if split.old and shown is not None and shown != SUMMARY:
        assert result.tokens_after == budget
    if split.old and budget > minimum_tokens(messages, params):
        assert shown  # room for a summary: one was made
