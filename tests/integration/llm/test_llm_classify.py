"""LLMClassifier against the fake OpenAI/Anthropic servers, with a recording fallback."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from llm_fakes import Reply, anthropic_answer, api_error, openai_answer, text_block

from omoide.config import PersonaSettings
from omoide.engine.candidates import verdict_effects
from omoide.engine.classify import Candidate, Relation, Verdict
from omoide.engine.lang import detect_lang
from omoide.llm.classify import (
    CONFIDENCE_LEVELS,
    LLM_CONFIDENCE,
    SYSTEM_EN,
    SYSTEM_JA,
    LLMClassifier,
)

CANDIDATES = [
    Candidate("k-osaka", "User lives in Osaka.", 0.71),
    Candidate("k-cat", "User has a cat named Miso.", 0.64),
]
NEW = "User moved to Sendai last month."
FAILURE_LOG = "LLM classification failed, using the offline classifier"


class RecordingFallback:
    """Stands in for the offline classifier: every pair INDEPENDENT, calls recorded."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[Candidate], str]] = []

    def classify(
        self,
        new: str,
        candidates: list[Candidate],
        *,
        lang: str = "auto",
        note: bool = False,
        known: object = None,
    ) -> list[Verdict]:
        self.calls.append((new, candidates, lang))
        return [Verdict(c.key, Relation.INDEPENDENT, 0.5, "fallback") for c in candidates]


@pytest.fixture
def fallback() -> RecordingFallback:
    return RecordingFallback()


def verdicts_json(*items: tuple[Any, str]) -> str:
    return json.dumps(
        {"verdicts": [{"candidate": c, "class": k, "reason": f"why {c}"} for c, k in items]}
    )


def test_llm_classifier_returns_verdicts_in_candidate_order_from_one_call(
    fake_api, make_openai, fallback
):
    fake_api.queue(
        Reply(body=openai_answer(verdicts_json((1, "INDEPENDENT"), (0, "CONTRADICTORY"))))
    )
    classifier = LLMClassifier(make_openai(), fallback=fallback)

    verdicts = classifier.classify(NEW, CANDIDATES)

    assert verdicts == [
        Verdict("k-osaka", Relation.CONTRADICTORY, 0.8, "openai:gpt-test: why 0"),
        Verdict("k-cat", Relation.INDEPENDENT, 0.8, "openai:gpt-test: why 1"),
    ]
    assert fallback.calls == []
    [body] = fake_api.bodies
    assert body["response_format"] == {"type": "json_object"}
    assert body["temperature"] == 0.0
    assert body["messages"][0] == {"role": "system", "content": SYSTEM_EN}
    assert body["messages"][1]["content"] == (
        "NEW memory:\nUser moved to Sendai last month.\n\n"
        "EXISTING memories:\n0: User lives in Osaka.\n1: User has a cat named Miso."
    )


MISSING = object()


def rated_json(*confidences: Any) -> str:
    """Two verdicts (CONTRADICTORY, INDEPENDENT) with the given ``confidence`` values as JSON
    (``MISSING``: no such key)."""
    items = []
    classes = ("CONTRADICTORY", "INDEPENDENT")
    for i, (cls, conf) in enumerate(zip(classes, confidences, strict=True)):
        item: dict[str, Any] = {"candidate": i, "class": cls, "reason": f"why {i}"}
        if conf is not MISSING:
            item["confidence"] = conf
        items.append(item)
    return json.dumps({"verdicts": items})


@pytest.mark.parametrize("prompt", [SYSTEM_EN, SYSTEM_JA], ids=["en", "ja"])
def test_llm_classifier_prompt_asks_for_a_confidence_level(prompt):
    assert '"confidence": "likely"' in prompt
    for level in CONFIDENCE_LEVELS:
        assert f'"{level}"' in prompt


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        pytest.param(("certain", "unsure"), (0.98, 0.5), id="levels"),
        pytest.param((" CERTAIN ", "Likely"), (0.98, 0.8), id="case-and-spacing"),
        pytest.param((0.93, 0), (0.93, 0.0), id="numbers-in-range"),
        pytest.param(("0.99", "1"), (0.99, 1.0), id="numeric-strings"),
    ],
)
def test_llm_classifier_reads_the_models_confidence(
    fake_api, make_openai, fallback, given, expected
):
    fake_api.queue(Reply(body=openai_answer(rated_json(*given))))

    verdicts = LLMClassifier(make_openai(), fallback=fallback).classify(NEW, CANDIDATES)

    assert [v.confidence for v in verdicts] == list(expected)
    assert [v.relation for v in verdicts] == [Relation.CONTRADICTORY, Relation.INDEPENDENT]
    assert fallback.calls == []


