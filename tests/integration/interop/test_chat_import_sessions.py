"""Two different chat files imported into one persona are two conversations: each its own
session, none of their turns lost; the same file again adds nothing."""

from __future__ import annotations

import json
from pathlib import Path

from omoide_testing import LiveServer

from omoide.wiring import Omoide

MOVE = [
    {"role": "user", "content": "I moved to Kyoto last spring."},
    {"role": "assistant", "content": "How do you like Kyoto so far?"},
]
CELLO = {
    "title": "Music",
    "messages": [
        {"role": "user", "content": "I started cello lessons this week."},
        {"role": "assistant", "content": "Wonderful! Who is your teacher?"},
        {"role": "user", "content": "A retired orchestra player called Ines."},
    ],
}


def _chatgpt(text: str) -> list[dict[str, object]]:
    """A ChatGPT conversation without conversation_id or id (a hand-cut export)."""
    return [
        {
            "title": "t",
            "current_node": "a",
            "mapping": {
                "a": {
                    "message": {"author": {"role": "user"}, "content": {"parts": [text]}},
                    "parent": None,
                }
            },
        }
    ]


def _claude(text: str) -> list[dict[str, object]]:
    """A Claude conversation without uuid."""
    return [{"name": "t", "chat_messages": [{"sender": "human", "text": text}]}]


def _turns(app: Omoide, persona: str, session_id: str) -> list[str]:
    handle = app.store.sessions(persona)
    return [e.content for e in handle.events_after(handle.get(session_id), 0)]


def test_a_second_openai_file_is_its_own_session_over_http(server: LiveServer, app: Omoide) -> None:
    key = server.create_persona("rin")
    with server.client(key) as c:

        def post(data: object) -> dict[str, object]:
            reply = c.post(
                "/api/import/rin", params={"source": "chat"}, content=json.dumps(data).encode()
            )
            assert reply.status_code == 200, reply.text
            return reply.json()

        first, second = post(MOVE), post(CELLO)
        assert (first["sessions"], first["events"]) == (1, 2)
        assert (second["sessions"], second["events"]) == (1, 3)  # was 0: skipped as a re-run
        one, two = first["session_ids"][0], second["session_ids"][0]
        assert one != two and one.startswith("chat-") and two.startswith("chat-")
        assert _turns(app, "rin", one) == [m["content"] for m in MOVE]
        assert _turns(app, "rin", two) == [m["content"] for m in CELLO["messages"]]
        # the same file again (another layout of the same JSON) is the same session: nothing
        again = post({"messages": CELLO["messages"], "title": "Music"})
        assert (again["events"], again["session_ids"]) == (0, [two])
        # … and its report says so: no session written either (it counted 1, "1 sessions
        # (0 turns)", while an Omoide export's re-run counts 0)
        assert again["sessions"] == 0, again
        assert (post(MOVE)["events"], post(MOVE)["sessions"]) == (0, 0)
        assert _turns(app, "rin", two) == [m["content"] for m in CELLO["messages"]]
        # a ChatGPT or Claude conversation without its id: the same, per conversation
        for shape in (_chatgpt, _claude):
            a, b = post(shape("I keep bees.")), post(shape("I paint on weekends."))
            assert a["events"] == b["events"] == 1, shape
            assert a["session_ids"] != b["session_ids"]
            assert post(shape("I keep bees."))["events"] == 0


def test_a_second_chat_file_from_the_cli(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from omoide.cli import main

    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    data = str(tmp_path / "data")
    files = []
    for i, chat in enumerate((MOVE, CELLO)):
        files.append(tmp_path / f"chat{i}.json")
        files[-1].write_text(json.dumps(chat), encoding="utf-8")

    def run(file: Path) -> dict[str, object]:
        result = CliRunner().invoke(
            main,
            ["import", "-p", "rin", "--from", "chat", "--json", "--data", data, str(file)],
            catch_exceptions=False,
        )
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    one, two = run(files[0]), run(files[1])
    assert (one["events"], two["events"]) == (2, 3)
    assert one["session_ids"] != two["session_ids"]
    assert run(files[1])["events"] == 0
