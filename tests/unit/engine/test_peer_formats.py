"""Parsing other systems' files (pure): Mem0, the MCP memory server, chat exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omoide.engine.peer_chats import parse_chat
from omoide.engine.peer_formats import (
    PeerFormatError,
    foreign_time,
    parse_mcp_memory,
    parse_mem0,
)

PEERS = Path(__file__).resolve().parents[2] / "integration" / "fixtures" / "peers"


def load(name: str) -> object:
    return json.loads((PEERS / name).read_text(encoding="utf-8"))


def test_mem0_fields_map_and_user_filter() -> None:
    memories = parse_mem0(load("mem0.json"))
    assert [m.content for m in memories] == [
        "Prefers window seats on long flights",
        "Is a vegetarian and avoids dairy",
        "Works as a data engineer in Berlin",
    ]
    veg = memories[1]
    assert veg.tags == ("food", "health")
    assert veg.created_at is not None and veg.created_at.isoformat() == "2026-03-01T16:15:00+00:00"
    assert veg.metadata["source"] == "onboarding"
    assert veg.metadata["mem0"] == {
        "id": "8a1b2c3d-0001",
        "hash": "e3b0c442",
        "user_id": "alex",
        "updated_at": "2026-03-02T10:00:00-08:00",
    }
    assert len(parse_mem0(load("mem0.json"), user_id="alex")) == 2
    with pytest.raises(PeerFormatError, match="memory 0"):
        parse_mem0([{"memory": ""}])


def test_mcp_memory_entities_observations_relations() -> None:
    records = [
        json.loads(line)
        for line in (PEERS / "memory.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    memories, relations, skipped = parse_mcp_memory(records)
    assert skipped == []
    assert [m.content for m in memories] == [
        "Mika_Tanaka: Speaks fluent Portuguese",
        "Mika_Tanaka: Runs a ceramics studio in Kyoto",
        "Kiln_Club: Meets every Thursday evening",
        "Kyoto is a city",
    ]
    assert memories[0].tags == ("Mika_Tanaka", "person")
    assert [r.memory.content for r in relations] == [
        "Mika_Tanaka is member of Kiln_Club",
        "Mika_Tanaka lives in Kyoto",
    ]
    assert relations[0].memory.metadata["mcp_memory"]["relation_type"] == "is_member_of"
    with pytest.raises(PeerFormatError, match="line 1"):
        parse_mcp_memory([{"type": "thing"}])


def test_chat_shapes() -> None:
    (openai,) = parse_chat(load("openai_messages.json"))
    assert [(t.role, t.content[:12]) for t in openai.turns] == [
        ("user", "My name is N"),
        ("assistant", "Congratulati"),
        ("user", "Pixel loves "),
        ("assistant", "Greyhounds o"),
    ]
    (gpt,) = parse_chat(load("chatgpt_conversations.json"))
    assert gpt.id == "c0ffee01" and gpt.title == "Trip planning"
    assert [t.external_id for t in gpt.turns] == ["n1", "n2", "n3"]  # the branch shown last
    (claude,) = parse_chat(load("claude_conversations.json"))
    assert [t.content for t in claude.turns] == [
        "I am learning to bake sourdough bread.",
        "Lovely! How old is your starter?",
        "Two weeks old, I named it Bubbles.",
    ]
    assert claude.turns[0].timestamp is not None
    with pytest.raises(PeerFormatError):
        parse_chat({"nothing": 1})


@pytest.mark.parametrize(
    "chat",
    [
        [{"role": "user", "content": "hi"}, {"role": "wizard", "content": "abracadabra"}],
        [{"uuid": "c1", "chat_messages": [{"sender": "usr", "text": "hi"}]}],
        [
            {
                "conversation_id": "c1",
                "current_node": "n1",
                "mapping": {
                    "n1": {
                        "parent": None,
                        "message": {
                            "id": "m1",
                            "author": {"role": "robot"},
                            "content": {"parts": ["hi"]},
                        },
                    }
                },
            }
        ],
    ],
)
def test_a_chat_message_of_an_unknown_role_is_refused_not_dropped(chat: object) -> None:
    """A message whose role is a typo was left out silently, as a system message is: a file
    of ``"usr"`` turns imported as an empty conversation."""
    with pytest.raises(PeerFormatError, match="unknown role"):
        parse_chat(chat)


def test_system_and_tool_messages_are_still_left_out() -> None:
    chat = [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
        {"role": "tool", "content": "{}"},
        {"role": "developer", "content": "x"},
    ]
    (conversation,) = parse_chat(chat)
    assert [turn.role for turn in conversation.turns] == ["user"]


def test_a_conversation_without_an_id_is_named_by_what_was_said() -> None:
    said = [{"role": "user", "content": "I keep bees."}, {"role": "assistant", "content": "Oh!"}]
    name = parse_chat(said)[0].id
    assert len(name) == 16 and int(name, 16) >= 0
    assert (
        parse_chat({"title": "Bees", "messages": [{"role": "system", "content": "x"}, *said]})[0].id
        == name
    )
    assert parse_chat(said[:1])[0].id != name  # another conversation, another session
    claude = [{"chat_messages": [{"sender": "human", "text": "I keep bees."}]}]
    assert parse_chat(claude)[0].id == f"claude-{parse_chat(said[:1])[0].id}"
    assert parse_chat([{**claude[0], "uuid": "u1"}])[0].id == "u1"


@pytest.mark.parametrize(
    ("content", "kind"),
    [(5, "a number"), (1.5, "a number"), (True, "a boolean"), ("", "empty"), (None, "empty")],
)
def test_a_message_whose_content_is_no_text_says_what_it_held(content: object, kind: str) -> None:
    """``{"role": "user", "content": 5}`` was reported as holding nothing ("empty"); the
    report says a number stood where the text belongs."""
    (conversation,) = parse_chat(
        [{"role": "user", "content": content}, {"role": "user", "content": "I keep bees."}]
    )
    assert conversation.without_text == (kind,)


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_time_past_the_calendar_in_utc_is_kept_as_written(when: str) -> None:
    """It raised OverflowError (a 500 on import); as any time it cannot read as UTC, it stays
    the text it was, for the import's time check to refuse naming it."""
    assert foreign_time(when) == when


def test_a_message_id_the_service_refuses_as_blank_is_read_as_no_id() -> None:
    """A message id of any character the one blank rule (``engine.blank.is_blank``, by which
    the service refuses a blank external id, which refused the whole import) reads as blank,
    every code point tried, is no id: the message's place names the turn. So is one of a
    control character, a lone mark or a private-use character; an id showing something
    (even with a zero-width space inside) is kept."""
    from omoide.engine.blank import is_blank

    no_ids = [chr(c) for c in range(0x110000) if is_blank(chr(c))] + ["\x01", "\u0301", "\ue000"]
    kept = ["m\u200b1", "é"]
    messages = [
        {"sender": "human", "text": f"turn {i}", "uuid": given}
        for i, given in enumerate(no_ids + kept)
    ]
    (conversation,) = parse_chat([{"uuid": "c1", "chat_messages": messages}])
    turns = conversation.turns
    assert len(no_ids) > 300 and len(turns) == len(no_ids) + len(kept)
    named = [(t.external_id, t.unnamed) for t in turns]
    assert named == [(str(i), True) for i in range(len(no_ids))] + [(k, False) for k in kept]
