"""PostgreSQL's refusals a user can meet, besides a full disk (test_pg_disk_full_api.py), are a
503 ``storage_unavailable`` naming the cause and what to do, not a 500; nothing of the write is
stored, and the next request (the cause gone) is served.

Real on this server: a statement cancelled by an administrator (``pg_cancel_backend`` while the
insert sleeps in a trigger: 57014, the error a ``statement_timeout`` gives too) and a connection
the server ends (``pg_terminate_backend``: 57P01, a restart's or a failover's). Raised by a
trigger on the memories table with the server's own SQLSTATE (as test_pg_disk_full_api.py does
for 53100, which needs a disk of its own): out of memory (53200), a serialization failure
(40001), a deadlock (40P01) and a read-only transaction (25006). (42501 insufficient_privilege:
test_pg_privilege_api.py.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import anyio
import httpx
import psycopg
import pytest
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer
from pg_testing import SEE_ALL

pytestmark = pytest.mark.postgres_only

_TRIGGER = """
CREATE FUNCTION qa37_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    {body}
    RETURN NEW;
END $$;
CREATE TRIGGER qa37_refuse BEFORE INSERT ON memories FOR EACH ROW EXECUTE FUNCTION qa37_refuse();
"""
_DROP = "DROP TRIGGER qa37_refuse ON memories; DROP FUNCTION qa37_refuse()"


@pytest.fixture
def url(store_environ: dict[str, str]) -> str:
    return store_environ["OMOIDE_DATABASE_URL"]


@pytest.fixture
def refusing(url: str) -> Iterator[psycopg.Connection]:
    """A connection of the test's own, past the wall; the trigger it installs is dropped."""
    with psycopg.connect(url, autocommit=True, options=SEE_ALL) as conn:
        yield conn
        conn.execute("DROP TRIGGER IF EXISTS qa37_refuse ON memories")
        conn.execute("DROP FUNCTION IF EXISTS qa37_refuse()")


def _refuse(conn: psycopg.Connection, body: str) -> None:
    conn.execute(_TRIGGER.format(body=body))


def _add(client: httpx.Client, content: str = "The user keeps bees.") -> httpx.Response:
    return client.post("/api/memories/rin", json={"content": content})


def _served_again(client: httpx.Client, conn: psycopg.Connection) -> None:
    conn.execute(_DROP)
    assert client.get("/api/memories/rin").json()["memories"] == []  # nothing half-stored
    assert _add(client).status_code == 201


@pytest.mark.parametrize(
    ("sqlstate", "said", "retry"),
    [
        ("53200", "out of memory: try again later", None),
        ("40001", "conflicted with a concurrent one", "1"),
        ("40P01", "conflicted with a concurrent one", "1"),
        ("25006", "the database is read-only", None),
    ],
)
def test_a_refusal_of_the_server_is_503_naming_it(
    server: LiveServer, refusing: psycopg.Connection, sqlstate: str, said: str, retry: str | None
) -> None:
    """Before: 500 ``internal_error`` for each (only 53100 was mapped)."""
    key = server.create_persona("rin")
    _refuse(refusing, f"RAISE EXCEPTION 'the server says no' USING ERRCODE = '{sqlstate}';")
    with server.client(key) as rin:
        reply = _add(rin)
        assert reply.status_code == 503, reply.text
        error = reply.json()["error"]
        assert error["code"] == "storage_unavailable"
        assert "the server says no" in error["message"]
        assert said in error["message"]
        assert "nothing of" in error["message"] and "was stored" in error["message"]
        assert reply.headers.get("Retry-After") == retry
        _served_again(rin, refusing)


def test_a_cancelled_statement_is_503_and_the_next_request_is_served(
    server: LiveServer, refusing: psycopg.Connection
) -> None:
    key = server.create_persona("rin")
    _refuse(refusing, "PERFORM pg_sleep(60);")
    replies: list[httpx.Response] = []
    with server.client(key) as rin:
        sender = threading.Thread(target=lambda: replies.append(_add(rin)))
        sender.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            cancelled = refusing.execute(
                "SELECT pg_cancel_backend(pid) FROM pg_stat_activity "
                "WHERE wait_event = 'PgSleep' AND pid <> pg_backend_pid()"
            ).fetchall()
            if cancelled:
                break
            time.sleep(0.05)
        sender.join(60)
        (reply,) = replies
        assert reply.status_code == 503, reply.text
        error = reply.json()["error"]
        assert error["code"] == "storage_unavailable"
        assert "canceling statement due to user request" in error["message"]
        assert "statement_timeout" in error["message"]
        _served_again(rin, refusing)


def test_a_connection_the_server_ends_is_503_and_the_next_request_is_served(
    server: LiveServer, refusing: psycopg.Connection
) -> None:
    """Before: 500; a restart or a failover of the server ends every pooled connection so."""
    key = server.create_persona("rin")
    _refuse(refusing, "PERFORM pg_terminate_backend(pg_backend_pid());")
    with server.client(key) as rin:
        reply = _add(rin)
        assert reply.status_code == 503, reply.text
        error = reply.json()["error"]
        assert error["code"] == "storage_unavailable"
        assert "was lost" in error["message"] and "send it again" in error["message"]
        assert reply.headers.get("Retry-After") == "1"
        _served_again(rin, refusing)


def test_an_mcp_tool_meeting_a_refusal_is_a_tool_error_naming_it(
    server: LiveServer, refusing: psycopg.Connection
) -> None:
    """Through the MCP SDK's own client: before, the tool call failed as an internal error."""
    key = server.create_persona("rin")
    _refuse(refusing, "RAISE EXCEPTION 'could not serialize' USING ERRCODE = '40001';")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            message = await tool_error(client, "memory_create", content="The user keeps bees.")
            assert "conflicted with a concurrent one" in message
            assert "could not serialize" in message and "send it again" in message
            refusing.execute(_DROP)
            await ok(client, "memory_create", content="The user keeps bees.")

    anyio.run(scenario)
