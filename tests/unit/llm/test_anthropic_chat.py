"""OpenAI ⇄ Anthropic translation for the chat proxy (pure)."""

from __future__ import annotations

import json

from omoide.llm.anthropic_chat import (
    StreamTranslator,
    completion_from_anthropic,
    request_to_anthropic,
)


def test_request_maps_system_images_tools_and_tool_results() -> None:
    body = {
        "model": "ignored",
        "temperature": 0.2,
        "stop": "END",
        "tool_choice": "required",
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "weather",
                    "description": "d",
                    "parameters": {"type": "object"},
                },
            }
        ],
        "messages": [
            {"role": "system", "content": "Be kind."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "look"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                ],
            },
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "weather", "arguments": '{"city": "Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "rain"},
        ],
    }
    out = request_to_anthropic(body, "claude-x", stream=True)
    assert out["model"] == "claude-x" and out["stream"] is True
    assert out["system"] == "Be kind." and out["max_tokens"] == 4096
    assert out["temperature"] == 0.2 and out["stop_sequences"] == ["END"]
    assert out["tool_choice"] == {"type": "any"}
    assert out["tools"] == [
        {"name": "weather", "description": "d", "input_schema": {"type": "object"}}
    ]
    assert out["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "look"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"},
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "c1", "name": "weather", "input": {"city": "Oslo"}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "rain"}],
        },
    ]


def test_answer_with_tool_use_becomes_tool_calls() -> None:
    out = completion_from_anthropic(
        {
            "id": "msg_1",
            "model": "claude-x",
            "stop_reason": "tool_use",
            "content": [
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "c1", "name": "weather", "input": {"city": "Oslo"}},
            ],
            "usage": {"input_tokens": 7, "output_tokens": 3},
        }
    )
    choice = out["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] == "Checking."
    call = choice["message"]["tool_calls"][0]
    assert (call["id"], call["function"]["name"]) == ("c1", "weather")
    assert json.loads(call["function"]["arguments"]) == {"city": "Oslo"}
    assert out["usage"] == {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}


def test_stream_events_become_chunks_with_tool_calls_and_usage() -> None:
    t = StreamTranslator(model="claude-x", include_usage=True)
    events = [
        {"type": "message_start", "message": {"id": "m1", "usage": {"input_tokens": 5}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "c1", "name": "weather"},
        },
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"city":'},
        },
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 4},
        },
        {"type": "message_stop"},
    ]
    chunks = [c for e in events for c in t.feed(e)]
    deltas = [c["choices"][0]["delta"] for c in chunks if c["choices"]]
    assert deltas[0] == {"role": "assistant", "content": ""}
    assert deltas[1] == {"content": "Hi"}
    assert deltas[2]["tool_calls"][0]["function"] == {"name": "weather", "arguments": ""}
    assert deltas[3]["tool_calls"][0] == {"index": 0, "function": {"arguments": '{"city":'}}
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert chunks[-1]["usage"]["total_tokens"] == 9 and t.done


def test_parallel_tool_calls_false_leaves_the_shared_tool_choices_alone() -> None:
    """``disable_parallel_tool_use`` goes on this request's ``tool_choice`` only."""
    tool = {"type": "function", "function": {"name": "weather"}}
    messages = [{"role": "user", "content": "hi"}]
    single = {"messages": messages, "tools": [tool], "tool_choice": "required"}
    out = request_to_anthropic({**single, "parallel_tool_calls": False}, "c", stream=False)
    assert out["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
    again = request_to_anthropic(single, "c", stream=False)
    assert again["tool_choice"] == {"type": "any"}
    none = {**single, "tool_choice": "none", "parallel_tool_calls": False}
    assert request_to_anthropic(none, "c", stream=False)["tool_choice"] == {"type": "none"}
