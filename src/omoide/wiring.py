"""The composition root: the only place that turns :class:`Settings` into real adapters.

It is the one module outside :mod:`omoide.store` that names the SQLite adapter; services, jobs,
the API and the CLI see only the storage port (:mod:`omoide.store.port`).

The HTTP app, the MCP server and the CLI all call :func:`build`; tests call it with a temporary
data folder, a fixed clock and a small embedder.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from omoide.clock import Clock, SystemClock
from omoide.config import PersonaSettings, Settings
from omoide.embed import Embedder, fair, make_embedder, make_fair_embedder
from omoide.engine.classify import Classifier
from omoide.engine.consolidate import Consolidator
from omoide.engine.segment import OfflineSegmenter, Segmenter
from omoide.errors import InvalidInput
from omoide.jobs import JobRunner
from omoide.model import Job
from omoide.service.auth import AuthService
from omoide.service.blocks import BlockService
from omoide.service.chat import ChatService
from omoide.service.chat_summary import Compressor
from omoide.service.classify_judge import judge_embedder_name, offline_classifier_for
from omoide.service.companion import Companion
from omoide.service.context import ContextService
from omoide.service.dedup import DedupDecider
from omoide.service.episodes import EpisodeSearch
from omoide.service.evolution import EvolutionService
from omoide.service.forget import ForgetService
from omoide.service.maintenance import DECAY_JOB, MaintenanceService
from omoide.service.memories import EVOLVE_JOB, MemoryService
from omoide.service.overview import OverviewService
from omoide.service.peer_import import PeerImportService
from omoide.service.queue import QueueService
from omoide.service.reindex import FOLDER, Holder, ReindexService, check_embedder
from omoide.service.search import SearchService
from omoide.service.sessions import CONSOLIDATE_JOB, SEGMENT_JOB, SessionService
from omoide.service.settings import SettingsService
from omoide.service.state import StateService
from omoide.service.transfer import TransferService
from omoide.service.vector_cache import VectorCache
from omoide.store.port import JobQueue, Store
from omoide.store.sqlite.jobs import JobStore
from omoide.store.sqlite.overview import OverviewStore
from omoide.store.sqlite.store import SqliteStore
from omoide.store.sqlite.vector_models import VectorModels

__all__ = [
    "DECAY_JOB",
    "Omoide",
    "backup_database",
    "build",
    "build_embedder",
    "bundled_embedder",
    "restore_database",
    "vectors_holder",
]

logger = logging.getLogger(__name__)


@dataclass
class Omoide:
    """Everything a running server needs, wired once."""

    settings: Settings
    clock: Clock
    embedder: Embedder
    store: Store
    jobs: JobQueue
    runner: JobRunner
    settings_service: SettingsService
    auth: AuthService
    memories: MemoryService
    search: SearchService
    evolution: EvolutionService
    state: StateService
    blocks: BlockService
    context: ContextService
    sessions: SessionService
    forget: ForgetService
    queue: QueueService
    reindex: ReindexService
    chat: ChatService
    overview: OverviewService
    maintenance: MaintenanceService
    transfer: TransferService
    peers: PeerImportService
    llm: Any = None
    chat_upstream: Any = None  # llm.chat.ChatUpstream, or None without an LLM

    def close(self) -> None:
        self.runner.stop()
        self.auth.flush()  # key uses noted off the request path are written first
        self.store.close()

    def schedule_decay(self) -> int:
        return self.maintenance.schedule_decay()

    def warm_up(self) -> threading.Thread:
        """Load, on a thread of its own, the models the first search or write would otherwise
        load while a client waits (the server calls this as it starts): the search companion
        (``Companion.embedder``) and dedup's part embedder (``DedupDecider.load_parts``), each
        built on first use, then embed one query with each (its first inference). The bundled
        USE takes seconds to load (its tokenizer is parsed in Python); loaded here, it is
        ready by the time a client's first request comes, or that request waits on the model's
        own lock for the rest of the load instead of starting it. Nothing is cached and no
        result depends on it: each model is the one the request would have loaded."""
        thread = threading.Thread(target=self._warm, name="omoide-warm-up", daemon=True)
        thread.start()
        return thread

    def _warm(self) -> None:
        companion = self.search.companion
        loaders: list[Callable[[], Embedder | None]] = [
            (lambda: None) if companion is None else companion.embedder,
            self.memories.dedup.load_parts,
        ]
        for load in loaders:
            try:
                model = load()
                if model is not None:
                    model.embed_query("warm up")
            except Exception:  # the request that needs the model reports it
                logger.warning("warming a model up failed", exc_info=True)


def database_url(settings: Settings) -> str | None:
    """``OMOIDE_DATABASE_URL`` when set (a PostgreSQL database), else None (the SQLite file in
    the data folder)."""
    url = settings.database_url
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise InvalidInput("OMOIDE_DATABASE_URL must be a postgresql:// URL")
    return url


def vectors_holder(settings: Settings) -> Holder:
    """What holds the vectors, as the embedder's refusal and ``omoide reindex`` name it: the
    data folder, or the PostgreSQL database (by its name; the URL may hold a password)."""
    url = database_url(settings)
    if url is None:
        return FOLDER
    from psycopg.conninfo import conninfo_to_dict

    name = conninfo_to_dict(url).get("dbname")
    shown = f"the PostgreSQL database {str(name)!r}" if name else "the PostgreSQL database"
    return Holder(shown, "the database")


def open_store(settings: Settings, embedder: Embedder) -> SqliteStore:
    """The store the settings name: SQLite by default, PostgreSQL for a database URL."""
    url = database_url(settings)
    if url is None:
        return SqliteStore(settings.db_path, model_id=embedder.model_id, dim=embedder.dim)
    try:
        from omoide.store.postgres.store import PostgresStore
    except ImportError as exc:  # psycopg is the optional extra omoide[postgres]
        raise InvalidInput(
            "OMOIDE_DATABASE_URL needs the PostgreSQL driver: pip install 'omoide[postgres]'"
        ) from exc
    return PostgresStore(
        url, model_id=embedder.model_id, dim=embedder.dim, ann_rows=settings.pg_ann_rows
    )


@contextlib.contextmanager
def hold_folder(settings: Settings, command: str, *, exclusive: bool = False) -> Iterator[None]:
    """Hold the data folder's lock (store/sqlite/folder_lock.py) inside the block for
    ``omoide <command>``: shared for a server or a command that writes (``serve``, ``mcp``,
    ``memory add``…), exclusive for ``reindex`` and ``restore``; none with a database URL,
    whose folder holds no data."""
    from omoide.store.sqlite.folder_lock import hold_exclusive, hold_shared

    if database_url(settings) is not None:
        yield
        return
    handle = (hold_exclusive if exclusive else hold_shared)(settings.data_dir, command)
    try:
        yield
    finally:
        if handle is not None:
            handle.close()


def open_jobs(store: SqliteStore, settings: Settings) -> JobStore:
    """The job queue on the store's database (claims with ``SKIP LOCKED`` on PostgreSQL).

    Evolution runs one memory at a time per persona, in the order the memories were written:
    a new memory closes only the nearest older memory it contradicts, so moves posted together
    and evolved by several workers at once could otherwise each close a different one and leave
    two places current."""
    if database_url(settings) is None:
        return JobStore(store.db, lease_s=settings.job_lease_s, in_order=(EVOLVE_JOB,))
    from omoide.store.postgres.jobs import PgJobStore

    return PgJobStore(
        store.db,
        lease_s=settings.job_lease_s,  # type: ignore[arg-type]
        in_order=(EVOLVE_JOB,),
    )


def copy_folder_to_database(settings: Settings, url: str) -> dict[str, int]:
    """``omoide migrate``: copy the data folder's SQLite database into the PostgreSQL database
    at ``url`` (which must hold no persona); returns the rows copied per table."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise InvalidInput("--to must be a postgresql:// URL")
    try:
        from omoide.store.postgres.copy import copy_sqlite_to_postgres
    except ImportError as exc:
        raise InvalidInput(
            "migrating needs the PostgreSQL driver: pip install 'omoide[postgres]'"
        ) from exc
    return copy_sqlite_to_postgres(settings.db_path, url)


