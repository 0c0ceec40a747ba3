"""``chat_memory_budget_tokens`` above ``chat_budget_tokens`` (qa45h): the memory section is part
of the whole request, so a settings change leaving the persona's own memory budget above it is
refused naming both values, wherever settings are written (the settings API, the dashboard's
form, an import's settings record): a 409 when one of the two is the persona's stored setting or
the server default, a 422 when the request sets both (qa46b: as the search weights are). A
persona stored so before keeps chatting: the section is cut to the whole budget and the log
says so."""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Callable

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream
from omoide.service import chat as chat_service


def _ndjson(lines: list[dict[str, object]]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def test_a_memory_budget_above_the_chat_budget_is_refused_naming_both(
    server: LiveServer,
) -> None:
    server.create_persona("rin")
    with server.admin() as admin:
        refused = admin.put("/api/settings/rin", json={"chat_memory_budget_tokens": 7000})
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["code"] == "conflict"
        assert error["setting"] == "chat_memory_budget_tokens"
        assert "chat_memory_budget_tokens = 7000 (this persona's setting)" in error["message"]
        assert (
            "chat_budget_tokens = 6000 (server default OMOIDE_CHAT_BUDGET_TOKENS)"
            in error["message"]
        )
        # the server default memory budget (800) is not held against a small chat budget:
        # the section is cut to it at use (chat_budget_tokens' range starts at 200)
        assert admin.put("/api/settings/rin", json={"chat_budget_tokens": 500}).status_code == 200
        # the persona's own memory budget is: lowering the whole budget under it is refused
        assert admin.put("/api/settings/rin", json={"chat_budget_tokens": 1000}).status_code == 200
        taken = admin.put("/api/settings/rin", json={"chat_memory_budget_tokens": 900})
        assert taken.status_code == 200, taken.text
        refused = admin.put("/api/settings/rin", json={"chat_budget_tokens": 500})
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["setting"] == "chat_budget_tokens"
        assert "chat_memory_budget_tokens = 900 (this persona's setting)" in error["message"]
        assert "chat_budget_tokens = 500 (this persona's setting)" in error["message"]
        assert admin.get("/api/settings/rin").json()["overrides"] == {
            "chat_budget_tokens": 1000,
            "chat_memory_budget_tokens": 900,
        }
        # both at once, in an order that fits, is taken; equal is allowed
        both = {"chat_budget_tokens": 8000, "chat_memory_budget_tokens": 8000}
        taken = admin.put("/api/settings/rin", json=both)
        assert taken.status_code == 200, taken.text
        # a reset of the whole budget to its default (6000) would leave 8000 above it
        refused = admin.put("/api/settings/rin", json={"chat_budget_tokens": None})
        assert refused.status_code == 409, refused.text
        assert admin.get("/api/settings/rin").json()["overrides"] == both
        # another setting's change is not refused for the pair
        assert admin.put("/api/settings/rin", json={"keep_recent": 7}).status_code == 200


def test_the_dashboard_form_refuses_it_in_the_same_words(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.admin() as admin:
        assert admin.put("/api/settings/rin", json={"chat_budget_tokens": 1000}).status_code == 200
    with server.signed_in(key) as page:
        found = re.search(r'name="csrf" value="([^"]+)"', page.get("/p/rin/settings").text)
        assert found is not None
        form = {"csrf": found.group(1), "name": "chat_memory_budget_tokens", "value": "1200"}
        refused = page.post("/p/rin/settings", data=form)
    assert refused.status_code == 409, refused.text
    shown = html.unescape(refused.text)
    assert "chat_memory_budget_tokens cannot exceed chat_budget_tokens" in shown
    assert "chat_memory_budget_tokens = 1200 (this persona's setting)" in shown
    assert "chat_budget_tokens = 1000 (this persona's setting)" in shown


def test_an_imported_settings_record_is_refused_the_same_way(server: LiveServer) -> None:
    server.create_persona("rin")
    server.create_persona("kai")
    with server.admin() as admin:
        assert admin.post("/api/memories/rin", json={"content": "Rin likes tea"}).status_code == 201
        lines = [json.loads(line) for line in admin.get("/api/export/rin").text.splitlines()]
        lines[1]["overrides"] = {"chat_budget_tokens": 1000, "chat_memory_budget_tokens": 1200}
        refused = admin.post(
            "/api/import/kai",
            content=_ndjson(lines),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert refused.status_code == 422, refused.text
        message = refused.json()["error"]["message"]
        assert "settings record: chat_memory_budget_tokens cannot exceed" in message
        assert (
            "chat_memory_budget_tokens = 1200" in message and "chat_budget_tokens = 1000" in message
        )
        assert admin.get("/api/memories/kai").json()["memories"] == []
        assert admin.get("/api/settings/kai").json()["overrides"] == {}


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


def test_a_persona_stored_so_before_keeps_chatting_within_the_whole_budget(
    proxy: LiveServer,
    fake_api: FakeAPI,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(chat_service, "_BUDGETS_SAID", set())  # said once per process
    key = proxy.create_persona("rin")
    with proxy.client(key) as c:
        for i in range(12):
            block = {"block_name": f"b{i}", "priority": 5, "content": f"Fact {i}. " + "x " * 60}
            assert c.post("/api/blocks/rin", json=block).status_code == 200
    # as an earlier Omoide stored it: the store takes what the settings service once did
    proxy.omoide.store.update_persona_settings(
        "rin", {"chat_budget_tokens": 300, "chat_memory_budget_tokens": 5000}
    )
    fake_api.queue(Reply(body=openai_answer("ok")))
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    with caplog.at_level(logging.WARNING, logger="omoide.service.chat"):
        reply = client.chat.completions.create(
            model="x", messages=[{"role": "user", "content": "hi"}]
        )
    assert reply.choices[0].message.content == "ok"
    injected = reply.model_extra["omoide"]["injected"]
    assert 0 < injected["tokens"] <= 300 and 0 < len(injected["blocks"]) < 12
    said = "chat_memory_budget_tokens (5000) is above chat_budget_tokens (300)"
    assert sum(said in r.getMessage() for r in caplog.records) == 1
    fake_api.queue(Reply(body=openai_answer("ok")))  # once per process, not on every request
    with caplog.at_level(logging.WARNING, logger="omoide.service.chat"):
        client.chat.completions.create(model="x", messages=[{"role": "user", "content": "hi"}])
    assert sum(said in r.getMessage() for r in caplog.records) == 1
