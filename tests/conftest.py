"""Shared fixtures: small and real. A temp data folder, a fixed clock, the deterministic hash
embedder, a wired app, and a real uvicorn server on a free port for HTTP tests.

Every test that builds an app through these fixtures runs on both stores: ``store_kind`` is
``sqlite`` (the file in the data folder) or ``postgres`` (a fresh database on one PostgreSQL +
pgvector server started for the whole run by the ``pgserver`` wheel). A test about the SQLite
file itself is marked ``sqlite_only``, one about the PostgreSQL server itself
``postgres_only``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import settings
from llm_fakes import FakeAPI, running
from omoide_testing import (
    Holding,
    LiveServer,
    files_holding,
    migrated_copy,
    migrated_template,
    serve_in_thread,
)
from pg_testing import PgServer, rows_holding, start_pg_server
from tls_once import share_default_tls_context

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.wiring import Omoide, build

SHARED_BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

# Property tests assert behaviour, never speed (benchmarks measure time): no per-example
# deadline, which a shared, loaded machine would turn into random failures.
settings.register_profile("omoide", deadline=None)
settings.load_profile("omoide")

share_default_tls_context()  # one CA bundle read per run, not one per HTTP client


# The chat proxy tests' live servers (``chat_server``, tests/support/chat_proxy.py).
pytest_plugins = ["chat_proxy"]

STORES = ("sqlite", "postgres")


def _sqlite_only(metafunc: pytest.Metafunc) -> bool:
    """Marked so, or a browser test of the dashboard: it drives pages whose data comes through
    the services, which the HTTP tests already run on both stores (and a browser per store
    would double the slowest tests of the suite)."""
    return (
        bool(metafunc.definition.get_closest_marker("sqlite_only"))
        or "dashboard" in Path(str(metafunc.definition.path)).parts[-2:-1]
    )


# The longest test files, started first: `make test` gives each file to one worker (pytest-xdist,
# ``--dist loadfile``) in collection order, and one of these started last is the run's tail.
LONGEST_FIRST = (
    "test_schemathesis.py",
    "test_qa35_dashboard_sweep.py",
    "test_qa34_schema_sweep.py",
    "test_mcp_session_limits.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests of :data:`LONGEST_FIRST` to the front, in that order (the rest keep
    theirs): the order a file's tests run in is unchanged."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store_kind" in metafunc.fixturenames:
        if _sqlite_only(metafunc):
            kinds = ["sqlite"]
        elif metafunc.definition.get_closest_marker("postgres_only"):
            kinds = ["postgres"]
        else:
            kinds = list(STORES)
        metafunc.parametrize("store_kind", kinds, scope="function")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL 16+ with pgvector for the whole run (started on first use)."""
    server, folder = start_pg_server()
    yield server
    server.stop()
    folder.cleanup()


@pytest.fixture
def store_environ(store_kind: str, request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """The environment that selects the store: {} for SQLite, the URL of the (emptied) test
    database for PostgreSQL."""
    if store_kind == "sqlite":
        yield {}
        return
    server: PgServer = request.getfixturevalue("pg_server")
    yield {"OMOIDE_DATABASE_URL": server.emptied()}


@pytest.fixture
def holding(store_environ: dict[str, str], data_dir: Path) -> Holding:
    """Where a text is still stored: the data folder's files holding its bytes (SQLite), or
    the database's text columns holding it (PostgreSQL, whose erasure guarantee is rows: its
    WAL and backups keep old pages until they are recycled; docs/deploy.md)."""
    url = store_environ.get("OMOIDE_DATABASE_URL")
    if url is None:
        return lambda text: files_holding(data_dir, text)
    return lambda text: rows_holding(url, text)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(START)


@pytest.fixture
def embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database with every migration applied, made once per run: a test's new data
    folder starts as a copy of it (:func:`migrated_copy`) instead of running the migrations."""
    return migrated_template(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture
def make_app(
    data_dir: Path,
    clock: FixedClock,
    embedder: HashEmbedder,
    store_environ: dict[str, str],
    sqlite_template: Path,
) -> Iterator[Callable[..., Omoide]]:
    """Build a wired Omoide on the temp data folder (same folder and database on each call).
    A new SQLite folder starts from the migrated template: the same file the migrations would
    write, without running them for every test (tests/integration/test_migrations.py runs them)."""
    built: list[Omoide] = []

    def make(environ: dict[str, str] | None = None, **kwargs: object) -> Omoide:
        settings = Settings.from_env({**store_environ, **(environ or {})}, data_dir=data_dir)
        if not settings.database_url:
            migrated_copy(sqlite_template, settings.db_path)
        kwargs.setdefault("embedder", embedder)
        kwargs.setdefault("clock", clock)
        kwargs.setdefault("llm", None)
        app = build(settings, **kwargs)  # type: ignore[arg-type]
        built.append(app)
        return app

    yield make
    for app in built:
        app.close()


@pytest.fixture
def app(make_app: Callable[..., Omoide]) -> Omoide:
    return make_app()


@pytest.fixture
def persona(app: Omoide) -> str:
    app.auth.create_persona("rin")
    return "rin"


@pytest.fixture
def fake_api() -> Iterator[FakeAPI]:
    """A local HTTP server that speaks the OpenAI and Anthropic APIs, scripted per test."""
    with running(FakeAPI()) as fake:
        yield fake


@pytest.fixture
def server(app: Omoide, data_dir: Path) -> Iterator[LiveServer]:
    yield from _served(app, data_dir)


@pytest.fixture
def held_server(make_app: Callable[..., Omoide], data_dir: Path) -> Iterator[LiveServer]:
    """A live server whose job workers do not run (``OMOIDE_WORKERS=0``): what a client gets
    before the background work is a state a test controls; ``omoide.runner.run_until_idle()``
    then runs it. The scheduler still ticks on ``runner.tick_now()``."""
    yield from _served(make_app({"OMOIDE_WORKERS": "0"}), data_dir)


def _served(app: Omoide, data_dir: Path) -> Iterator[LiveServer]:
    """``app`` served over real HTTP on a free port, with the tests' admin key."""
    from omoide.api.http.app import create_app

    admin_key = "omo_admin_test-key"
    app.auth.ensure_admin_key(data_dir, admin_key)
    uv, thread, url = serve_in_thread(create_app(app))
    yield LiveServer(url=url, admin_key=admin_key, omoide=app)
    uv.should_exit = True
    thread.join(10)
