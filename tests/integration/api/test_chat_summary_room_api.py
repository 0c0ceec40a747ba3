"""Stage 4 of the chat proxy when the recent turns carry large tool results: the summary the
LLM wrote reaches the model whenever the budget has room for it once the recent turns are
squeezed (it was cut to nothing first, against the unsqueezed turns, and the request then went
out far under budget with an empty ``[過去の会話要約]``). Real HTTP, the ``openai`` SDK, the
local fake upstream as both the chat model and the summariser."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.engine.compact import SUMMARY_PREFIX
from omoide.llm.chat import make_chat_upstream
from omoide.llm.openai import OpenAILLM

SUMMARY = "The user checked the timetables of bus lines 70 to 77 in Porto for a Saturday trip."


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    config = fake_llm_config(fake_api.base)
    return chat_server(upstream=make_chat_upstream(config), llm=OpenAILLM(config))


def _tool_chat(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are Corvid."}]
    for i in range(turns):
        rows = [
            {"stop": f"Stop {j}", "time": f"{6 + j // 4}:{(j * 7) % 60:02d}"} for j in range(60)
        ]
        call = {"name": "timetable", "arguments": json.dumps({"line": 70 + i})}
        out += [
            {"role": "user", "content": f"Look up the timetable of bus line 7{i}."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": f"call_{i}", "type": "function", "function": call}],
            },
            {"role": "tool", "tool_call_id": f"call_{i}", "content": json.dumps(rows)},
            {"role": "assistant", "content": f"Line 7{i} leaves every 15 minutes."},
        ]
    out.append({"role": "user", "content": "Which line should I take on Saturday?"})
    return out


def test_the_llm_summary_is_kept_when_squeezing_the_recent_turns_makes_room(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("corvid")
    with proxy.client(key) as c:
        assert (
            c.put(
                "/api/settings/corvid",
                json={"chat_budget_tokens": 1200, "chat_memory_budget_tokens": 0},
            ).status_code
            == 200
        )
    fake_api.queue(Reply(body=openai_answer(SUMMARY)), Reply(body=openai_answer("Line 73.")))
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    reply = client.chat.completions.create(model="x", messages=_tool_chat(8))
    compaction = reply.model_extra["omoide"]["compaction"]
    assert (compaction["stage"], compaction["summary"]) == (4, "llm")
    assert compaction["tokens_after"] <= 1200
    summary_call, chat_call = fake_api.bodies[-2:]
    assert summary_call["messages"][0]["content"].startswith("You summarise")
    # the one system message, the summary folded into it
    assert [m["role"] for m in chat_call["messages"]].count("system") == 1
    assert chat_call["messages"][0]["content"] == f"You are Corvid.\n\n{SUMMARY_PREFIX}{SUMMARY}"
    assert chat_call["messages"][-1]["content"] == "Which line should I take on Saturday?"


def test_no_empty_summary_when_the_latest_turn_alone_is_over_the_budget(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    """A latest message (a pasted document) over the whole budget leaves the summary no room:
    the request used to carry an empty ``[過去の会話要約]`` message, tokens added to a request
    already over its budget. It is left out; the latest message goes through whole. The LLM is
    not asked for a summary that cannot fit (it was, and its answer was thrown away)."""
    key = proxy.create_persona("corvid")
    with proxy.client(key) as c:
        assert (
            c.put(
                "/api/settings/corvid",
                json={"chat_budget_tokens": 400, "keep_recent": 2, "chat_memory_budget_tokens": 0},
            ).status_code
            == 200
        )
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are Corvid."}]
    for i in range(8):
        messages += [
            {"role": "user", "content": f"旅行の計画その{i}: 札幌でラーメンを食べたい。"},
            {"role": "assistant", "content": f"いいですね、その{i}。"},
        ]
    pasted = "札幌の時刻表 " * 400
    messages.append({"role": "user", "content": pasted})
    fake_api.queue(Reply(body=openai_answer("はい。")))
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    reply = client.chat.completions.create(model="x", messages=messages)
    compaction = reply.model_extra["omoide"]["compaction"]
    assert (compaction["stage"], compaction["summary"]) == (4, None)
    assert len(fake_api.bodies) == 1  # no summary was asked for: none would have fitted
    chat_call = fake_api.bodies[-1]
    assert not any(SUMMARY_PREFIX.strip() in str(m["content"]) for m in chat_call["messages"])
    assert chat_call["messages"][-1]["content"] == pasted
    assert chat_call["messages"][0]["content"] == "You are Corvid."
