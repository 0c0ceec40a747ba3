"""Session 24's probe: ``session_begin`` ends the persona's other open sessions first, also when
two clients call it at once. Each call ended the open sessions in one transaction and opened
its own in another, so two calls at once could each end the old ones and then each open one:
two open sessions (1 round in 15 of three concurrent calls, on SQLite). Both now happen in one
transaction, serialised per persona on both stores. Real HTTP."""

from __future__ import annotations

import threading

from omoide_testing import LiveServer


def test_concurrent_session_begins_leave_one_open_session(server: LiveServer) -> None:
    key = server.create_persona("rin")
    statuses: list[int] = []
    with server.client(key) as rin:
        for _ in range(12):
            start = threading.Barrier(3)

            def begin(start: threading.Barrier = start) -> None:
                start.wait()
                with server.client(key) as own:
                    statuses.append(own.post("/api/context/rin/session").status_code)

            threads = [threading.Thread(target=begin) for _ in range(3)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            sessions = rin.get("/api/sessions/rin", params={"limit": 1000}).json()["sessions"]
            still_open = [s["session_id"] for s in sessions if s["ended_at"] is None]
            assert len(still_open) == 1, sessions
            assert {s["ended_by"] for s in sessions if s["ended_at"] is not None} <= {"new_session"}
    assert set(statuses) == {201} and len(statuses) == 36
