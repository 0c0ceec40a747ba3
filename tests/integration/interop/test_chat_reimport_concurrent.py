"""Two imports of one chat file at the same moment, into a session an older server wrote (its
messages' blank ids stored as the turns'), add no turn twice.

The match of a message without an id against the stored blank-id turns
(``service.chat_reimport.held_unnamed``) reads the session before the write transaction, and
stays right without sharing it: no server since session 44 stores a blank id (every write path
refuses one or reads it as none), so the turns it matches cannot change under it; and what a
concurrent import writes meanwhile is only turns under their messages' places that it matched
to nothing, which this import matches to nothing too, and whose places the write skips
(``INSERT OR IGNORE`` / ``ON CONFLICT DO NOTHING`` on the session's unique external id)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from omoide.clock import FixedClock
from omoide.service.peer_import import PeerImportService
from omoide.wiring import Omoide

# three users' messages without an id (the second and fourth say the same), each answered
_MESSAGES = [
    {"uuid": "  ", "sender": "human", "text": "I drink green tea."},
    {"uuid": "a1", "sender": "assistant", "text": "Noted: green tea."},
    {"uuid": "  ", "sender": "human", "text": "Only in the morning."},
    {"uuid": "a2", "sender": "assistant", "text": "Mornings, then."},
    {"uuid": "  ", "sender": "human", "text": "I drink green tea."},
    {"uuid": "a3", "sender": "assistant", "text": "Still green tea."},
]
CHAT = json.dumps([{"uuid": "c1", "chat_messages": _MESSAGES}])


def _turns(app: Omoide) -> list[tuple[str, str, str]]:
    rows = app.store.db.conn().execute(
        "SELECT external_id, role, content FROM session_events ORDER BY seq"
    )
    return [(r[0], r[1], r[2]) for r in rows.fetchall()]


def _as_an_older_server_left_it(app: Omoide, persona: str) -> list[tuple[str, str, str]]:
    """The file imported, then each message's blank id stored as its turn's (one blank id
    per turn: the session's external ids are unique)."""
    app.peers.import_text(persona, "chat", CHAT)
    with app.store.db.write() as conn:
        for n, place in enumerate(("0", "2", "4"), start=1):
            conn.execute(
                "UPDATE session_events SET external_id = ? WHERE external_id = ?", (" " * n, place)
            )
    turns = _turns(app)
    assert [t[0] for t in turns] == [" ", "a1", "  ", "a2", "   ", "a3"]
    return turns


def _imported_twice_at_once(app: Omoide, persona: str) -> list[BaseException]:
    """The file imported by two threads let go at the same moment; what they raised."""
    ready = threading.Barrier(2)
    failed: list[BaseException] = []

    def run() -> None:
        try:
            ready.wait(10)
            app.peers.import_text(persona, "chat", CHAT)
        except BaseException as exc:  # reported by the test's thread
            failed.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return failed


def test_two_imports_at_once_add_no_turn_twice(app: Omoide, persona: str) -> None:
    stored = _as_an_older_server_left_it(app, persona)
    for _ in range(10):
        assert _imported_twice_at_once(app, persona) == []
    assert _turns(app) == stored


class _ReadThen:
    """A store whose first read of a session's turns runs ``then()`` once it has read them:
    a whole other import lands between this import's match and its write."""

    def __init__(self, store: Any, then: Callable[[], object]) -> None:
        self._store = store
        self._then: Callable[[], object] | None = then

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def sessions(self, persona: str) -> Any:
        return _SessionsReadThen(self._store.sessions(persona), self)

    def after_read(self) -> None:
        then, self._then = self._then, None
        if then is not None:
            then()


class _SessionsReadThen:
    def __init__(self, sessions: Any, owner: _ReadThen) -> None:
        self._sessions = sessions
        self._owner = owner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sessions, name)

    def events_after(self, session: Any, seq: int) -> Any:
        read = self._sessions.events_after(session, seq)
        self._owner.after_read()
        return read


def test_an_import_between_another_imports_match_and_write_adds_no_turn_twice(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    stored = _as_an_older_server_left_it(app, persona)
    # the conversation went on: a message without an id that no older server stored
    grown = json.dumps(
        [
            {
                "uuid": "c1",
                "chat_messages": [
                    *_MESSAGES,
                    {"uuid": " ", "sender": "human", "text": "I drink green tea."},
                ],
            }
        ]
    )
    other = app.peers
    first = PeerImportService(
        _ReadThen(app.store, lambda: other.import_text(persona, "chat", grown)),  # type: ignore[arg-type]
        app.memories,
        app.sessions,
        clock,
    )
    report = first.import_text(persona, "chat", grown)
    assert report.events == 0  # the other import, between, added the one new turn
    assert _turns(app) == [*stored, ("6", "user", "I drink green tea.")]
