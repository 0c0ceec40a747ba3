"""The composition root: the only place that turns :class:`Settings` into real adapters.

It is the one package outside :mod:`omoide.store` that names the SQLite adapter (in
``storage``); services, jobs, the API and the CLI see only the storage port
(:mod:`omoide.store.port`).

The HTTP app, the MCP server and the CLI all call :func:`build`; tests call it with a temporary
data folder, a fixed clock and a small embedder. The package wires, by what it wires:
``storage`` (the database, its store and job queue, the folder's lock, the commands that copy a
database), ``embedders`` (the server's embedder, the bundled models, the search companion),
``engines`` (the LLM or offline classifier, consolidator and segmenter of a persona) and
``app`` (:class:`Omoide` and :func:`build`, which puts the services together). Code outside
imports ``omoide.wiring``.
"""

from omoide.wiring.app import Omoide, build
from omoide.wiring.embedders import build_embedder, bundled_embedder, companion_name
from omoide.wiring.storage import (
    backup_database,
    copy_folder_to_database,
    hold_folder,
    refuse_export_over,
    refuse_over_data_folder,
    restore_database,
    vectors_holder,
)

__all__ = [
    "Omoide",
    "backup_database",
    "build",
    "build_embedder",
    "bundled_embedder",
    "companion_name",
    "copy_folder_to_database",
    "hold_folder",
    "refuse_export_over",
    "refuse_over_data_folder",
    "restore_database",
    "vectors_holder",
]
