"""A turn's ``external_id`` of only whitespace is now refused (``api/test_qa44_blank_external_id``)
but an export written before may hold one: ``omoide import`` still takes the file, the id read
as absent (the turn kept, without an id), and a re-import of it into the folder that holds the
old id is still a re-run, not a conflict."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from omoide.cli import main


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))

    def run(*args: str) -> Result:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return run


def _events(file: Path) -> list[dict]:
    lines = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]
    return [r for r in lines if r.get("type") == "event"]


def test_an_export_holding_a_blank_external_id_still_imports(cli, tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    chat.write_text(
        json.dumps(
            [
                {
                    "uuid": "c1",
                    "name": "Tea",
                    "chat_messages": [
                        {"uuid": "m1", "sender": "human", "text": "I drink green tea."},
                        {"uuid": "m2", "sender": "assistant", "text": "Noted: green tea."},
                    ],
                }
            ]
        ),
        encoding="utf-8",
    )
    assert cli("import", "-p", "rin", "--from", "chat", str(chat)).exit_code == 0
    # the folder holds an id an older server stored
    db = sqlite3.connect(tmp_path / "data" / "omoide.db")
    with db:
        db.execute("UPDATE session_events SET external_id = '   ' WHERE external_id = 'm1'")
    db.close()
    old = tmp_path / "old.jsonl"
    assert cli("export", "-p", "rin", "--out", str(old)).exit_code == 0
    assert [e["external_id"] for e in _events(old)] == ["   ", "m2"]

    imported = cli("import", "-p", "ami", str(old))
    assert imported.exit_code == 0, imported.output
    assert "2 turns" in imported.output
    again = tmp_path / "ami.jsonl"
    assert cli("export", "-p", "ami", "--out", str(again)).exit_code == 0
    assert [(e["external_id"], e["content"]) for e in _events(again)] == [
        (None, "I drink green tea."),
        ("m2", "Noted: green tea."),
    ]
    # a re-run into the folder holding the old id: the same turns, nothing written twice
    rerun = cli("import", "-p", "rin", str(old))
    assert rerun.exit_code == 0, rerun.output
    assert "0 turns" in rerun.output


def test_a_chat_export_message_with_a_blank_id_imports_under_its_place(cli, tmp_path: Path) -> None:
    """A chat export's message id of only whitespace is no id: the message's place names the
    turn, as for a message without one (it was stored as the blank id)."""
    chat = tmp_path / "chat.json"
    messages = [
        {"uuid": "  ", "sender": "human", "text": "I drink green tea."},
        {"uuid": "m2", "sender": "assistant", "text": "Noted: green tea."},
    ]
    chat.write_text(json.dumps([{"uuid": "c1", "chat_messages": messages}]), encoding="utf-8")
    done = cli("import", "-p", "rin", "--from", "chat", str(chat))
    assert done.exit_code == 0, done.output
    out = tmp_path / "rin.jsonl"
    assert cli("export", "-p", "rin", "--out", str(out)).exit_code == 0
    assert [e["external_id"] for e in _events(out)] == ["0", "m2"]


@pytest.mark.parametrize(
    "blank", ["\u200b", "\ufeff\u2060", "\u3164"], ids=["zwsp", "bom-wj", "filler"]
)
def test_a_chat_export_message_id_of_invisible_characters_imports_under_its_place(
    cli, tmp_path: Path, blank: str
) -> None:
    """An id of only invisible characters is as blank as one of whitespace (the service
    refuses both as a turn's id): no id, the message's place names the turn. The whole import
    was refused naming the turn's external_id."""
    chat = tmp_path / "chat.json"
    messages = [
        {"uuid": blank, "sender": "human", "text": "I drink green tea."},
        {"uuid": "m2", "sender": "assistant", "text": "Noted: green tea."},
    ]
    chat.write_text(json.dumps([{"uuid": "c1", "chat_messages": messages}]), encoding="utf-8")
    done = cli("import", "-p", "rin", "--from", "chat", str(chat))
    assert done.exit_code == 0, done.output
    out = tmp_path / "rin.jsonl"
    assert cli("export", "-p", "rin", "--out", str(out)).exit_code == 0
    assert [e["external_id"] for e in _events(out)] == ["0", "m2"]


@pytest.mark.parametrize("blank", ["  ", "\u200b"], ids=["spaces", "zwsp"])
def test_a_chat_file_imported_when_its_blank_message_id_was_stored_re_imports_as_a_re_run(
    cli, tmp_path: Path, blank: str
) -> None:
    """A server before session 44 stored a chat message's blank id as the turn's external id;
    now the message's place names the turn. Re-importing the same file matched no stored id
    and added the turn again (3 turns for 2): a stored blank id is read as no id, as an Omoide
    export's is (``transfer.records.kept_external_id``), and the message without an id is
    the stored turn of its role and text. A message the older import had not seen is added."""
    chat = tmp_path / "chat.json"
    messages = [
        {"uuid": blank, "sender": "human", "text": "I drink green tea."},
        {"uuid": "m2", "sender": "assistant", "text": "Noted: green tea."},
    ]
    chat.write_text(json.dumps([{"uuid": "c1", "chat_messages": messages}]), encoding="utf-8")
    assert cli("import", "-p", "rin", "--from", "chat", str(chat)).exit_code == 0
    # the folder as the older server left it: the message's blank id stored
    db = sqlite3.connect(tmp_path / "data" / "omoide.db")
    with db:
        db.execute("UPDATE session_events SET external_id = ? WHERE external_id = '0'", (blank,))
    db.close()

    again = cli("import", "-p", "rin", "--from", "chat", str(chat))
    assert again.exit_code == 0, again.output
    assert "0 turns" in again.output
    out = tmp_path / "rin.jsonl"
    assert cli("export", "-p", "rin", "--out", str(out)).exit_code == 0
    assert [(e["external_id"], e["content"]) for e in _events(out)] == [
        (blank, "I drink green tea."),
        ("m2", "Noted: green tea."),
    ]

    # the conversation went on: its new messages are added, the old ones are not
    messages += [
        {"uuid": blank * 2, "sender": "human", "text": "I drink green tea."},
        {"uuid": "m4", "sender": "assistant", "text": "Still green tea, then."},
    ]
    chat.write_text(json.dumps([{"uuid": "c1", "chat_messages": messages}]), encoding="utf-8")
    more = cli("import", "-p", "rin", "--from", "chat", str(chat))
    assert more.exit_code == 0, more.output
    assert "2 turns" in more.output
    assert cli("export", "-p", "rin", "--out", str(out)).exit_code == 0
    assert [(e["external_id"], e["content"]) for e in _events(out)] == [
        (blank, "I drink green tea."),
        ("m2", "Noted: green tea."),
        ("2", "I drink green tea."),
        ("m4", "Still green tea, then."),
    ]
