"""The chat proxy, through real HTTP with the local fake API as the upstream:

- ``GET /v1/models/{model}`` (the ``openai`` SDK's ``client.models.retrieve``) was a 404 for
  every id: it answers the model ``GET /v1/models`` lists, the same object, and refuses any
  other id with a 404 in the proxy's error shape. An upstream model id may hold a slash
  (OpenRouter's ``openai/gpt-4o``), which the SDK sends as ``%2F``.
- The request log's ``persona`` was null for the proxy's routes (the persona is the key's, or
  the admin key's ``X-Omoide-Persona``, not a path parameter): it is the persona now.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from urllib.parse import quote

import openai
import pytest
from chat_proxy import CHAT_ADMIN, fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the HTTP layer, not the store, is under test


def _sdk(server: LiveServer, key: str, **headers: str) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=f"{server.url}/v1",
        api_key=key,
        max_retries=0,
        timeout=10,
        default_headers=headers or None,
    )


@pytest.mark.parametrize("model", ["gpt-test", "openai/gpt-4o"])
def test_the_listed_model_is_retrieved_by_its_id(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, model: str
) -> None:
    config = fake_llm_config(fake_api.base, model=model)
    server = chat_server(upstream=make_chat_upstream(config))
    client = _sdk(server, server.create_persona("rin"))
    (listed,) = client.models.list().data
    assert client.models.retrieve(model) == listed
    persona = {"X-Omoide-Persona": "rin"}
    with server.client(CHAT_ADMIN) as admin:
        (entry,) = admin.get("/v1/models", headers=persona).json()["data"]
        for path in (model, quote(model, safe="")):
            reply = admin.get(f"/v1/models/{path}", headers=persona)
            assert reply.status_code == 200 and reply.json() == entry, reply.text
    assert entry == {"id": model, "object": "model", "created": 0, "owned_by": "omoide"}


def test_another_model_is_a_404_in_the_proxy_error_shape(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = server.create_persona("rin")
    with pytest.raises(openai.NotFoundError) as caught:
        _sdk(server, key).models.retrieve("gpt-4o")
    error = caught.value.response.json()["error"]
    assert error["code"] == "not_found" and error["model"] == "gpt-4o", error
    assert "'gpt-4o'" in error["message"] and "'gpt-test'" in error["message"], error
    with server.client() as anonymous:  # the key is checked first, as for the list
        assert anonymous.get("/v1/models/gpt-test").status_code == 401


def test_an_unknown_model_id_is_named_cut_and_unescaped_in_the_message(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    """Session 45: the 404's message echoed the id whole (a 5,000-character id made a
    5,000-character message) and in Python's repr (``"it's"``, a backslash doubled); it names
    it as every refusal names what was sent: in single quotes, cut at 64 characters."""
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = server.create_persona("rin")
    with server.client(key) as rin:
        long = rin.get("/v1/models/" + "a" * 5000).json()["error"]
        quoted_id = rin.get("/v1/models/" + quote("it's", safe="")).json()["error"]
    assert long["model"] == "a" * 5000
    assert long["message"] == (
        f"no model '{'a' * 63}…': this proxy serves 'gpt-test' (GET /v1/models)"
    )
    assert quoted_id["message"].startswith("no model 'it's': "), quoted_id


def test_without_an_upstream_the_placeholder_model_is_retrieved(
    chat_server: Callable[..., LiveServer],
) -> None:
    server = chat_server(upstream=None)
    client = _sdk(server, server.create_persona("rin"))
    assert client.models.retrieve("omoide").id == "omoide"
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("gpt-test")


def _access(caplog: pytest.LogCaptureFixture, route: str, count: int) -> list[dict[str, object]]:
    deadline = time.monotonic() + 10  # a line is written once its response has ended
    while time.monotonic() < deadline:
        lines = [
            {k: getattr(r, k, None) for k in ("method", "route", "status", "persona")}
            for r in caplog.records
            if r.name == "omoide.access" and getattr(r, "route", None) == route
        ]
        if len(lines) >= count:
            return lines
        time.sleep(0.05)
    raise AssertionError(f"{count} log lines for {route} not written")


def test_the_request_log_names_the_persona_of_a_chat_request(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, caplog: pytest.LogCaptureFixture
) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    rin = _sdk(server, server.create_persona("rin"))
    server.create_persona("kai")
    admin_as_kai = _sdk(server, CHAT_ADMIN, **{"X-Omoide-Persona": "kai"})
    caplog.set_level(logging.INFO)
    for answer in ("Hello.", "Hi."):
        fake_api.queue(Reply(body=openai_answer(answer)))
    messages = [{"role": "user", "content": "hello"}]
    rin.chat.completions.create(model="any", messages=messages)  # type: ignore[arg-type]
    admin_as_kai.chat.completions.create(model="any", messages=messages)  # type: ignore[arg-type]
    rin.models.list()
    rin.models.retrieve("gpt-test")
    with server.client() as anonymous:  # refused before the persona is known
        assert anonymous.post("/v1/chat/completions", json={"messages": messages}).status_code
    chats = _access(caplog, "/v1/chat/completions", 3)
    assert [(c["status"], c["persona"]) for c in chats] == [
        (200, "rin"),
        (200, "kai"),
        (401, None),
    ]
    assert _access(caplog, "/v1/models", 1) == [
        {"method": "GET", "route": "/v1/models", "status": 200, "persona": "rin"}
    ]
    (retrieved,) = _access(caplog, "/v1/models/{model}", 1)
    assert retrieved["persona"] == "rin" and retrieved["status"] == 200
