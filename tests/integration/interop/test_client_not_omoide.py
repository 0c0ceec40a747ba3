"""The Python client pointed at a server that is not Omoide (another service on that port, a
proxy's page) over real HTTP: a success whose body is not the route's JSON raises
``OmoideError`` with its status and says why, as an error answer not of Omoide's shape does
(docs/client.md). It raised json's ``JSONDecodeError`` ("Expecting value: line 1 column 1") or
pydantic's ``ValidationError`` naming the reply model's missing fields."""

from __future__ import annotations

import asyncio

import pytest
from llm_fakes import FakeAPI, Reply, openai_answer

from omoide.client import AsyncClient, Client
from omoide.errors import OmoideError

PAGE = Reply(200, "<html><body>Welcome</body></html>", {"content-type": "text/html"})


def test_a_success_that_is_not_omoides_answer_raises_omoide_error(fake_api: FakeAPI) -> None:
    fake_api.queue(PAGE, Reply(200, openai_answer("hi")))
    with Client(fake_api.base, "omo_p_key") as client:
        with pytest.raises(OmoideError, match="body that is not JSON") as page:
            client.create_memory("rin", "The user lives in Tokyo")
        with pytest.raises(OmoideError, match="JSON that is not this route's answer") as other:
            client.create_memory("rin", "The user lives in Tokyo")
    for raised in (page.value, other.value):
        assert raised.status == 200
        assert f"POST {fake_api.base}/api/memories/rin answered HTTP 200" in raised.message
        assert "base_url an Omoide server" in raised.message
    assert "Welcome" in page.value.message


def test_the_async_client_says_the_same(fake_api: FakeAPI) -> None:
    fake_api.queue(PAGE)

    async def scenario() -> None:
        async with AsyncClient(fake_api.base, "omo_p_key") as client:
            await client.record_events("rin", "s1", [{"speaker": "Ken", "content": "hi"}])

    with pytest.raises(OmoideError, match="body that is not JSON") as raised:
        asyncio.run(scenario())
    assert raised.value.status == 200