def _classifier_factory(llm: Any, offline: Classifier) -> Callable[[PersonaSettings], Classifier]:
    """Per persona: the LLM classifier (offline fallback) when configured, else offline."""

    def classifier_for(cfg: PersonaSettings) -> Classifier:
        if cfg.classifier == "offline" or llm is None:
            if cfg.classifier == "llm":
                logger.warning("classifier=llm but no LLM is configured; using the offline one")
            return offline
        from omoide.llm.classify import LLMClassifier

        return LLMClassifier(llm, fallback=offline, lang=cfg.language)

    return classifier_for


def _consolidator_factory(llm: Any) -> Callable[[PersonaSettings], Consolidator]:
    """The LLM consolidator (offline fallback) when an LLM is configured, else offline."""
    from omoide.engine.consolidate import OfflineConsolidator

    offline = OfflineConsolidator()
    if llm is None:
        return lambda cfg: offline
    from omoide.llm.consolidate import LLMConsolidator

    with_llm = LLMConsolidator(llm, fallback=offline)
    return lambda cfg: with_llm


def build_embedder(settings: Settings, *, fair_share: bool = False) -> Embedder:
    """The configured embedder, with the calibration ``omoide calibrate`` stored for an
    embedder Omoide does not ship; ``fair_share``: behind the server's fair scheduler
    (interactive calls ahead of background batches, ``embed/fair.py``)."""
    from omoide.embed.calibration_store import apply_stored_calibration

    maker = make_fair_embedder if fair_share else make_embedder
    embedder = maker(settings.embedder, threads=settings.embed_threads, **settings.embed_options)
    apply_stored_calibration(embedder, settings.data_dir)
    return embedder


