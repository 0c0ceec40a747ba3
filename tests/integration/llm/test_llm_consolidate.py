"""LLMConsolidator against the fake OpenAI server, with a recording offline fallback."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import pytest
from llm_fakes import Reply, openai_answer

from omoide.engine.consolidate import Consolidation, EventText, NoteDraft, NoteKind, ProfileUpdate
from omoide.llm.consolidate import LLMConsolidator

SAID = datetime(2024, 4, 10, 20, 0)
EVENTS = [
    EventText(11, "Rau", "user", "Hi! My name is Laura, but call me Rau.", SAID),
    EventText(12, "Haru", "assistant", "Nice to meet you, Rau! How was your weekend?", SAID),
    EventText(13, "Rau", "user", "I adopted a cat named Miso last Saturday.", SAID),
    EventText(14, "Haru", "assistant", "Congratulations! You can call me Haru.", SAID),
]
FAILURE_LOG = "LLM consolidation failed, using the offline extractor"
FALLBACK_RESULT = Consolidation(
    notes=(NoteDraft("fallback", NoteKind.FACT, (13,), 0.5),), profile=()
)


class RecordingFallback:
    """Stands in for the offline extractor: one fixed note, calls recorded."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[EventText], int | None]] = []

    def consolidate(
        self, events: Sequence[EventText], *, max_notes: int | None = None
    ) -> Consolidation:
        self.calls.append((list(events), max_notes))
        return FALLBACK_RESULT


@pytest.fixture
def fallback() -> RecordingFallback:
    return RecordingFallback()


def answer(notes: list[dict[str, Any]], profile: list[dict[str, Any]] | None = None) -> Reply:
    return Reply(body=openai_answer(json.dumps({"notes": notes, "profile": profile or []})))


def test_llm_consolidator_returns_validated_notes_and_profile_from_one_call(
    fake_api, make_openai, fallback
):
    fake_api.queue(
        answer(
            [
                {
                    "content": "Rau adopted a cat named Miso on 6 April 2024.",
                    "kind": "fact",
                    "sources": [13],
                    "importance": 0.8,
                    "tags": ["pets"],
                }
            ],
            [
                {"key": "name", "value": "Laura", "source": 11},
                {"key": "preferred_address", "value": "Rau", "source": "11"},
                {"key": "name", "value": "Haru", "source": 14},
            ],
        )
    )

    result = LLMConsolidator(make_openai(), fallback=fallback).consolidate(EVENTS)

    assert result == Consolidation(
        notes=(
            NoteDraft(
                "Rau adopted a cat named Miso on 6 April 2024.",
                NoteKind.FACT,
                (13,),
                0.8,
                ("pets",),
            ),
        ),
        profile=(
            ProfileUpdate("name", "Laura", 11),
            ProfileUpdate("preferred_address", "Rau", 11),
        ),
    )
    assert fallback.calls == []
    [body] = fake_api.bodies
    prompt = body["messages"][-1]["content"]
    assert "[13] 2024-04-10 Rau (user): I adopted a cat named Miso last Saturday." in prompt
    assert "At most 2 notes" in body["messages"][0]["content"]


def test_llm_consolidator_drops_unknown_sources_and_notes_left_without_any(
    fake_api, make_openai, fallback
):
    fake_api.queue(
        answer(
            [
                {"content": "Rau has a cat.", "kind": "profile", "sources": [13, 99]},
                {"content": "Invented.", "kind": "fact", "sources": [99]},
            ]
        )
    )

    result = LLMConsolidator(make_openai(), fallback=fallback, notes_per_turn=1.0).consolidate(
        EVENTS
    )

    assert result.notes == (NoteDraft("Rau has a cat.", NoteKind.PROFILE, (13,), 0.5),)


def test_llm_consolidator_keeps_the_most_important_notes_within_budget(
    fake_api, make_openai, fallback
):
    fake_api.queue(
        answer(
            [
                {"content": "a", "kind": "fact", "sources": [11], "importance": 0.2},
                {"content": "b", "kind": "fact", "sources": [13], "importance": 0.9},
                {"content": "c", "kind": "preference", "sources": [13], "importance": 0.7},
            ]
        )
    )

    result = LLMConsolidator(make_openai(), fallback=fallback).consolidate(EVENTS, max_notes=2)

    assert [n.content for n in result.notes] == ["b", "c"]


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("not json at all", id="no-json"),
        pytest.param(json.dumps({"notes": {"content": "x"}}), id="notes-not-a-list"),
        pytest.param(
            json.dumps({"notes": [{"content": "x", "kind": "gossip", "sources": [13]}]}),
            id="unknown-kind",
        ),
        pytest.param(
            json.dumps({"notes": [{"content": "x", "kind": "fact", "sources": [99]}]}),
            id="only-invented-sources",
        ),
    ],
)
def test_llm_consolidator_falls_back_when_answer_is_unusable(
    fake_api, make_openai, fallback, caplog, content
):
    fake_api.queue(Reply(body=openai_answer(content)))

    with caplog.at_level(logging.WARNING):
        result = LLMConsolidator(make_openai(), fallback=fallback).consolidate(EVENTS, max_notes=3)

    assert result == FALLBACK_RESULT
    assert fallback.calls == [(EVENTS, 3)]
    assert FAILURE_LOG in caplog.text
    assert "Miso" not in caplog.text


def test_llm_consolidator_falls_back_when_endpoint_is_down(closed_port_url, make_openai, fallback):
    llm = make_openai(base_url=closed_port_url, max_retries=0)

    assert LLMConsolidator(llm, fallback=fallback).consolidate(EVENTS) == FALLBACK_RESULT


def test_llm_consolidator_makes_no_call_for_an_empty_episode(fake_api, make_openai, fallback):
    result = LLMConsolidator(make_openai(), fallback=fallback).consolidate([])

    assert result == Consolidation(notes=(), profile=())
    assert fake_api.bodies == []


def test_llm_notes_never_come_from_the_personas_turns_alone_nor_carry_labels(
    fake_api, make_openai, fallback
):
    fake_api.queue(
        answer(
            [
                {"content": "Rau: Rau adopted a cat named Miso.", "kind": "fact", "sources": [13]},
                {"content": "Haru congratulated Rau.", "kind": "fact", "sources": [14]},
                {"content": "Rau's weekend was about Miso.", "kind": "fact", "sources": [12, 13]},
            ]
        )
    )
    result = LLMConsolidator(make_openai(), fallback=fallback).consolidate(EVENTS)
    assert [(n.content, n.source_event_ids) for n in result.notes] == [
        ("Rau adopted a cat named Miso.", (13,)),
        ("Rau's weekend was about Miso.", (12, 13)),
    ]
    assert fallback.calls == []


def test_a_nul_or_lone_surrogate_in_a_note_reads_as_u_fffd(fake_api, make_openai, fallback):
    """A model's note holding NUL (PostgreSQL cannot store it) or a lone surrogate (UTF-8 cannot
    encode it) was kept as written: the note's write failed, and its job with it (session 36)."""
    raw = '{"notes": [{"content": "Rau adopted a cat\\u0000 named Miso \\ud83d", "kind": "fact", '
    raw += '"sources": [13], "importance": 0.6, "tags": ["pet\\u0000"]}], "profile": []}'
    fake_api.queue(Reply(body=openai_answer(raw)))
    result = LLMConsolidator(make_openai(), fallback=fallback).consolidate(EVENTS)
    [note] = result.notes
    assert note.content == "Rau adopted a cat\ufffd named Miso \ufffd"
    assert all("\x00" not in tag for tag in note.tags)
    assert fallback.calls == []
