"""A memory drawn from more conversations than the dashboard's notice names (a fact said again
in session after session): its purge from the dashboard lands on the memories page naming the
first :data:`SAID_IN_NAMED` sessions and how many more, not on a refusal. Before, the redirect
carried every session as a ``said_in`` parameter and the page refused more than a literal 100
of them (422), after the purge had been done."""

from __future__ import annotations

import re
import sqlite3

import pytest
from omoide_testing import LiveServer, chat_notes

from omoide.api.http.dashboard.routes_memories import SAID_IN_NAMED

pytestmark = pytest.mark.sqlite_only  # provenance rows written into the SQLite file

MORE = 90  # past the 100 the page refused more than
PIN = "ZQXJV-4827"


def test_a_purge_drawn_from_many_sessions_names_the_first_and_counts_the_rest(
    server: LiveServer,
) -> None:
    api_key = server.create_persona("rin")
    app = server.omoide
    with server.client(api_key) as rin:
        notes = chat_notes(rin, app, "rin", "s000", [("Ken", "user", f"My code is {PIN}.")])
    [key] = [n["key"] for n in notes if PIN in n["content"]]
    sessions = [f"s{n:03d}" for n in range(1, SAID_IN_NAMED + MORE)]
    for session in sessions:  # the fact said again in each (its provenance grows)
        app.sessions.open("rin", session_id=session)
        app.sessions.record("rin", session, [{"speaker": "Ken", "content": f"Code {PIN}."}])
    with sqlite3.connect(app.settings.data_dir / "omoide.db") as db:
        db.execute(
            "INSERT INTO memory_sources (memory_id, event_id) SELECT m.id, e.id FROM memories m, "
            "session_events e JOIN sessions s ON s.id = e.session_pk WHERE m.key = ? AND "
            "s.session_id != 's000'",
            (key,),
        )
    with server.signed_in(api_key) as client:
        page = client.get(f"/p/rin/memories/{key}/purge")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert csrf is not None
        done = client.post(
            f"/p/rin/memories/{key}/purge",
            data={"csrf": csrf.group(1), "confirm": key},
            follow_redirects=True,
        )
    assert done.status_code == 200, done.text[:2000]
    assert f"Purged {key}" in done.text
    named = re.findall(r'href="/p/rin/sessions/(s\d+)"', done.text)
    assert named == ["s000", *sessions][:SAID_IN_NAMED]
    assert f"and {MORE} more" in done.text
