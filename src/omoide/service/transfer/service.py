"""The transfer service: export a persona as JSON Lines from one read snapshot, and import a
file in two passes (``scan``, then ``restore``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any, cast

from omoide.clock import Clock, iso
from omoide.config import kept_overrides
from omoide.embed.base import Embedder
from omoide.engine.errors import named
from omoide.engine.transfer_format import encode_line, end, header, moved_key
from omoide.errors import Conflict
from omoide.service.memories import MemoryService
from omoide.service.settings import SettingsService
from omoide.service.transfer.chains import check_persona_cycles
from omoide.service.transfer.records import Lines, as_imported
from omoide.service.transfer.restore import ImportReport, RestoreRun
from omoide.service.transfer.scan import (
    FileScan,
    check_moved_keys,
    check_named,
    check_outside,
    not_in_file,
    scan_file,
)
from omoide.service.transfer.sessions import check_present_sessions
from omoide.store.port import Store, TransferStore

__all__ = ["Progress", "TransferService", "supports_transfer"]

logger = logging.getLogger(__name__)

Progress = Callable[[int], None]


class TransferService:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        clock: Clock,
        settings: SettingsService,
        memories: MemoryService,
        *,
        batch: int = 256,
        on_enqueue: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.settings = settings
        self.memories = memories
        self.batch = batch
        self.on_enqueue = on_enqueue

    # -- export --------------------------------------------------------------------------

    def _bulk(self) -> TransferStore:
        """The store's bulk dump/restore (both adapters have them)."""
        return cast(TransferStore, self.store)

    def export(self, persona: str, *, with_vectors: bool = False) -> Iterator[str]:
        """The persona as JSON Lines, header first (NotFound before the first line)."""
        dump = self._bulk().dump(persona)
        return self._lines(dump, persona, with_vectors)

    def _lines(self, dump: Any, persona: str, with_vectors: bool) -> Iterator[str]:
        records = 0
        for line in self._records(dump, persona, with_vectors):
            yield line
            records += 1
        yield encode_line("end", end(records - 1))  # the records after the header

    def _records(self, dump: Any, persona: str, with_vectors: bool) -> Iterator[str]:
        model = self.embedder.model_id
        with dump:
            yield encode_line(
                "header",
                header(
                    persona=persona,
                    model_id=model,
                    dim=self.embedder.dim,
                    exported_at=iso(self.clock.now()),
                    with_vectors=with_vectors,
                ),
            )
            # the overrides that still apply (config.kept_overrides): a retired or invalid one
            # made the file one no import takes
            yield encode_line("settings", {"overrides": kept_overrides(dump.settings())})
            for block in dump.blocks():
                yield encode_line("block", block)
            for row in dump.state():
                yield encode_line("state", row)
            for kind, record in dump.sessions(with_vectors=with_vectors):
                yield encode_line(kind, record, model_id=model)
            for record in dump.memories(with_vectors=with_vectors):
                yield encode_line("memory", record, model_id=model)
            for link in dump.links():
                yield encode_line("link", link)

    # -- import --------------------------------------------------------------------------

    def _scan(self, lines: Lines) -> FileScan:
        return scan_file(
            lines,
            now=self.clock.now(),
            max_content_chars=self.memories.max_content_chars,
            embedder=self.embedder,
        )

    def count_to_embed(self, lines: Lines) -> int:
        """How many texts an import of the file embeds (for a progress bar's length)."""
        return self._scan(lines).to_embed

    def import_lines(
        self,
        persona: str,
        lines: Lines,
        *,
        merge: bool = False,
        on_progress: Progress | None = None,
    ) -> ImportReport:
        restore = self._bulk().restore(persona)
        scan = self._scan(lines)
        existing = restore.existing()
        keys = {k: moved_key(persona, k) for k in restore.keys_elsewhere(scan.memory_keys)}
        check_moved_keys(scan, keys, persona)
        check_named(scan, restore)
        chains = check_persona_cycles(scan.chains, existing, keys, persona)
        check_outside(scan, existing.session_ids, persona)
        check_present_sessions(restore, persona, scan.sessions.sessions, existing.session_ids)
        # a stored state row is the file's row when it reads as the import reads the file's
        # (its control characters as spaces): an own export of values stored before controls
        # were refused, imported back, finds them there (it was a 409, or with merge a second,
        # empty row beside each)
        held = {as_imported(row) for row in existing.state_rows} & scan.state_rows
        if not merge and not existing.empty:
            foreign = not_in_file(existing, scan, keys)
            if foreign:
                raise Conflict(
                    f"persona {named(persona)} already holds data that is not in this "
                    f"file ({foreign}); import into an empty persona, or merge "
                    "with --merge (HTTP: ?merge=true), which adds the file's "
                    "records to what the persona holds",
                    persona=persona,
                )
        report = RestoreRun(
            self, restore, scan, keys, merge, on_progress, held - set(existing.state_rows), chains
        ).run(lines)
        if self.on_enqueue is not None:
            self.on_enqueue()
        logger.info("import persona=%s %s", persona, report.as_dict())
        return report


def supports_transfer(store: Any) -> bool:
    """Whether the store has the bulk dump/restore adapters (SQLite's and PostgreSQL's do)."""
    return callable(getattr(store, "dump", None)) and callable(getattr(store, "restore", None))
