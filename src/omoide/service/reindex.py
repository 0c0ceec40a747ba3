"""Embedder safety: one embedding model per data folder, and ``omoide reindex`` to change it.

Cosine similarity between vectors of two models means nothing, so a folder records the model
(id and dimension) its vectors come from. Opening it with another model is refused with a
message naming both (:func:`check_embedder`); :class:`ReindexService` re-embeds memories,
session events and episodes with the configured model and then records it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from omoide.clock import Clock
from omoide.embed.base import Embedder
from omoide.engine.attachments import turn_text
from omoide.engine.counts import how_many
from omoide.engine.errors import named
from omoide.errors import EmbedderMismatch, InvalidInput
from omoide.model import StaleRow
from omoide.service.passages import EPISODE_EMBED_CHARS, turn_passage
from omoide.store.port import Store, VectorModelStore, VectorTableRef

__all__ = ["FOLDER", "Holder", "ReindexPlan", "ReindexService", "check_embedder"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Holder:
    """What holds the vectors, as a refusal names it: ``place`` in full ("this data folder",
    "the PostgreSQL database 'omoide'"), ``short`` when named again ("the folder")."""

    place: str
    short: str


FOLDER = Holder("this data folder", "the folder")


def _mismatch(found: list[str], embedder: Embedder, holder: Holder) -> EmbedderMismatch:
    made_by = " and ".join(found)
    return EmbedderMismatch(
        f"the vectors in {holder.place} were made by {made_by}, but the configured embedder is "
        f"{embedder.model_id} ({embedder.dim} dimensions). Run `omoide reindex` with the new "
        "embedder configured to re-embed every persona (stop the server first), or configure "
        f"the embedder {holder.short} was made with (OMOIDE_EMBEDDER).",
        configured=embedder.model_id,
        recorded=found,
    )


def _recorded_only(made_by: str, embedder: Embedder, holder: Holder) -> EmbedderMismatch:
    """The folder records another embedder but holds no vector yet (a first command run with
    another OMOIDE_EMBEDDER recorded it): nothing was made by it, and a reindex is instant."""
    return EmbedderMismatch(
        f"{holder.place} records the embedder {made_by} but holds no vectors yet, and the "
        f"configured embedder is {embedder.model_id} ({embedder.dim} dimensions). Configure "
        "the one it records (OMOIDE_EMBEDDER), or run `omoide reindex` with the new one "
        "configured: with nothing to re-embed, it only records it.",
        configured=embedder.model_id,
        recorded=[made_by],
    )


def _mixed(counts: dict[str, int], embedder: Embedder, holder: Holder) -> EmbedderMismatch:
    """The folder records the configured embedder, but some vectors come from another model
    (written under the record, e.g. by a server left running through an earlier reindex, before
    the folder lock existed): their similarities would be compared with the others'."""
    others = sorted(m for m in counts if m != embedder.model_id)
    made_by = " and ".join(f"{counts[m]} by {m}" for m in others)
    return EmbedderMismatch(
        f"the vectors in {holder.place} come from more than one embedder: "
        f"{counts.get(embedder.model_id, 0)} were made by {embedder.model_id} (the one it "
        f"records and the one configured), but {made_by}. Run `omoide reindex` "
        f"(stop the server first) to re-embed them with {embedder.model_id}; a search would "
        "otherwise compare vectors of two models.",
        configured=embedder.model_id,
        recorded=[embedder.model_id, *others],
    )


def check_embedder(
    models: VectorModelStore, embedder: Embedder, clock: Clock, holder: Holder = FOLDER
) -> None:
    """Refuse (EmbedderMismatch) a folder (or database: ``holder`` names it) whose vectors come
    from another model.

    A folder with a record must match it (model id and dimension), and hold no vector of
    another model (written under the record by two embedders: index seeks, migration 21). A
    folder without one (new, or made before the record existed) gets the configured embedder
    recorded, unless a stored vector carries another model id.
    """
    recorded = models.recorded()
    if recorded is not None:
        if (recorded.model_id, recorded.dim) != (embedder.model_id, embedder.dim):
            made_by = f"{recorded.model_id} ({recorded.dim} dimensions)"
            if not models.stored_models():  # a scan, on this refusal only
                raise _recorded_only(made_by, embedder, holder)
            raise _mismatch([made_by], embedder, holder)
        if models.other_models(recorded.model_id):
            raise _mixed(models.stored_models(), embedder, holder)
        return
    others = sorted(m for m in models.stored_models() if m != embedder.model_id)
    if others:
        raise _mismatch(others, embedder, holder)
    models.record(embedder.model_id, embedder.dim, now=clock.now())
    logger.info(
        "%s records embedder %s (%d dimensions)", holder.place, embedder.model_id, embedder.dim
    )


