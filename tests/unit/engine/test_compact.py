"""Chat compaction stages (engine/compact.py): examples per stage and Hypothesis properties."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.engine.compact import (
    CLEARED_TOOL_RESULT,
    SUMMARY_PREFIX,
    CompactParams,
    apply_summary,
    compact_mechanical,
    minimum_tokens,
    request_tokens,
    split_turns,
    summary_room,
    summary_split,
)
from omoide.engine.compact_summary import offline_summary

Message = dict[str, Any]


def user(text: str) -> Message:
    return {"role": "user", "content": text}


def assistant(text: str) -> Message:
    return {"role": "assistant", "content": text}


def tool_pair(call_id: str, result: str) -> list[Message]:
    return [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"q": "x"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "content": result},
    ]


def chat(n_turns: int, words: int = 40) -> list[Message]:
    out: list[Message] = [{"role": "system", "content": "You are Rin."}]
    for i in range(n_turns):
        out += [user(f"question {i} " + "word " * words), assistant(f"answer {i} " + "ok " * words)]
    return out


def test_split_turns_keeps_tool_results_with_their_call() -> None:
    messages = [
        {"role": "system", "content": "s"},
        user("a"),
        *tool_pair("c1", "r"),
        assistant("done"),
        user("b"),
    ]
    parts = split_turns(messages)
    assert [m["role"] for m in parts.head] == ["system"]
    assert [[m["role"] for m in t] for t in parts.turns] == [
        ["user", "assistant", "tool", "assistant"],
        ["user"],
    ]


def test_request_under_budget_is_untouched() -> None:
    messages = chat(3)
    result = compact_mechanical(messages, CompactParams(budget_tokens=10_000))
    assert result.stage == 0 and list(result.messages) == messages


def test_stage1_trims_whitespace_and_long_lines_in_old_messages_only() -> None:
    noisy = "line one   \n\n\n\n\nline two " + "x" * 3000
    messages = [user(noisy), assistant("fine"), user(noisy)]
    before = request_tokens(messages)
    result = compact_mechanical(
        messages, CompactParams(budget_tokens=before - 400, keep_recent=1, line_max_tokens=50)
    )
    assert result.stage == 1
    assert result.messages[0]["content"].startswith("line one\n\nline two")
    assert result.messages[2]["content"] == noisy  # the recent turn is verbatim


def test_stage2_clears_old_tool_results_but_keeps_the_call() -> None:
    rows = "".join(f"row {i}: ok\n" for i in range(400))
    messages = [user("look it up"), *tool_pair("c1", rows), assistant("found"), user("thanks")]
    result = compact_mechanical(
        messages, CompactParams(budget_tokens=request_tokens(messages) - 1000, keep_recent=1)
    )
    assert result.stage == 2
    tool = next(m for m in result.messages if m["role"] == "tool")
    assert tool == {"role": "tool", "tool_call_id": "c1", "content": CLEARED_TOOL_RESULT}
    assert result.messages[1]["tool_calls"][0]["id"] == "c1"


def test_stage3_truncates_old_messages() -> None:
    messages = chat(8, words=300)
    result = compact_mechanical(messages, CompactParams(budget_tokens=2500, keep_recent=2))
    assert result.stage == 3 and result.tokens_after <= 2500
    cut = [len(m["content"]) for m in result.messages[1:-4]]
    assert cut[0] < cut[-1]  # the oldest first: the newest old message kept more
    assert result.messages[1]["content"].endswith("…")
    assert result.messages[-4:] == tuple(messages[-4:])


def test_stage4_folds_the_summary_of_old_turns_into_the_system_message() -> None:
    """The summary closes the one leading system message; it was a second system message,
    which many chat templates refuse (session 42)."""
    messages = chat(10, words=200)
    split = summary_split(messages, keep_recent=2)
    assert split.old_turns == 8
    result = apply_summary(
        split,
        "Rin and the user talked about ten questions.",
        max_chars=300,
        params=CompactParams(budget_tokens=1000, keep_recent=2),
        tokens_before=request_tokens(messages),
    )
    assert [m["role"] for m in result.messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
    ]
    assert result.messages[0] == {
        "role": "system",
        "content": "You are Rin.\n\n"
        + SUMMARY_PREFIX
        + "Rin and the user talked about ten questions.",
    }
    assert result.messages[1:] == tuple(messages[-4:])
    assert result.tokens_after == request_tokens(result.messages)


def test_stage4_summary_is_the_system_message_when_the_chat_has_none() -> None:
    messages = chat(10, words=200)[1:]
    result = apply_summary(
        summary_split(messages, keep_recent=2),
        "They talked.",
        max_chars=300,
        params=CompactParams(budget_tokens=1000, keep_recent=2),
        tokens_before=request_tokens(messages),
    )
    assert result.messages[0] == {"role": "system", "content": SUMMARY_PREFIX + "They talked."}
    assert result.messages[1:] == tuple(messages[-4:])


def test_stage4_summary_joins_a_system_message_given_as_parts_as_one_more_part() -> None:
    parts = [{"type": "text", "text": "You are Rin."}]
    messages = [{"role": "developer", "content": parts}, *chat(10, words=200)[1:]]
    result = apply_summary(
        summary_split(messages, keep_recent=2),
        "They talked.",
        max_chars=300,
        params=CompactParams(budget_tokens=1000, keep_recent=2),
        tokens_before=request_tokens(messages),
    )
    assert result.messages[0] == {
        "role": "developer",
        "content": [*parts, {"type": "text", "text": SUMMARY_PREFIX + "They talked."}],
    }
    assert [m["role"] for m in result.messages[1:]] == ["user", "assistant"] * 2


def test_no_summary_adds_no_empty_summary_message() -> None:
    """A summary with no text (none could fit, or the offline one found nothing) was sent as
    an empty "[過去の会話要約]" message: tokens and nothing else (session 36)."""
    messages = chat(10, words=200)
    result = apply_summary(
        summary_split(messages, keep_recent=2),
        " ",
        max_chars=300,
        params=CompactParams(budget_tokens=1000, keep_recent=2),
        tokens_before=request_tokens(messages),
    )
    assert result.stage == 4
    assert not any(SUMMARY_PREFIX.strip() in str(m["content"]) for m in result.messages)
    assert result.messages[1:] == tuple(messages[-4:])


def test_a_larger_budget_keeps_more_turns_beside_the_summary() -> None:
    messages = chat(20)
    kept = [len(summary_split(messages, 2, room_tokens=room).recent) for room in (0, 500, 2000)]
    assert kept == [2, 5, 20]


def test_summary_split_rounds_the_cut_so_a_cached_prefix_is_reused() -> None:
    cuts = [summary_split(chat(n), keep_recent=2, step=4).old_turns for n in range(6, 14)]
    assert cuts == [4, 4, 4, 4, 8, 8, 8, 8]


def test_summary_is_cut_to_max_chars() -> None:
    split = summary_split(chat(8), keep_recent=2)
    result = apply_summary(
        split,
        "あ" * 500,
        max_chars=300,
        params=CompactParams(budget_tokens=100_000),
        tokens_before=0,
    )
    system = result.messages[0]["content"]
    assert system.startswith("You are Rin.\n\n" + SUMMARY_PREFIX)
    assert len(system.split(SUMMARY_PREFIX)[1]) == 300


def test_offline_summary_uses_consolidated_facts() -> None:
    old = [
        user("My sister Mika moved to Osaka last spring and works as a nurse there."),
        assistant("That sounds like a big change for her!"),
        user("ok"),
        assistant("Anything else?"),
    ]
    text = offline_summary(old, max_chars=300)
    assert "Osaka" in text and "nurse" in text
    assert len(text) <= 300


# -- properties ----------------------------------------------------------------------------

_text = st.text(alphabet=st.sampled_from("abc xyz 猫犬。\n"), min_size=0, max_size=400)


@st.composite
def conversations(draw: st.DrawFn) -> list[Message]:
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append({"role": "system", "content": draw(_text)})
    for i in range(draw(st.integers(1, 12))):
        messages.append(user(draw(_text)))
        if draw(st.booleans()):
            messages += tool_pair(f"call{i}", draw(_text))
        messages.append(assistant(draw(_text)))
    return messages


def _compact(messages: list[Message], budget: int, keep: int) -> tuple[Any, CompactParams]:
    params = CompactParams(budget_tokens=budget, keep_recent=keep)
    result = compact_mechanical(messages, params)
    if result.tokens_after > budget:  # as the service does it: budget-aware, in steps of 4
        split = summary_split(
            messages, keep, step=4, room_tokens=summary_room(messages, params, 300)
        )
        result = apply_summary(
            split,
            offline_summary(split.old, max_chars=300),
            max_chars=300,
            params=params,
            tokens_before=result.tokens_before,
        )
    return result, params


@settings(max_examples=150, deadline=None)
@given(conversations(), st.integers(20, 3000), st.integers(0, 8))
def test_result_is_under_budget_whenever_the_budget_is_reachable(
    messages: list[Message], budget: int, keep: int
) -> None:
    result, params = _compact(messages, budget, keep)
    if budget >= minimum_tokens(messages, params):
        assert result.tokens_after <= budget
    assert result.tokens_after == request_tokens(result.messages)
    # one system message at most, and only first: the summary never adds one elsewhere
    assert [i for i, m in enumerate(result.messages) if m["role"] == "system"] in ([], [0])


@settings(max_examples=150, deadline=None)
@given(conversations(), st.integers(20, 3000), st.integers(0, 8))
def test_tool_calls_and_results_are_never_split(
    messages: list[Message], budget: int, keep: int
) -> None:
    result, _ = _compact(messages, budget, keep)
    calls = {c["id"] for m in result.messages for c in m.get("tool_calls") or ()}
    answered = {m["tool_call_id"] for m in result.messages if m["role"] == "tool"}
    assert calls == answered


@settings(max_examples=150, deadline=None)
@given(conversations(), st.integers(20, 3000), st.integers(1, 8))
def test_recent_turns_stay_verbatim_when_they_fit(
    messages: list[Message], budget: int, keep: int
) -> None:
    result, _ = _compact(messages, budget, keep)
    parts = split_turns(messages)
    recent = [m for turn in parts.turns[-keep:] for m in turn]
    floor = request_tokens(
        [*parts.head, {"role": "system", "content": SUMMARY_PREFIX + "あ" * 300}, *recent]
    )
    if budget >= floor:
        assert list(result.messages[-len(recent) :]) == recent
    assert result.messages[-1] == messages[-1]  # the latest message is never touched
