"""The wired app: :class:`Omoide` holds every service of a running server, and :func:`build`
makes one from settings (the store, the job runner and its handlers, the services)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from omoide.clock import Clock, SystemClock
from omoide.config import Settings
from omoide.embed import Embedder, fair
from omoide.jobs import JobRunner
from omoide.model import Job
from omoide.service.auth import KEY_USE_WAIT_S, AuthService
from omoide.service.blocks import BlockService
from omoide.service.chat import ChatService
from omoide.service.chat_summary import Compressor
from omoide.service.classify_judge import offline_classifier_for
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
from omoide.service.reindex import ReindexService, check_embedder
from omoide.service.search import SearchService
from omoide.service.sessions import CONSOLIDATE_JOB, SEGMENT_JOB, SessionService
from omoide.service.settings import SettingsService
from omoide.service.state import StateService
from omoide.service.transfer import TransferService
from omoide.service.vector_cache import VectorCache
from omoide.store.port import JobQueue, Store
from omoide.wiring.embedders import (
    build_embedder,
    bundled_builder,
    judge_embedder,
    search_companion,
)
from omoide.wiring.engines import classifier_factory, consolidator_factory, segmenter_factory
from omoide.wiring.storage import (
    open_jobs,
    open_overview,
    open_store,
    open_vector_models,
    vectors_holder,
)

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

    @property
    def scrub_pending(self) -> bool:
        """Whether text an erase of this process removed may still be in the store's files
        (its scrub owed: ``Store.scrub_pending``)."""
        return self.store.scrub_pending

    def close(self, *, scrub_wait_s: float = 0.0, give_up: threading.Event | None = None) -> None:
        """Stop the workers and close the store; the jobs mid-run are waited for (up to
        ``jobs.STOP_WAIT_S`` in all, ``JobRunner.stop``: those left are put back in the queue)
        and an erase's owed scrub is tried for up to ``scrub_wait_s``, each wait ending once
        ``give_up`` is set (``Store.close``). The writes after those waits are bounded too, but
        not cut short: putting back the jobs left (``jobs.PUT_BACK_WAIT_S``) and writing the
        key uses noted (``auth.KEY_USE_WAIT_S``)."""
        self.runner.stop(give_up=give_up)
        # the key uses noted off the request path are written first
        self.auth.flush(KEY_USE_WAIT_S)
        self.store.close(scrub_wait_s=scrub_wait_s, give_up=give_up)

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
    llm, summary_llm, chat_upstream = _llm_clients(settings, llm, chat_upstream)
    opened = open_store(settings, embedder)
    store: Store = opened
    vector_models = open_vector_models(opened)
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
    bundled = bundled_builder(embedder, settings)
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
        classifier_factory(
            llm, offline_classifier_for(embedder, judge_embedder(bundled), vectors=vectors)
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
        consolidator_factory(llm),
        update_user_state=state.update_user_state,
        on_enqueue=runner.notify,
        segmenter_for=segmenter_factory(llm),
    )
    ticks.append(sessions.end_idle_sessions)  # a session nobody ended is ended when idle
    companion = search_companion(settings, embedder, vectors)
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
            store, open_overview(opened), jobs, clock, on_enqueue=runner.notify
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
    handlers.update(job_handlers(evolution, maintenance, sessions))
    return app


def _llm_clients(settings: Settings, llm: Any, chat_upstream: Any) -> tuple[Any, Any, Any]:
    """The LLM, the one chat summaries use and the chat upstream: each built from the settings
    when given as ``"from-env"``, else the one given (the summary's is then the LLM given)."""
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
    return llm, summary_llm, chat_upstream


def job_handlers(
    evolution: EvolutionService, maintenance: MaintenanceService, sessions: SessionService
) -> dict[str, Callable[[Job], None]]:
    """What the job runner calls for each kind of job: the service method that does it."""

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

    return {
        EVOLVE_JOB: run_evolve,
        SEGMENT_JOB: run_segment,
        CONSOLIDATE_JOB: run_consolidate,
        DECAY_JOB: run_decay,
    }