@pytest.mark.parametrize(
    "given",
    [
        pytest.param((MISSING, None), id="missing-and-null"),
        pytest.param((1.5, -0.1), id="out-of-range"),
        pytest.param((95, "90%"), id="percent"),
        pytest.param(("very sure", ""), id="other-words"),
        pytest.param((True, False), id="booleans"),
        pytest.param(("NaN", "inf"), id="not-finite"),
        pytest.param(([0.9], {"level": "certain"}), id="containers"),
    ],
)
def test_llm_classifier_keeps_the_fixed_confidence_for_an_unreadable_one(
    fake_api, make_openai, fallback, caplog, given
):
    """A confidence the model got wrong never costs the verdict: no fallback, no warning."""
    fake_api.queue(Reply(body=openai_answer(rated_json(*given))))

    verdicts = LLMClassifier(make_openai(), fallback=fallback).classify(NEW, CANDIDATES)

    assert [(v.relation, v.confidence) for v in verdicts] == [
        (Relation.CONTRADICTORY, LLM_CONFIDENCE),
        (Relation.INDEPENDENT, LLM_CONFIDENCE),
    ]
    assert LLM_CONFIDENCE == 0.8
    assert fallback.calls == []
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_llm_classifier_reads_confidence_through_anthropic(fake_api, make_anthropic, fallback):
    fake_api.queue(Reply(body=anthropic_answer(text_block(rated_json("certain", "likely")))))

    verdicts = LLMClassifier(make_anthropic(), fallback=fallback).classify(NEW, CANDIDATES)

    assert [v.confidence for v in verdicts] == [0.98, 0.8]


@pytest.mark.parametrize(
    ("level", "closes"),
    [("certain", True), ("likely", False), ("unsure", False), (MISSING, False)],
)
def test_only_a_certain_llm_contradiction_closes_the_nearest_memory_under_the_band(
    fake_api, make_openai, fallback, level, closes
):
    """The under-band bar (classify_nearest_confidence, default 0.97) reads the LLM's level:
    a certain CONTRADICTORY closes the nearest memory under the band, nothing less does; in
    the band any CONTRADICTORY closes, whatever its level."""
    fake_api.queue(*[Reply(body=openai_answer(rated_json(level, MISSING)))] * 2)
    classifier = LLMClassifier(make_openai(), fallback=fallback)
    sure = PersonaSettings().classify_nearest_confidence
    ranked = [(c.key, c.similarity) for c in CANDIDATES]

    for under_band, expected in ((True, closes), (False, True)):
        verdicts = classifier.classify(NEW, CANDIDATES)
        read = {v.key: (v.relation, v.confidence) for v in verdicts}
        effects = verdict_effects(ranked, read, under_band=under_band, sure=sure, same_fact=0.95)
        assert (effects.closes == ["k-osaka"]) is expected


def test_llm_classifier_prompts_in_japanese_for_japanese_memories(fake_api, make_openai, fallback):
    fake_api.queue(Reply(body=openai_answer(verdicts_json((0, "EXTENDABLE")))))
    old = [Candidate("k1", "ユーザーは\n音楽が好き", 0.8)]

    verdicts = LLMClassifier(make_openai(), fallback=fallback).classify(
        "ユーザーは最近ボサノバにはまっている", old
    )

    assert [v.relation for v in verdicts] == [Relation.EXTENDABLE]
    messages = fake_api.bodies[0]["messages"]
    assert messages[0]["content"] == SYSTEM_JA
    assert messages[1]["content"] == (
        "新しい記憶（NEW）:\nユーザーは最近ボサノバにはまっている\n\n"
        "既存の記憶（EXISTING）:\n0: ユーザーは 音楽が好き"
    )


