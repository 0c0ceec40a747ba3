"""A request that can have no PostgreSQL connection is a 503 ``storage_unavailable`` naming why,
with ``Retry-After``, after the pool's bounded wait (``OMOIDE_PG_POOL_WAIT``), not a 500 after
psycopg_pool's fixed 60 s (its ``PoolTimeout``); once the cause is gone the next request is
served.

Real on this server: every connection of a pool of one held for the whole wait (the server
accepts connections: the cause is the pool), and the server refusing every new connection with
SQLSTATE 53300 ``too_many_connections`` (the database's ``CONNECTION LIMIT`` at 0, the refusal a
full ``max_connections`` gives too; the app's open connections ended by
``pg_terminate_backend``), and a server of the test's own stopped under the running app."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import httpx
import psycopg
import pytest
from omoide_testing import LiveServer, serve_in_thread
from pg_testing import PgServer, start_pg_server

from omoide.wiring import Omoide

pytestmark = pytest.mark.postgres_only

WAIT = "1"  # OMOIDE_PG_POOL_WAIT: seconds


def _live(app: Omoide) -> Iterator[LiveServer]:
    from omoide.api.http.app import create_app

    admin_key = "omo_admin_test-key"
    app.auth.ensure_admin_key(app.settings.data_dir, admin_key)
    uv, thread, url = serve_in_thread(create_app(app))
    yield LiveServer(url=url, admin_key=admin_key, omoide=app)
    uv.should_exit = True
    thread.join(10)


def _served_until_ok(client: httpx.Client, path: str, within_s: float = 30.0) -> None:
    """The pool opens connections again on its own (with its back-off): served soon."""
    deadline = time.monotonic() + within_s
    while (reply := client.get(path)).status_code != 200:
        assert reply.status_code == 503, reply.text
        assert time.monotonic() < deadline, reply.text
        time.sleep(0.5)


@pytest.fixture
def pool_of_one(make_app: Callable[..., Omoide]) -> Iterator[LiveServer]:
    environ = {"OMOIDE_WORKERS": "0", "OMOIDE_PG_POOL_SIZE": "1", "OMOIDE_PG_POOL_WAIT": WAIT}
    yield from _live(make_app(environ))


def test_a_pool_whose_connections_stay_busy_is_503_after_the_wait(pool_of_one: LiveServer) -> None:
    """Before: 500 ``internal_error`` (psycopg_pool.PoolTimeout) after 60 s."""
    key = pool_of_one.create_persona("rin")
    pool = pool_of_one.omoide.store.db.pool  # type: ignore[attr-defined]
    with pool_of_one.client(key) as rin:
        assert rin.get("/api/memories/rin").status_code == 200
        with pool.connection():  # the pool's only connection, in use meanwhile
            started = time.monotonic()
            reply = rin.post("/api/memories/rin", json={"content": "The user keeps bees."})
            took = time.monotonic() - started
        assert reply.status_code == 503, reply.text
        assert 1 <= took < 10, took
        assert reply.headers["Retry-After"] == "1"
        error = reply.json()["error"]
        assert error["code"] == "storage_unavailable"
        assert error["message"].startswith("all 1 connections to the PostgreSQL database ")
        assert (
            "stayed in use for 1 s (OMOIDE_PG_POOL_SIZE, OMOIDE_PG_POOL_WAIT)" in (error["message"])
        )
        assert "nothing of this request was stored" in error["message"]
        assert rin.get("/api/memories/rin").json()["memories"] == []
        assert rin.post("/api/memories/rin", json={"content": "Bees."}).status_code == 201


@pytest.fixture
def own_database(pg_server: PgServer) -> Iterator[str]:
    """A database of the test's own (its connection limit is changed): its name."""
    name = pg_server.new_database()
    try:
        yield name
    finally:
        pg_server.drop_database(name)