def _segmenter_factory(llm: Any) -> Callable[[PersonaSettings], Segmenter]:
    """Per persona: the LLM segment judge (offline fallback) when ``segmenter`` asks for it and
    an LLM is configured, else the offline segmenter."""
    offline = OfflineSegmenter()
    with_llm: Segmenter | None = None
    if llm is not None:
        from omoide.llm.segment import LLMSegmentJudge

        with_llm = LLMSegmentJudge(llm)

    def segmenter_for(cfg: PersonaSettings) -> Segmenter:
        if cfg.segmenter == "offline" or with_llm is None:
            if cfg.segmenter == "llm":
                logger.warning("segmenter=llm but no LLM is configured; using the offline one")
            return offline
        return with_llm

    return segmenter_for


_BUNDLED_LOCK = threading.Lock()  # the write path and the evolve job may ask at the same moment


@cache
def _bundled_model(name: str, threads: int) -> Embedder:
    return make_embedder(name, threads=threads)


def bundled_embedder(name: str, threads: int = 1) -> Embedder:
    """The bundled embedder ``name`` with ``threads`` (dedup's part embedder USE; the 3-op
    judge's e5 on a server that searches with another model), built once per process and
    shared by every server the process wires: the two judges share one when they name the same
    model, and a process wiring several servers (tests, benchmarks) loads the model once, not
    once per server (seconds each). An embedder keeps nothing between calls and guards its
    model with its own lock, so sharing it changes no result."""
    with _BUNDLED_LOCK:
        return _bundled_model(name, threads)


def _bundled(embedder: Embedder, settings: Settings) -> Callable[[str], Embedder] | None:
    """Builds a bundled embedder by setting name (:func:`bundled_embedder`), or None for the
    model-free hashing embedder of tests and offline demos, which keeps the rules."""
    if embedder.model_id.startswith("hash-"):
        return None
    return lambda name: bundled_embedder(name, settings.embed_threads)


def _judge_embedder(bundled: Callable[[str], Embedder] | None) -> Callable[[], Embedder] | None:
    """How to build the learned judge's embedder (the packaged choice, e.g. USE) with the
    server's shared builder, or None when there is none (the hashing embedder keeps its
    rules) or the package names no judge embedder."""
    name = judge_embedder_name()
    if name is None or bundled is None:
        return None
    return lambda: bundled(name)


