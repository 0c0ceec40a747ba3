"""Write-path step 4 with a configured LLM: the LLM classifier judges (one call per new memory)
and anything malformed falls back to the offline classifier. The LLM is a local fake server."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from bundled_models import bundled
from llm_fakes import API_KEY, FakeAPI, Reply, openai_answer

from omoide.embed import Embedder
from omoide.llm import LLMConfig, make_llm
from omoide.wiring import Omoide


@pytest.fixture(scope="module")
def use_embedder() -> Embedder:
    return bundled("use")


@pytest.fixture
def llm_app(make_app: Callable[..., Omoide], fake_api: FakeAPI, use_embedder: Embedder) -> Omoide:
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
    app = make_app(embedder=use_embedder, llm=llm)
    app.auth.create_persona("rin")
    return app


def create(app: Omoide, content: str) -> str:
    return app.memories.create("rin", app.memories.build_new(content=content)).memory.key


def test_llm_verdict_closes_the_old_memory(llm_app: Omoide, fake_api: FakeAPI) -> None:
    old = create(llm_app, "User works at a bakery in Kobe")
    llm_app.runner.run_until_idle()
    verdicts = {
        "verdicts": [{"candidate": 0, "class": "CONTRADICTORY", "reason": "she changed jobs"}]
    }
    fake_api.queue(Reply(body=openai_answer(json.dumps(verdicts))))
    new = create(llm_app, "User now works at a bookshop in Kobe")
    llm_app.runner.run_until_idle()
    assert llm_app.memories.get("rin", old, recall=False).superseded_by == new
    prompt = json.dumps(fake_api.bodies[-1], ensure_ascii=False)
    assert "User works at a bakery in Kobe" in prompt and "bookshop" in prompt


def test_garbage_from_the_llm_falls_back_to_the_offline_classifier(
    llm_app: Omoide, fake_api: FakeAPI
) -> None:
    old = create(llm_app, "User lives in Tokyo")
    llm_app.runner.run_until_idle()
    fake_api.queue(Reply(body=openai_answer("I think they are related, probably.")))
    new = create(llm_app, "User moved to Osaka last month")
    llm_app.runner.run_until_idle()
    assert len(fake_api.received) == 1
    assert llm_app.memories.get("rin", old, recall=False).superseded_by == new


@pytest.mark.parametrize(
    ("confidence", "closed"),
    [("certain", True), ("likely", False), ("unsure", False), (None, False), ("very", False)],
)
def test_only_a_certain_llm_contradiction_closes_the_nearest_memory_under_the_band(
    llm_app: Omoide, fake_api: FakeAPI, confidence: str | None, closed: bool
) -> None:
    """Nothing reaches the band, so the nearest memory under it is judged and closed only on a
    CONTRADICTORY of classify_nearest_confidence (0.97): the LLM's "certain" (0.98) clears it;
    "likely", "unsure", none or an unknown word (0.8) do not."""
    llm_app.settings_service.update("rin", {"classify_band_low": 1, "classify_nearest_low": 0})
    old = create(llm_app, "User works at a bakery in Kobe")
    llm_app.runner.run_until_idle()
    verdict = {
        "candidate": 0,
        "class": "CONTRADICTORY",
        "reason": "she changed jobs",
        **({} if confidence is None else {"confidence": confidence}),
    }
    fake_api.queue(Reply(body=openai_answer(json.dumps({"verdicts": [verdict]}))))
    new = create(llm_app, "User now works at a bookshop in Kobe")
    llm_app.runner.run_until_idle()
    assert len(fake_api.received) == 1
    assert (llm_app.memories.get("rin", old, recall=False).superseded_by == new) is closed