@pytest.mark.parametrize(
    ("ctor_lang", "call_lang", "expected"),
    [
        pytest.param("ja", "auto", SYSTEM_JA, id="constructor-ja"),
        pytest.param("ja", "en", SYSTEM_EN, id="call-overrides-constructor"),
        pytest.param("auto", "ja", SYSTEM_JA, id="call-ja-on-english-text"),
    ],
)
def test_llm_classifier_prompt_language_follows_explicit_lang(
    fake_api, make_openai, fallback, ctor_lang, call_lang, expected
):
    fake_api.queue(Reply(body=openai_answer(verdicts_json((0, "INDEPENDENT"), (1, "INDEPENDENT")))))

    LLMClassifier(make_openai(), fallback=fallback, lang=ctor_lang).classify(
        NEW, CANDIDATES, lang=call_lang
    )

    assert fake_api.bodies[0]["messages"][0]["content"] == expected


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(
            '[{"candidate": 0, "class": "extendable"}, {"candidate": "1", "class": "INDEPENDENT"}]',
            id="bare-list-lowercase-string-index",
        ),
        pytest.param(
            '```json\n{"verdicts": [{"candidate": "k-osaka", "class": "EXTENDABLE"},'
            ' {"candidate": "k-cat", "class": "INDEPENDENT"}]}\n```',
            id="fenced-by-key",
        ),
        pytest.param(
            'Thinking... {"results": [{"candidate": 1, "class": "INDEPENDENT"}, '
            '{"candidate": 0, "class": "EXTENDABLE"}]} done',
            id="prose-other-name",
        ),
    ],
)
def test_llm_classifier_accepts_tolerable_answer_shapes(fake_api, make_openai, fallback, answer):
    fake_api.queue(Reply(body=openai_answer(answer)))

    verdicts = LLMClassifier(make_openai(), fallback=fallback).classify(NEW, CANDIDATES)

    assert [(v.key, v.relation) for v in verdicts] == [
        ("k-osaka", Relation.EXTENDABLE),
        ("k-cat", Relation.INDEPENDENT),
    ]
    assert fallback.calls == []


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        pytest.param("I think the first one is contradictory.", "no JSON", id="prose"),
        pytest.param(
            verdicts_json((0, "CONTRADICTORY")), "no verdict for candidate 1", id="missing"
        ),
        pytest.param(
            verdicts_json((0, "INDEPENDENT"), (0, "EXTENDABLE"), (1, "INDEPENDENT")),
            "candidate 0 was judged more than once",
            id="duplicate",
        ),
        pytest.param(
            verdicts_json((0, "MAYBE"), (1, "INDEPENDENT")), "unknown class MAYBE", id="bad-class"
        ),
        pytest.param(
            verdicts_json((0, "INDEPENDENT"), (5, "INDEPENDENT")),
            "unknown candidate (5)",
            id="index-out-of-range",
        ),
        pytest.param(
            verdicts_json((0, "INDEPENDENT"), ("User lives", "INDEPENDENT")),
            "unknown candidate (str)",
            id="unknown-key",
        ),
        pytest.param('{"answer": "INDEPENDENT"}', "no list of verdicts", id="no-list"),
        pytest.param(
            '{"verdicts": ["INDEPENDENT", "EXTENDABLE"]}',
            "not a JSON object",
            id="strings-not-objects",
        ),
    ],
)
def test_llm_classifier_falls_back_when_answer_is_malformed(
    fake_api, make_openai, fallback, caplog, answer, reason
):
    fake_api.queue(Reply(body=openai_answer(answer)))

    verdicts = LLMClassifier(make_openai(), fallback=fallback).classify(NEW, CANDIDATES, lang="en")

    assert [v.reason for v in verdicts] == ["fallback", "fallback"]
    assert fallback.calls == [(NEW, CANDIDATES, "en")]
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.getMessage().startswith(f"{FAILURE_LOG}: ")
    assert reason in warning.getMessage()
    assert "Sendai" not in caplog.text
    assert "Osaka" not in caplog.text


def test_llm_classifier_falls_back_when_upstream_keeps_failing(
    fake_api, make_openai, fallback, caplog, sleeps
):
    fake_api.queue(*[Reply(500, api_error("boom"))] * 2)

    verdicts = LLMClassifier(make_openai(max_retries=1), fallback=fallback).classify(
        NEW, CANDIDATES
    )

    assert [v.reason for v in verdicts] == ["fallback", "fallback"]
    assert len(fake_api.received) == 2
    assert f"{FAILURE_LOG}: openai at" in caplog.text
    assert "after 2 attempts: HTTP 500: boom" in caplog.text


def test_llm_classifier_falls_back_when_server_hangs(fake_api, make_openai, fallback):
    fake_api.queue(Reply(hang=True))
    classifier = LLMClassifier(make_openai(timeout_s=0.2, max_retries=0), fallback=fallback)

    verdicts = classifier.classify(NEW, CANDIDATES)

    assert [v.reason for v in verdicts] == ["fallback", "fallback"]


def test_llm_classifier_falls_back_on_401(fake_api, make_anthropic, fallback, caplog):
    fake_api.queue(Reply(401, api_error("invalid x-api-key", "authentication_error")))

    verdicts = LLMClassifier(make_anthropic(), fallback=fallback).classify(NEW, CANDIDATES)

    assert [v.reason for v in verdicts] == ["fallback", "fallback"]
    assert "HTTP 401: invalid x-api-key" in caplog.text


def test_llm_classifier_works_through_anthropic(fake_api, make_anthropic, fallback):
    answer = verdicts_json((0, "CONTRADICTORY"), (1, "INDEPENDENT"))
    fake_api.queue(Reply(body=anthropic_answer(text_block(answer))))

    verdicts = LLMClassifier(make_anthropic(), fallback=fallback).classify(NEW, CANDIDATES)

    assert [v.relation for v in verdicts] == [Relation.CONTRADICTORY, Relation.INDEPENDENT]
    assert fake_api.bodies[0]["system"].startswith(SYSTEM_EN)


def test_llm_classifier_makes_no_call_without_candidates(fake_api, make_openai, fallback):
    assert LLMClassifier(make_openai(), fallback=fallback).classify(NEW, []) == []
    assert fake_api.received == []


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        pytest.param("ユーザーは大阪に住んでいる", "ja", id="kana"),
        pytest.param("東京都", "ja", id="kanji-only"),
        pytest.param("ｶﾀｶﾅ", "ja", id="half-width-katakana"),
        pytest.param("User lives in Osaka", "en", id="english"),
        pytest.param("", "en", id="empty"),
    ],
)
def test_detect_lang_recognises_japanese_script(text, lang):
    assert detect_lang(text) == lang