def companion_name(setting: str, model_id: str) -> str | None:
    """The bundled embedder search consults beside ``model_id`` (the server's): ``auto`` → USE
    beside e5, and none beside USE or any other embedder (the hashing one of tests, an external
    model); ``off`` → none; ``e5``/``use`` → that one unless it is the server's own.

    Measured by leave-one-set-out over five retrieval sets (``bench/results/search16.md``):
    USE beside e5 raised held-out MRR on every set (+0.011 to +0.047); e5 beside USE changed
    it by -0.004 to +0.004 (it pulls down USE's cross-lingual matches) and a cold search then
    embeds its candidates on e5 (~3 s on a loaded core), so ``auto`` leaves USE alone."""
    from omoide.embed.e5 import E5Embedder
    from omoide.embed.use import USEEmbedder

    own = {E5Embedder.model_id: "e5", USEEmbedder.model_id: "use"}.get(model_id)
    if setting == "off":
        return None
    if setting == "auto":
        return "use" if own == "e5" else None
    return None if setting == own else setting


def _companion(settings: Settings, embedder: Embedder, vectors: VectorCache) -> Companion | None:
    name = companion_name(settings.search_companion, embedder.model_id)
    if name is None:
        return None
    return Companion(name, lambda: bundled_embedder(name, settings.embed_threads), vectors=vectors)


