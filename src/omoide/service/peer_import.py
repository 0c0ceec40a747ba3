"""Import from other memory systems (issue 15 item 2): Mem0, the MCP memory server, chats.

Memories go through the normal write path (validation, dedup, evolution queued), so a re-run
of the same file finds every memory a duplicate and writes nothing. MCP relations also become
links between the relation's memory and its entities' memories. Chats are posted as sessions
(idempotent by message id) and ended, so segmentation and consolidation build episodes and
notes from them in the background. Parsing is pure (``engine/peer_formats.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, cast

from omoide.clock import Clock, iso
from omoide.engine import json_text
from omoide.engine.counts import how_many
from omoide.engine.errors import named
from omoide.engine.peer_chats import ChatConversation, ChatTurn, parse_chat
from omoide.engine.peer_formats import (
    PeerFormatError,
    PeerMemory,
    PeerRelation,
    parse_mcp_memory,
    parse_mem0,
)
from omoide.engine.transfer_format import is_export
from omoide.errors import InvalidInput
from omoide.model import NewMemory, SessionEnd
from omoide.service.chat_reimport import held_unnamed
from omoide.service.event_input import (
    MAX_EVENT_CHARS,
    MAX_EVENTS_PER_BATCH,
    check_event,
    check_speaker_name,
)
from omoide.service.memories import MemoryService
from omoide.service.sessions import SessionService
from omoide.service.transfer import supports_transfer
from omoide.service.validate import MAX_EXTERNAL_ID_CHARS, check_happened, is_blank, nfc
from omoide.service.validate.names import check_user_id
from omoide.store.port import Store, TransferStore

__all__ = ["OPTION_SOURCE", "SOURCES", "PeerImportService", "PeerReport", "misplaced_option"]

logger = logging.getLogger(__name__)

SOURCES = ("mem0", "mcp-memory", "chat")
LINK_WEIGHT = 0.5
# The import options each read by one source only: given with another, they would be ignored
# (a mem0 import with user_name instead of user_id took every user's memories).
OPTION_SOURCE = {"user_id": "mem0", "user_name": "chat", "assistant_name": "chat"}


def misplaced_option(source: str, given: Mapping[str, object]) -> str | None:
    """The first option set in ``given`` (names of :data:`OPTION_SOURCE` to their values,
    None or empty for not given) that ``source`` does not read, or None."""
    return next(
        (name for name, value in given.items() if value and OPTION_SOURCE[name] != source), None
    )


@dataclass
class PeerReport:
    persona: str
    source: str
    memories: int = 0
    duplicates: int = 0
    links: int = 0
    sessions: int = 0
    events: int = 0
    without_text: int | None = None  # a chat file: messages left out, holding no text
    session_ids: list[str] | None = None  # a chat file: the session of each conversation
    skipped: int | None = None  # an MCP memory file: observations left out (blank)
    skipped_items: list[dict[str, Any]] | None = None  # each of them, with its reason

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def _json(text: str, source: str) -> Any:
    try:
        return nfc(json_text.loads(text))  # user text is kept in NFC (validate.nfc)
    except json_text.JsonTextError as exc:
        raise InvalidInput(f"{source} file: {exc.message}", field=exc.field) from None


class PeerImportService:
    def __init__(
        self, store: Store, memories: MemoryService, sessions: SessionService, clock: Clock
    ) -> None:
        self.store = store
        self.memories = memories
        self.sessions = sessions
        self.clock = clock

    def import_text(
        self,
        persona: str,
        source: str,
        text: str,
        *,
        user_id: str | None = None,
        user_name: str | None = None,
        assistant_name: str | None = None,
        on_progress: Callable[[int], None] | None = None,
    ) -> PeerReport:
        """Parse ``text`` as ``source`` (one of :data:`SOURCES`) and import it. A file with
        nothing to import (empty, or no memory in it) is refused, never reported as 0 imported.
        A chat's user turns are spoken by ``user_name`` (``"user"`` when not given)."""
        self.store.get_persona(persona)
        check_user_id(user_id)  # as HTTP refuses it
        check_speaker_name(user_name, "user_name")
        check_speaker_name(assistant_name, "assistant_name")
        if not text.strip():
            raise InvalidInput(f"{source} file: the file is empty; nothing was imported")
        if is_export(text):  # said only that it was not JSON, or not an entity
            raise InvalidInput(
                f"{source} file: this is an Omoide export (its first line is an export "
                "header); import it without source (omoide import without --from); nothing "
                "was imported"
            )
        try:
            return self._import_text(
                persona,
                source,
                text,
                user_id=user_id,
                user_name="user" if user_name is None else user_name,
                assistant_name=assistant_name,
                on_progress=on_progress,
            )
        except PeerFormatError as exc:
            raise InvalidInput(f"{source} file: {exc.message}") from None

    def _import_text(
        self,
        persona: str,
        source: str,
        text: str,
        *,
        user_id: str | None,
        user_name: str,
        assistant_name: str | None,
        on_progress: Callable[[int], None] | None,
    ) -> PeerReport:
        if source == "mem0":
            memories = parse_mem0(_json(text, source), user_id=user_id)
            if not memories:
                of = f" of user_id {named(user_id)}" if user_id is not None else ""
                raise InvalidInput(
                    f"mem0 file: nothing to import: it holds no memory{of}; nothing was imported"
                )
            return self.import_memories(persona, "mem0", memories, on_progress=on_progress)
        if source == "mcp-memory":
            records = []
            for number, line in enumerate(text.splitlines(), start=1):
                if line.strip():
                    try:
                        records.append(nfc(json_text.loads(line)))
                    except json_text.JsonTextError as exc:
                        raise InvalidInput(f"line {number}: {exc.message}", line=number) from None
            found, relations, skipped = parse_mcp_memory(records)
            if not found and not relations:
                raise InvalidInput(
                    "mcp-memory file: nothing to import: it holds no entity "
                    "with an observation; nothing was imported"
                )
            report = self.import_memories(
                persona, source, found, relations, on_progress=on_progress
            )
            if skipped:
                report.skipped = len(skipped)
                report.skipped_items = [item.as_dict() for item in skipped]
            return report
        if source == "chat":
            return self.import_chats(
                persona,
                parse_chat(_json(text, source)),
                user_name=user_name,
                assistant_name=assistant_name or persona,
                on_progress=on_progress,
            )
        raise InvalidInput(
            f"unknown import source {named(source)}; use one of {', '.join(SOURCES)}"
        )

    def import_memories(
        self,
        persona: str,
        source: str,
        found: list[PeerMemory],
        relations: Sequence[PeerRelation] = (),
        *,
        on_progress: Callable[[int], None] | None = None,
    ) -> PeerReport:
        report = PeerReport(persona=persona, source=source)
        # Every memory is checked as the API would check it before the first is written, so a
        # bad one anywhere in the file stores nothing.
        built = {
            id(m): self._build(m, f"{source} file: memory {named(m.content, 40)}")
            for m in [*found, *(r.memory for r in relations)]
        }
        entity_keys: dict[str, str] = {}
        for memory in found:
            key = self._write(persona, built[id(memory)], report)
            if memory.entity is not None:
                entity_keys.setdefault(memory.entity, key)
            if on_progress is not None:
                on_progress(1)
        links = []
        now = iso(self.clock.now())
        for relation in relations:
            key = self._write(persona, built[id(relation.memory)], report)
            for entity in (relation.source, relation.target):
                other = entity_keys.get(entity)
                if other is not None and other != key:
                    links += [
                        {
                            "a": a,
                            "b": b,
                            "link_type": "SEMANTIC",
                            "weight": LINK_WEIGHT,
                            "co_activation_count": 1,
                            "last_activated": now,
                        }
                        for a, b in ((key, other), (other, key))
                    ]
            if on_progress is not None:
                on_progress(1)
        if links and supports_transfer(self.store):
            report.links = (
                cast(TransferStore, self.store).restore(persona).restore_links(links) // 2
            )
        elif links:
            logger.warning(
                "relations imported as memories without links: this store cannot "
                "write links in bulk yet"
            )
        logger.info("peer import persona=%s %s", persona, report.as_dict())
        return report

    def _build(self, memory: PeerMemory, where: str) -> NewMemory:
        """The memory checked as the API checks a write (and its time as any time something
        happened); InvalidInput naming the memory."""
        try:
            new = self.memories.build_new(
                content=memory.content,
                tags=list(memory.tags),
                kind=memory.kind,
                metadata=memory.metadata,
            )
            created = check_happened(memory.created_at, "created_at", self.clock.now())
            if created is not None:
                new = replace(new, created_at=created)
        except InvalidInput as exc:
            raise InvalidInput(f"{where}: {exc.message}", **exc.fields) from None
        return new

    def _write(self, persona: str, new: NewMemory, report: PeerReport) -> str:
        """One memory through the normal write path; returns its key (or its duplicate's)."""
        outcome = self.memories.create(persona, new, changed_by="import")
        if outcome.status == "duplicate":
            report.duplicates += 1
            assert outcome.duplicate_of is not None
            return outcome.duplicate_of.key
        report.memories += 1
        assert outcome.memory is not None
        return outcome.memory.key

    def import_chats(
        self,
        persona: str,
        conversations: list[ChatConversation],
        *,
        user_name: str,
        assistant_name: str,
        on_progress: Callable[[int], None] | None = None,
    ) -> PeerReport:
        """Each conversation becomes a session (``chat-<id>``) with its turns, then ended."""
        session_ids: list[str] = []
        report = PeerReport(persona=persona, source="chat", session_ids=session_ids)
        now = self.clock.now()
        # A turn that shows nothing (only whitespace or invisible characters) is left out, as
        # the parser leaves out empty ones; every other turn is checked as the API checks it
        # before the first is written.
        conversations = [
            replace(
                c,
                turns=tuple(t for t in c.turns if not is_blank(t.content)),
                without_text=c.without_text
                + tuple("empty" for t in c.turns if is_blank(t.content)),
            )
            for c in conversations
        ]
        _require_text(conversations)
        report.without_text = sum(len(c.without_text) for c in conversations)
        started: dict[str, datetime | None] = {}
        ids: dict[str, dict[str, tuple[str, int, ChatTurn]]] = {}  # session -> message ids
        for conv in conversations:
            where = f"chat file: conversation {named(conv.id)}"
            try:
                started[conv.id] = check_happened(conv.started_at, "created_at", now)
            except InvalidInput as exc:
                raise InvalidInput(f"{where}: {exc.message}", **exc.fields) from None
            seen = ids.setdefault(f"chat-{conv.id}"[:128], {})
            for i, turn in enumerate(conv.turns):
                check_event(self._event(turn, user_name, assistant_name), f"{where} turn {i}", now)
                # one message id, two messages (in a conversation, or in two given one id):
                # the second would be skipped as a re-run of the first (keep-first), a turn
                # lost without a word
                first = seen.setdefault(turn.external_id[:MAX_EXTERNAL_ID_CHARS], (where, i, turn))
                if (first[2].role, first[2].content) != (turn.role, turn.content):
                    raise InvalidInput(
                        f"{where} turn {i}: message id {named(turn.external_id)} is also the id of "
                        f"another message ({first[0]} turn {first[1]}); each message has its "
                        "own id. Nothing was imported",
                        field="external_id",
                    )
        for conv in conversations:
            if not conv.turns:
                continue
            session_id = f"chat-{conv.id}"[:128]
            first = conv.turns[0].timestamp
            begun = started[conv.id] or (first if isinstance(first, datetime) else None)
            session, created = self.sessions.open(
                persona, session_id=session_id, started_at=iso(begun) if begun else None
            )
            written = 0
            held = set() if created else held_unnamed(self.store, persona, session, conv.turns)
            events = [
                {
                    **self._event(t, user_name, assistant_name),
                    **({"metadata": {"title": conv.title}} if conv.title and i == 0 else {}),
                }
                for i, t in enumerate(conv.turns)
                if i not in held
            ]
            for start in range(0, len(events), MAX_EVENTS_PER_BATCH):
                # Idempotent by message id: a re-import (perhaps with another user_name, so
                # another speaker) keeps the turns first recorded under those ids.
                batch = events[start : start + MAX_EVENTS_PER_BATCH]
                accepted, _ = self.sessions.record(persona, session_id, batch, keep_first=True)
                report.events += accepted
                written += accepted
                if on_progress is not None:
                    on_progress(len(batch))
            if session.ended_at is None:
                self.sessions.end(persona, session_id, by=SessionEnd.IMPORT)
            if created or written:  # a re-run writes no session, as it writes no turn
                report.sessions += 1
            if session_id not in session_ids:
                session_ids.append(session_id)
        logger.info(
            "chat import persona=%s sessions=%d events=%d", persona, report.sessions, report.events
        )
        return report

    @staticmethod
    def _event(turn: ChatTurn, user_name: str, assistant_name: str) -> dict[str, Any]:
        return {
            "speaker": user_name if turn.role == "user" else assistant_name,
            "role": turn.role,
            "content": turn.content[:MAX_EVENT_CHARS],
            "external_id": turn.external_id[:MAX_EXTERNAL_ID_CHARS],
            **(
                {
                    "timestamp": iso(turn.timestamp)
                    if isinstance(turn.timestamp, datetime)
                    else turn.timestamp
                }
                if turn.timestamp
                else {}
            ),
        }


def _require_text(conversations: list[ChatConversation]) -> None:
    """A chat file none of whose user or assistant messages holds text imports nothing: a 422
    saying what the messages held, never a 200 with nothing imported. (Messages without text
    beside others are left out and counted in the report's ``without_text``.)"""
    if any(c.turns for c in conversations):
        return
    kinds = sorted({k for c in conversations for k in c.without_text})
    held = sum(len(c.without_text) for c in conversations)
    found = (
        f"no text in its {how_many(held, 'user and assistant message')} (only: {'; '.join(kinds)})"
        if held
        else "it holds no user or assistant message"
    )
    raise InvalidInput(
        f"chat file: nothing to import: {found}. Omoide imports what was said "
        "as text; an image enters a conversation as its caption "
        "(metadata.image_caption of a posted event, docs/sessions.md). Nothing "
        "was imported",
        field="messages",
    )
