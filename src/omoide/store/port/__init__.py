"""The storage port: what services, jobs, the API and the CLI may ask of a store.

Each :class:`typing.Protocol` here describes the methods the SQLite adapter
(:mod:`omoide.store.sqlite`) already has, under the same names and signatures, so any adapter
that has them (PostgreSQL next) can be wired in :mod:`omoide.wiring` without touching a
service. Only :mod:`omoide.wiring` names an adapter; everything above it names these.

The transaction boundary: every write method of a handle is one transaction. Work that must
commit with it (queueing the job the write causes) is given as a callback that receives a
:class:`UnitOfWork` — the open transaction — never a driver connection.

This is the port's public face: other layers import ``omoide.store.port``, never a module in
it. The protocols live by concern: ``work`` (the open transaction), ``memories`` and
``sessions`` (the two tiers of one persona), ``context`` (blocks and state), ``keys``,
``store`` (the top level), ``transfer`` (export and import), ``jobs``, ``overview`` (the
dashboard's reads) and ``vector_models`` (reindexing).
"""

from omoide.store.port.context import BlockHandle, StateHandle
from omoide.store.port.jobs import JobQueue
from omoide.store.port.keys import ApiKeyStore, KeyHandle
from omoide.store.port.memories import MemoryHandle, VectorSearch
from omoide.store.port.overview import OverviewReads
from omoide.store.port.sessions import SessionHandle, SessionMetaHandle
from omoide.store.port.store import PersonaStore, Store
from omoide.store.port.transfer import PersonaDumpHandle, PersonaRestoreHandle, TransferStore
from omoide.store.port.vector_models import VectorModelStore, VectorTableRef
from omoide.store.port.work import UnitOfWork

__all__ = [
    "ApiKeyStore",
    "BlockHandle",
    "JobQueue",
    "KeyHandle",
    "MemoryHandle",
    "OverviewReads",
    "PersonaDumpHandle",
    "PersonaRestoreHandle",
    "PersonaStore",
    "SessionHandle",
    "SessionMetaHandle",
    "StateHandle",
    "Store",
    "TransferStore",
    "UnitOfWork",
    "VectorModelStore",
    "VectorSearch",
    "VectorTableRef",
]
