"""``X-Omoide-Injected`` (and the reply's ``omoide.injected.memories``) name each injected item
once: two excerpts of one long conversation are ``episode:<id>:<first>-<last>`` with the event
ids of the turns each shows, not twice ``episode:<id>``. Real HTTP, the official ``openai`` SDK,
the local fake upstream (tests/support/llm_fakes.py), both stores; a chat written for this test.
"""

from __future__ import annotations

from collections.abc import Callable

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer, chat_notes

from omoide.clock import FixedClock
from omoide.llm.chat import make_chat_upstream

FILLER = [
    "We mostly talked about the weather on the coast.",
    "The ferry timetable changes in the autumn.",
    "Dinner was a simple vegetable soup tonight.",
    "The library closes early on Saturdays.",
]


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


def test_two_excerpts_of_one_episode_have_distinct_ids(
    proxy: LiveServer, fake_api: FakeAPI, clock: FixedClock
) -> None:
    key = proxy.create_persona("gull")
    lines = [FILLER[i % len(FILLER)] for i in range(24)]
    lines[1] = "My brother Cormac became a lighthouse keeper on Rathlin Island."
    lines[20] = "Cormac the lighthouse keeper on Rathlin Island sent me a postcard."
    turns = [
        ("Niamh", "user", text) if i % 2 == 0 else ("gull", "assistant", text)
        for i, text in enumerate(lines)
    ]
    with proxy.client(key) as c:
        assert (
            c.put(
                "/api/settings/gull",
                json={"episode_consolidation_enabled": False, "min_segment_turns": 40},
            ).status_code
            == 200
        )
        chat_notes(c, proxy.omoide, "gull", "coast", turns, start=clock.now(), step_s=60)
        episodes = c.get("/api/sessions/gull/coast/episodes").json()["episodes"]
    assert len(episodes) == 1
    fake_api.queue(Reply(body=openai_answer("He keeps the Rathlin light.")))
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    raw = client.chat.completions.with_raw_response.create(
        model="x",
        messages=[
            {"role": "user", "content": "What does Cormac do on Rathlin Island, the lighthouse?"}
        ],
    )
    injected = raw.parse().model_extra["omoide"]["injected"]["memories"]
    excerpts = [m for m in injected if m.startswith("episode:")]
    assert len(excerpts) >= 2, injected  # the two turns are far apart: an excerpt each
    assert len(set(excerpts)) == len(excerpts), excerpts
    header = raw.headers["x-omoide-injected"]
    assert header.endswith("keys=" + ",".join(injected)), header
    for ident in excerpts:  # episode:<id>:<first>-<last>
        kind, episode, span = ident.split(":")
        first, last = (int(n) for n in span.split("-"))
        assert (kind, episode) == ("episode", str(episodes[0]["id"])) and first <= last
