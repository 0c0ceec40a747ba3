"""Stage 4 against the fake LLM: the Japanese prompt, and a growing chat summarised
incrementally from its cached prefix."""

from __future__ import annotations

from typing import Any

from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer

from omoide.config import PersonaSettings
from omoide.engine.compact import SUMMARY_PREFIX
from omoide.llm.openai import OpenAILLM
from omoide.service.chat_summary import SUMMARY_STEP, Compressor


def japanese_chat(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(turns):
        out += [
            {"role": "user", "content": f"{i}日目は京都でお寺を見ました。" * 20},
            {"role": "assistant", "content": "すてきですね！" * 20},
        ]
    return out


def test_growing_chat_is_summarised_from_its_cached_prefix(fake_api: FakeAPI) -> None:
    llm = OpenAILLM(fake_llm_config(fake_api.base, api_key=None))
    compressor = Compressor(llm)
    cfg = PersonaSettings(chat_budget_tokens=1100, keep_recent=2)
    fake_api.queue(
        Reply(body=openai_answer("ユーザーは京都でお寺を見た。")),
        Reply(body=openai_answer("ユーザーは毎日京都でお寺を見た。")),
    )
    first = compressor.compress(japanese_chat(10), cfg)
    assert first.summary == "llm"
    summary = first.compaction.messages[0]["content"]
    assert summary == SUMMARY_PREFIX + "ユーザーは京都でお寺を見た。"
    prompt = fake_api.bodies[0]["messages"]
    assert "要約" in prompt[0]["content"] and "300文字以内" in prompt[0]["content"]
    for grown in range(11, 10 + SUMMARY_STEP):  # the cut has not moved: the same summary
        assert compressor.compress(japanese_chat(grown), cfg).summary == "cached"
    assert compressor.llm_calls == 1
    later = compressor.compress(japanese_chat(10 + SUMMARY_STEP), cfg)
    assert later.summary == "llm" and compressor.llm_calls == 2
    asked = fake_api.bodies[1]["messages"][1]["content"]
    assert asked.startswith("これまでの要約:\nユーザーは京都でお寺を見た。")
    # only the turns after the cached prefix (days 0-7): days 8-11
    assert "7日目" not in asked and "8日目" in asked and "11日目" in asked
    llm.close()
