"""Episode segmentation with a configured LLM (``OMOIDE_SEGMENTER`` / the ``segmenter``
setting): the LLM judges each adjacent turn pair, anything malformed falls back to the offline
segmenter, and the default never calls the model. The LLM is a local fake server."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from llm_fakes import API_KEY, FakeAPI, Reply, openai_answer

from omoide.clock import FixedClock
from omoide.llm import LLMConfig, make_llm
from omoide.wiring import Omoide

TURNS = [
    ("Rau", "I planted tomatoes and basil in my garden this weekend."),
    ("Haru", "Lovely! Which tomato variety did you pick?"),
    ("Rau", "I chose San Marzano tomatoes because I want to make pasta sauce."),
    ("Haru", "Great choice, they are perfect for sauce."),
    ("Rau", "I am flying to Lisbon next month for a conference."),
    ("Haru", "Exciting! Have you been to Portugal before?"),
    ("Rau", "Never, but my sister lived in Porto for two years."),
    ("Haru", "Then she can give you tips."),
]
CONSOLIDATION_OFF = {"OMOIDE_EPISODE_CONSOLIDATION_ENABLED": "false"}


def judgement(shift: bool, surprise: float) -> Reply:
    return Reply(body=openai_answer(json.dumps({"topic_shift": shift, "surprise": surprise})))


@pytest.fixture
def make_llm_app(
    make_app: Callable[..., Omoide], fake_api: FakeAPI
) -> Callable[[dict[str, str]], Omoide]:
    def make(environ: dict[str, str]) -> Omoide:
        llm = make_llm(
            LLMConfig(
                provider="openai",
                base_url=fake_api.base + "/v1",
                api_key=API_KEY,
                model="test-model",
                max_retries=0,
                timeout_s=5,
            )
        )
        app = make_app({**CONSOLIDATION_OFF, **environ}, llm=llm)
        app.auth.create_persona("rin")
        return app

    return make


def talk(app: Omoide, clock: FixedClock, session: str = "s1") -> list[tuple[int, int, str]]:
    """Record the turns a minute apart, end the session, return its episodes."""
    app.sessions.open("rin", session_id=session)
    events: list[dict[str, Any]] = [
        {
            "speaker": who,
            "role": "user" if who == "Rau" else "assistant",
            "content": text,
            "external_id": f"{session}-{i}",
            "timestamp": (clock.now() + timedelta(minutes=i)).isoformat(),
        }
        for i, (who, text) in enumerate(TURNS)
    ]
    app.sessions.record("rin", session, events)
    app.sessions.end("rin", session)
    app.runner.run_until_idle()
    return [
        (ep.first_seq, ep.last_seq, ep.boundary_reason)
        for ep, _ in app.sessions.episodes("rin", session)
    ]


def test_omoide_segmenter_llm_cuts_where_the_model_says(
    make_llm_app: Callable[[dict[str, str]], Omoide], fake_api: FakeAPI, clock: FixedClock
) -> None:
    app = make_llm_app({"OMOIDE_SEGMENTER": "llm"})
    fake_api.queue(*(judgement(i == 4, 0.9 if i == 4 else 0.1) for i in range(1, len(TURNS))))
    assert talk(app, clock) == [(1, 4, "start"), (5, 8, "surprise")]
    assert len(fake_api.received) == len(TURNS) - 1  # one call per adjacent pair
    prompt = json.dumps(fake_api.bodies[3], ensure_ascii=False)
    assert "NEW:\\nRau: I am flying to Lisbon" in prompt


def test_a_malformed_judgement_falls_back_to_the_offline_segmenter(
    make_llm_app: Callable[[dict[str, str]], Omoide], fake_api: FakeAPI, clock: FixedClock
) -> None:
    app = make_llm_app({"OMOIDE_SEGMENTER": "llm"})
    app.settings_service.update("rin", {"segmenter": "offline"})
    offline = talk(app, clock, session="offline")
    assert fake_api.received == []
    app.settings_service.update("rin", {"segmenter": "llm"})
    fake_api.queue(Reply(body=openai_answer("a new topic, I think")))
    assert talk(app, clock, session="garbled") == offline
    assert len(fake_api.received) == 1
    assert talk(app, clock, session="unreachable") == offline  # the fake answers 500


def test_the_default_segmenter_never_calls_the_model(
    make_llm_app: Callable[[dict[str, str]], Omoide], fake_api: FakeAPI, clock: FixedClock
) -> None:
    app = make_llm_app({})
    assert app.settings_service.get("rin").segmenter == "offline"
    assert talk(app, clock)
    assert fake_api.received == []


def test_the_segmenter_setting_switches_per_persona(
    make_llm_app: Callable[[dict[str, str]], Omoide], fake_api: FakeAPI, clock: FixedClock
) -> None:
    app = make_llm_app({})
    app.settings_service.update("rin", {"segmenter": "auto"})
    fake_api.queue(*(judgement(False, 0.0) for _ in range(1, len(TURNS))))
    assert talk(app, clock) == [(1, 8, "start")]
    assert len(fake_api.received) == len(TURNS) - 1