def build(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    llm: Any = "from-env",
    check_embedder_record: bool = True,
    chat_upstream: Any = "from-env",
) -> Omoide:
    """Wire an :class:`Omoide` from settings. Workers are not started (call ``runner.start``).

    A folder whose vectors come from another embedder is refused (EmbedderMismatch) unless
    ``check_embedder_record`` is False: ``omoide reindex``, whose purpose is to change the
    model, and commands that never embed.
    """
    clock = clock or SystemClock()
    # Interactive calls (search, context, a new memory) never wait behind background batches.
    embedder = fair(embedder) if embedder is not None else build_embedder(settings, fair_share=True)
    summary_llm = llm
    if llm == "from-env":
        from omoide.llm import make_llm

        llm = make_llm(settings.llm)
        # A chat waits for its stage-4 summary, and a failed one only means the stage-3
        # result is sent: no retries there.
        summary_llm = make_llm(replace(settings.llm, max_retries=0))
    if chat_upstream == "from-env":
        from omoide.llm.chat import make_chat_upstream

        chat_upstream = make_chat_upstream(settings.llm)
    opened = open_store(settings, embedder)
    store: Store = opened
    vector_models = VectorModels(opened.db)  # the shared SQL runs on PgDatabase too
    if check_embedder_record:
        try:
            check_embedder(vector_models, embedder, clock, vectors_holder(settings))
        except BaseException:
            store.close()
            raise
    jobs: JobQueue = open_jobs(opened, settings)
    settings_service = SettingsService(store, settings.persona_defaults)
    maintenance = MaintenanceService(store, jobs, settings_service, clock)
    handlers: dict[str, Any] = {}
    ticks: list[Callable[[], object]] = [maintenance.schedule_decay]

    def tick() -> None:
        """The scheduler's periodic work: queue decay, end idle sessions."""
        for work in ticks:
            try:
                work()
            except Exception:  # one failing duty must not starve the others
                logger.exception("scheduler duty failed")

    runner = JobRunner(
        jobs, clock, handlers, workers=settings.workers, tick=tick, lease_s=settings.job_lease_s
    )
    bundled = _bundled(embedder, settings)
    # One LRU of embedded vectors for the judge, dedup and the search companion, which embed
    # the same texts on the same models (service/vector_cache.py).
    vectors = VectorCache(settings.vector_cache)
    dedup = DedupDecider(embedder, bundled, vectors=vectors)
    memories = MemoryService(
        store,
        embedder,
        clock,
        settings_service,
        max_content_chars=settings.max_content_chars,
        on_enqueue=runner.notify,
        dedup=dedup,
    )
    # Evolution judges with the rules + the packaged learned judge on its own bundled
    # embedder, whatever the server searches with (issue 9; built on first use).
    evolution = EvolutionService(
        store,
        embedder,
        clock,
        settings_service,
        _classifier_factory(
            llm, offline_classifier_for(embedder, _judge_embedder(bundled), vectors=vectors)
        ),
        dedup=dedup,
    )
    state = StateService(store, clock)
    blocks = BlockService(store, clock)
    sessions = SessionService(
        store,
        embedder,
        clock,
        settings_service,
        memories,
        _consolidator_factory(llm),
        update_user_state=state.update_user_state,
        on_enqueue=runner.notify,
        segmenter_for=_segmenter_factory(llm),
    )
    ticks.append(sessions.end_idle_sessions)  # a session nobody ended is ended when idle
    companion = _companion(settings, embedder, vectors)
    search = SearchService(
        store,
        embedder,
        clock,
        settings_service,
        episodes=EpisodeSearch(store, settings_service, embedder, companion),
        companion=companion,
        vectors=vectors,
    )
    app = Omoide(
        settings=settings,
        clock=clock,
        embedder=embedder,
        store=store,
        jobs=jobs,
        runner=runner,
        settings_service=settings_service,
        auth=AuthService(store, clock),
        memories=memories,
        search=search,
        evolution=evolution,
        state=state,
        blocks=blocks,
        context=ContextService(
            store, clock, settings_service, state, blocks, begin_session=sessions.begin
        ),
        sessions=sessions,
        forget=ForgetService(store, clock),
        queue=QueueService(store, jobs, runner),
        reindex=ReindexService(store, vector_models, embedder, clock),
        overview=OverviewService(
            store, OverviewStore(opened.db), jobs, clock, on_enqueue=runner.notify
        ),
        maintenance=maintenance,
        llm=llm,
        transfer=TransferService(
            store, embedder, clock, settings_service, memories, on_enqueue=runner.notify
        ),
        peers=PeerImportService(store, memories, sessions, clock),
        chat_upstream=chat_upstream,
        chat=ChatService(
            search=search,
            state=state,
            blocks=blocks,
            settings=settings_service,
            sessions=sessions,
            clock=clock,
            compressor=Compressor(summary_llm, cooldown_s=settings.chat_summary_cooldown_s),
        ),
    )

    def run_evolve(job: Job) -> None:
        assert job.persona is not None
        evolution.evolve(job.persona, job.payload["key"])

    def run_decay(job: Job) -> None:
        maintenance.run_decay_job(job.persona, job.persona_id)

    def run_segment(job: Job) -> None:
        assert job.persona is not None
        sessions.segment(
            job.persona, job.payload["session_id"], final=bool(job.payload.get("final"))
        )

    def run_consolidate(job: Job) -> None:
        assert job.persona is not None
        sessions.consolidate(job.persona, int(job.payload["episode_id"]))

    handlers[EVOLVE_JOB] = run_evolve
    handlers[SEGMENT_JOB] = run_segment
    handlers[CONSOLIDATE_JOB] = run_consolidate
    handlers[DECAY_JOB] = run_decay
    return app


def _sqlite_only_command(settings: Settings, command: str) -> None:
    if settings.database_url:
        raise InvalidInput(
            f"omoide {command} copies the SQLite database of a data folder; with "
            "OMOIDE_DATABASE_URL set, back up PostgreSQL with pg_dump "
            "(docs/deploy.md)"
        )


def backup_database(settings: Settings, target: Path, *, overwrite: bool = False) -> Any:
    """``omoide backup``: an online copy of the store's database (SQLite's backup API)."""
    from omoide.store.sqlite.backup import backup

    _sqlite_only_command(settings, "backup")
    return backup(settings.db_path, target, overwrite=overwrite)


def restore_database(settings: Settings, source: Path, *, force: bool = False) -> Any:
    """``omoide restore``: the data folder's database replaced by a backup."""
    from omoide.store.sqlite.backup import restore

    _sqlite_only_command(settings, "restore")
    return restore(source, settings.db_path, force=force)