def test_a_server_refusing_connections_is_503_naming_its_refusal(
    make_app: Callable[..., Omoide], pg_server: PgServer, own_database: str
) -> None:
    """Before: 500 ``internal_error`` (psycopg_pool.PoolTimeout) after 60 s, the server's
    refusal only in the log's warnings."""
    environ = {
        "OMOIDE_DATABASE_URL": pg_server.url(own_database),
        "OMOIDE_WORKERS": "0",
        "OMOIDE_PG_POOL_WAIT": WAIT,
    }
    server = next(served := _live(make_app(environ)))
    try:
        key = server.create_persona("rin")
        with (
            server.client(key) as rin,
            psycopg.connect(pg_server.admin_url, autocommit=True) as admin,
        ):
            admin.execute(f"ALTER DATABASE {own_database} CONNECTION LIMIT 0")
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (own_database,),
            )
            replies = [rin.get("/api/memories/rin") for _ in range(3)]
            # a connection the server ended is lost first (test_qa37_pg_refusals_api.py)
            refused = [r for r in replies if "cannot be connected to" in r.text]
            assert refused, [r.text for r in replies]
            assert all(r.status_code == 503 for r in replies), [r.text for r in replies]
            reply = refused[0]
            assert reply.headers["Retry-After"] == "5"
            error = reply.json()["error"]
            assert error["code"] == "storage_unavailable"
            assert error["message"].startswith(
                f"the PostgreSQL database '{own_database}' cannot be connected to "
                f'(too many connections for database "{own_database}")'
            )
            assert "CONNECTION LIMIT" in error["message"]
            admin.execute(f"ALTER DATABASE {own_database} CONNECTION LIMIT -1")
            _served_until_ok(rin, "/api/memories/rin")
    finally:
        next(served, None)


def test_a_server_that_is_down_is_503_naming_the_failed_connection(
    make_app: Callable[..., Omoide],
) -> None:
    """Before: 500 ``internal_error`` after 60 s."""
    own, folder = start_pg_server()  # stopped by the test: not the run's shared server
    try:
        environ = {
            "OMOIDE_DATABASE_URL": own.url(own.new_database()),
            "OMOIDE_WORKERS": "0",
            "OMOIDE_PG_POOL_WAIT": WAIT,
        }
        server = next(served := _live(make_app(environ)))
        key = server.create_persona("rin")
        own.stop()
        with server.client(key) as rin:
            replies = [rin.get("/api/memories/rin") for _ in range(3)]
            health = rin.get("/health")
        assert health.status_code == 503, health.text
        assert health.json()["error"]["code"] == "storage_unavailable"
        assert all(r.status_code == 503 for r in replies), [r.text for r in replies]
        refused = [r for r in replies if "cannot be connected to" in r.text]
        assert refused, [r.text for r in replies]
        assert refused[0].headers["Retry-After"] == "5"
        message = refused[0].json()["error"]["message"]
        assert "cannot be connected to (connection to server on socket " in message
        assert "check that the server runs and accepts connections" in message
        next(served, None)
    finally:
        folder.cleanup()


def test_health_with_the_server_down_is_a_prompt_503_that_holds_no_other_request(
    make_app: Callable[..., Omoide],
) -> None:
    """/health with the database down answers its 503 after its own short wait, whatever
    ``OMOIDE_PG_POOL_WAIT`` requests are given, and off the event loop: another request is
    served meanwhile.

    Before: the check ran on the event loop and waited for the pool's whole wait (here 10 s)
    and the probe's connection attempt, holding every other request of the process."""
    own, folder = start_pg_server()  # stopped by the test: not the run's shared server
    try:
        environ = {
            "OMOIDE_DATABASE_URL": own.url(own.new_database()),
            "OMOIDE_WORKERS": "0",
            "OMOIDE_PG_POOL_WAIT": "10",
        }
        server = next(served := _live(make_app(environ)))
        with httpx.Client(base_url=server.url, timeout=60) as client:
            assert client.get("/openapi.json").status_code == 200  # built once, then kept
        own.stop()
        with httpx.Client(base_url=server.url, timeout=60) as client:
            # the pool's open connections are found lost at once; then a check waits for one
            while "cannot be connected to" not in (lost := client.get("/health")).text:
                assert "was lost" in lost.text, lost.text
        replies: dict[str, httpx.Response] = {}
        took: dict[str, float] = {}

        def check() -> None:
            started = time.monotonic()
            with httpx.Client(base_url=server.url, timeout=60) as client:
                replies["health"] = client.get("/health")
            took["health"] = time.monotonic() - started

        checking = threading.Thread(target=check)
        checking.start()
        time.sleep(0.3)  # the check is waiting for a connection meanwhile
        started = time.monotonic()
        with httpx.Client(base_url=server.url, timeout=60) as client:
            other = client.get("/openapi.json")
        took["other"] = time.monotonic() - started
        assert other.status_code == 200, other.text
        assert took["other"] < 0.5, took
        assert checking.is_alive(), (took, replies["health"].text)  # served while it waited
        checking.join(30)
        health = replies["health"]
        assert health.status_code == 503, health.text
        assert health.json()["error"]["code"] == "storage_unavailable"
        assert "cannot be connected to" in health.json()["error"]["message"]
        assert took["health"] < 5, took
        next(served, None)
    finally:
        folder.cleanup()
