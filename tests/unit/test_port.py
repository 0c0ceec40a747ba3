"""Each adapter has every method of the storage port, with the port's parameters.

Services are typed on :mod:`omoide.store.port`; this checks that what they are given in
:mod:`omoide.wiring` really has those methods (names, parameter names and kinds, defaults), so a
Protocol drifting from its adapter fails here rather than in a service at run time. Any other
adapter is checked by adding its classes to ``PAIRS``.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from omoide.store import port
from omoide.store.postgres.jobs import PgJobStore
from omoide.store.postgres.memories import PgMemoryStore
from omoide.store.postgres.sessions import PgSessionStore
from omoide.store.postgres.store import PostgresStore
from omoide.store.postgres.transfer import PgPersonaDump, PgPersonaRestore
from omoide.store.sqlite.blocks import BlockStore
from omoide.store.sqlite.jobs import JobStore
from omoide.store.sqlite.keys import KeyStore
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.overview import OverviewStore
from omoide.store.sqlite.sessions import SessionStore
from omoide.store.sqlite.sessions_meta import SessionMetaStore
from omoide.store.sqlite.state import StateStore
from omoide.store.sqlite.store import SqliteStore
from omoide.store.sqlite.transfer_dump import PersonaDump
from omoide.store.sqlite.transfer_restore import PersonaRestore
from omoide.store.sqlite.unit_of_work import SqliteUnitOfWork
from omoide.store.sqlite.vector_models import VectorModels
from omoide.store.vectors import VectorIndex

PAIRS: list[tuple[type, type]] = [
    (port.Store, SqliteStore),
    (port.MemoryHandle, MemoryStore),
    (port.SessionHandle, SessionStore),
    (port.SessionMetaHandle, SessionMetaStore),
    (port.BlockHandle, BlockStore),
    (port.StateHandle, StateStore),
    (port.JobQueue, JobStore),
    (port.KeyHandle, KeyStore),
    (port.OverviewReads, OverviewStore),
    (port.VectorModelStore, VectorModels),
    (port.UnitOfWork, SqliteUnitOfWork),
    (port.VectorSearch, VectorIndex),
    (port.TransferStore, SqliteStore),
    (port.PersonaDumpHandle, PersonaDump),
    (port.PersonaRestoreHandle, PersonaRestore),
    # The PostgreSQL adapter (its other handles are the SQLite classes on PgDatabase).
    (port.Store, PostgresStore),
    (port.MemoryHandle, PgMemoryStore),
    (port.SessionHandle, PgSessionStore),
    (port.JobQueue, PgJobStore),
    (port.TransferStore, PostgresStore),
    (port.PersonaDumpHandle, PgPersonaDump),
    (port.PersonaRestoreHandle, PgPersonaRestore),
]


def _members(protocol: type) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for klass in reversed(protocol.__mro__):
        if klass in (object,) or klass.__module__ == "typing":
            continue
        for name, value in vars(klass).items():
            if not name.startswith("_") and (callable(value) or isinstance(value, property)):
                found[name] = value
    return found


def _params(fn: Any) -> list[tuple[str, Any, bool]]:
    return [
        (p.name, p.kind, p.default is inspect.Parameter.empty)
        for p in inspect.signature(fn).parameters.values()
        if p.name != "self"
    ]


@pytest.mark.parametrize(("protocol", "adapter"), PAIRS, ids=lambda c: c.__name__)
def test_adapter_has_the_ports_methods(protocol: type, adapter: type) -> None:
    members = _members(protocol)
    assert members, protocol
    for name, declared in members.items():
        assert hasattr(adapter, name), f"{adapter.__name__} lacks {name}"
        actual = getattr(adapter, name)
        if isinstance(declared, property):
            assert isinstance(actual, property), f"{adapter.__name__}.{name} is no property"
            continue
        assert _params(actual) == _params(declared), f"{adapter.__name__}.{name}"


def test_the_wired_app_uses_the_adapter_through_the_port(app: Any, persona: str) -> None:
    """Handles keep their identity attributes (services read ``persona_id`` from them)."""
    memories = app.store.memories(persona)
    sessions = app.store.sessions(persona)
    assert memories.persona == sessions.persona == persona
    assert memories.persona_id == sessions.persona_id == app.store.get_persona(persona).id
    app.maintenance.health()
    assert [p.name for p in app.maintenance.personas()] == [persona]