def passage(spec: VectorTableRef, row: StaleRow) -> str:
    """The text a row was embedded from, exactly as ingestion embeds it."""
    if spec.name == "events":
        return turn_passage(row.speaker, turn_text(row.content, row.metadata))
    if spec.name == "episodes":
        return row.content[:EPISODE_EMBED_CHARS]
    return row.content


@dataclass(frozen=True)
class _Work:
    persona: str
    persona_id: int
    spec: VectorTableRef
    rows: list[StaleRow]


@dataclass
class ReindexPlan:
    """What a reindex will re-embed: rows per persona and table."""

    personas: list[str]
    work: list[_Work] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(len(w.rows) for w in self.work)

    def count(self, name: str) -> int:
        """Rows to re-embed in one table kind: "memories", "events" or "episodes"."""
        return sum(len(w.rows) for w in self.work if w.spec.name == name)


@dataclass(frozen=True)
class ReindexReport:
    reembedded: int
    recorded: bool  # the configured embedder is now the folder's
    remaining: dict[str, int]  # other models' vectors still stored (other personas)


class ReindexService:
    def __init__(
        self, store: Store, models: VectorModelStore, embedder: Embedder, clock: Clock
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.models = models

    def plan(self, persona: str | None = None, *, holder: Holder = FOLDER) -> ReindexPlan:
        """The rows of ``persona`` (or of every persona) whose vectors are not the configured
        model's. NotFound for an unknown persona; EmbedderMismatch for one persona when the
        configured embedder is not the one ``holder`` records (:func:`_one_persona_refused`)."""
        personas = (
            [self.store.get_persona(persona)] if persona is not None else self.store.list_personas()
        )
        if persona is not None:
            self._one_persona_refused(persona, holder)
        plan = ReindexPlan(personas=[p.name for p in personas])
        for p in personas:
            for spec in self.models.tables:
                rows = self.models.stale(spec, p.id, self.embedder.model_id)
                if rows:
                    plan.work.append(_Work(p.name, p.id, spec, rows))
        return plan

    def _one_persona_refused(self, persona: str, holder: Holder) -> None:
        """Trigger: one persona's reindex with another embedder than the recorded one. Why: it
        left the other personas' vectors of the old model beside the new ones, a folder that
        neither embedder could open until every persona was re-embedded. Outcome: refused
        before anything is re-embedded; one persona is reindexed while the embedder is the
        recorded one (vectors of another model written under the record), or when no other
        persona holds a vector to re-embed (a folder of one persona: nothing is left behind,
        and the run records the new embedder)."""
        recorded = self.models.recorded()
        configured = (self.embedder.model_id, self.embedder.dim)
        if recorded is None or (recorded.model_id, recorded.dim) == configured:
            return
        others = (p for p in self.store.list_personas() if p.name != persona)
        if not any(
            self.models.stale(spec, p.id, self.embedder.model_id)
            for p in others
            for spec in self.models.tables
        ):
            return
        made_by = f"{recorded.model_id} ({recorded.dim} dimensions)"
        raise EmbedderMismatch(
            f"{holder.place} records the embedder {made_by} and the configured one is "
            f"{self.embedder.model_id} ({self.embedder.dim} dimensions): re-embedding persona "
            f"{named(persona)} alone would leave the other personas' vectors of the old model, and "
            f"{holder.short} usable by neither embedder; run `omoide reindex` without -p to "
            "re-embed every persona (stop the server first)",
            configured=self.embedder.model_id,
            recorded=[made_by],
        )

    def run(
        self,
        plan: ReindexPlan,
        *,
        batch: int = 64,
        on_progress: Callable[[int], None] | None = None,
    ) -> ReindexReport:
        """Re-embed the plan's rows in batches (each batch one transaction, so an interrupted
        run resumes where it stopped), then record the configured embedder if no vector of
        another model is left in the folder. ``on_progress(n)`` after each batch of n rows."""
        if batch < 1:  # 0 stopped range() with a traceback; below, nothing ran and all "done"
            raise InvalidInput(f"batch must be at least 1, got {batch}", field="batch")
        done = 0
        for work in plan.work:
            for start in range(0, len(work.rows), batch):
                chunk = work.rows[start : start + batch]
                vectors = self.embedder.embed_passages([passage(work.spec, r) for r in chunk])
                self.models.save(
                    work.spec,
                    work.persona_id,
                    [r.id for r in chunk],
                    vectors,
                    model_id=self.embedder.model_id,
                )
                done += len(chunk)
                if on_progress is not None:
                    on_progress(len(chunk))
        remaining = {
            m: n for m, n in self.models.stored_models().items() if m != self.embedder.model_id
        }
        if not remaining:
            self.models.record(self.embedder.model_id, self.embedder.dim, now=self.clock.now())
        logger.info(
            "reindex: %s re-embedded with %s%s",
            how_many(done, "vector"),
            self.embedder.model_id,
            "" if not remaining else f"; {sum(remaining.values()):,} of other models left",
        )
        return ReindexReport(reembedded=done, recorded=not remaining, remaining=remaining)
