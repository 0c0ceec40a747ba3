"""The chat pipeline (DESIGN §Chat pipeline): PrepareStep → CompressStep → (upstream) → PostStep.

- :meth:`ChatService.prepare` validates the request's messages and adds what the persona knows
  to the system prompt: its blocks by priority, persona and user state, and the memories the
  default search finds for the latest user message (exactly what a client asking with only the
  query gets), within ``chat_memory_budget_tokens`` (never above ``chat_budget_tokens``). The
  client's own system message stays first.
- :meth:`ChatService.compress` runs the compaction stages (``service/chat_summary.py``).
- :meth:`ChatService.record` writes the latest user message (with the user messages before it
  that no assistant message answered) and the reply as events of the conversation's session,
  idempotently (external ids from the conversation's content and
  position), so segmentation, consolidation and search see proxied chats. The route calls it
  after the reply has been sent.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from omoide.clock import Clock, parse_iso
from omoide.engine.block_text import block_text
from omoide.engine.chat_prompt import (
    ChatPrompt,
    Recalled,
    assemble_chat_prompt,
    into_system_prompt,
)
from omoide.engine.compact import message_text
from omoide.engine.context import choose_language, user_address
from omoide.model import SearchHit
from omoide.service.blocks import BlockService
from omoide.service.chat_messages import ASSISTANT_WITHOUT_CONTENT
from omoide.service.chat_summary import Compressed, Compressor
from omoide.service.event_input import MAX_EVENT_CHARS, MAX_SPEAKER_CHARS
from omoide.service.search import SearchService
from omoide.service.search_request import MAX_QUERY_CHARS
from omoide.service.sessions import SessionService
from omoide.service.settings import SettingsService
from omoide.service.state import StateService
from omoide.service.validate import check_session_id, is_blank, nfc, replace_unstorable

__all__ = [
    "ChatService",
    "Prepared",
    "excerpt_ident",
    "session_id_for",
]

logger = logging.getLogger(__name__)

_SESSION_ID = re.compile(r"^[A-Za-z0-9_.:@-]{1,100}$")


@dataclass(frozen=True)
class Prepared:
    messages: list[dict[str, Any]]
    prompt: ChatPrompt
    query: str  # what the memories were searched for ("" when there is no user text)


def session_id_for(messages: Sequence[dict[str, Any]], *, header: str | None, user: Any) -> str:
    """The conversation's session: the ``X-Omoide-Session`` header, else ``chat-<user>``, else
    derived from the conversation's first user message (the same on every later request;
    :func:`_opening`)."""
    if header is not None:
        return check_session_id(header, "X-Omoide-Session")
    if isinstance(user, str) and user.strip():
        if not _SESSION_ID.fullmatch(user.strip()):
            return "chat-" + _digest([user.strip()])[:24]
        return f"chat-{user.strip()}"
    return "chat-" + _digest(_opening(messages))[:24]


def _opening(messages: Sequence[dict[str, Any]]) -> list[Any]:
    """What names a derived session: the first user message's text, and its parts that are
    not text (an image …) when it has any, so that two conversations opening with different
    images (and the same words, or none) are two sessions; before, every image-only opening
    was the text "" and all of them one session. An opening of text alone is named as it
    always was. A part's ``cache_control`` is left out: a client caching the prompt marks the
    latest message, so the opening carries it on the first request only."""
    first = next((m for m in messages if m.get("role") == "user"), None)
    if first is None:
        return [""]
    content = first.get("content")
    others = (
        [
            {key: value for key, value in p.items() if key != "cache_control"}
            for p in content
            if isinstance(p, dict) and p.get("type") != "text"
        ]
        if isinstance(content, list)
        else []
    )
    return [message_text(first), others] if others else [message_text(first)]


def _user_turn_id(messages: Sequence[dict[str, Any]], index: int) -> str:
    """The external id :meth:`ChatService.record` gives the user message at ``index``."""
    return "chat:" + _digest(list(messages[: index + 1]))[:40]


def _previous_user(messages: Sequence[dict[str, Any]]) -> int | None:
    latest = _latest_user(messages)
    if latest is None:
        return None
    return next((i for i in range(latest - 1, -1, -1) if messages[i].get("role") == "user"), None)


def _digest(value: Any) -> str:
    raw = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def _latest_user(messages: Sequence[dict[str, Any]]) -> int | None:
    return next(
        (i for i in range(len(messages) - 1, -1, -1) if messages[i].get("role") == "user"), None
    )


LANGUAGE_SAMPLES = 3  # the latest user messages the memory section's language follows


def _language_samples(messages: Sequence[dict[str, Any]], user: dict[str, Any]) -> list[str]:
    """What the memory section's language follows: the conversation (its latest user
    messages), else the user's name. The name was weighed as much as the message, so a user
    with a name in Latin letters chatting in Japanese got an English section."""
    said = [message_text(m) for m in reversed(messages) if m.get("role") == "user"]
    said = [text for text in said if text.strip()][:LANGUAGE_SAMPLES]
    return said or [str(user.get("name") or "")]


def _unanswered_users(messages: Sequence[dict[str, Any]]) -> list[int]:
    """The latest user message and the user messages before it up to the last assistant
    message, oldest first: what the user said since the model last answered. A message the
    upstream never answered (a 504, a stream cut off) stays in a client's history and is sent
    again before the next one; recording only the latest lost it."""
    latest = _latest_user(messages)
    if latest is None:
        return []
    found = [latest]
    for i in range(latest - 1, -1, -1):
        role = messages[i].get("role")
        if role == "assistant":
            break
        if role == "user":
            found.append(i)
    return found[::-1]


class ChatService:
    def __init__(
        self,
        *,
        search: SearchService,
        state: StateService,
        blocks: BlockService,
        settings: SettingsService,
        sessions: SessionService,
        clock: Clock,
        compressor: Compressor,
    ) -> None:
        self.search = search
        self.state = state
        self.blocks = blocks
        self.settings = settings
        self.sessions = sessions
        self.clock = clock
        self.compressor = compressor

    # -- the session -------------------------------------------------------------------

    def session_for(
        self, persona: str, messages: Sequence[dict[str, Any]], *, header: str | None, user: Any
    ) -> str:
        """The conversation's session. A named one (header, ``user``) as named. A derived one
        (from the first user message) is shared by every conversation that opens with the same
        words, so it is numbered: ``chat-<hash>``, ``chat-<hash>-2`` … A request goes to the
        session holding its previous user message (a conversation continued, even after its
        session ended); else, a conversation's first request or one whose earlier turns were
        never recorded, to the newest of them while it is open, or to a new one once that has
        ended (a new conversation opening with an ended one's words: "Hi!")."""
        base = session_id_for(messages, header=header, user=user)
        if header is not None or (isinstance(user, str) and user.strip()):
            return base
        self.sessions.pending.wait(persona)  # the turn this request continues may be being recorded
        store = self.sessions.store.sessions(persona)
        numbered = store.numbered(base)
        if not numbered:
            return base
        previous = _previous_user(messages)
        if previous is not None:
            held = store.holding(numbered, _user_turn_id(messages, previous))
            for session in reversed(numbered):
                if session.pk in held:
                    return session.session_id
        newest = numbered[-1]
        if newest.ended_at is None:
            return newest.session_id
        number = 1 if newest.session_id == base else int(newest.session_id.rsplit("-", 1)[1])
        return f"{base}-{number + 1}"

    # -- PrepareStep -------------------------------------------------------------------

    def prepare(
        self, persona: str, messages: list[dict[str, Any]], session_id: str | None = None
    ) -> Prepared:
        """The request with the persona's memory in its system prompt. Excerpts of the
        conversation's own session (``session_id``) are left out: the client sends those turns
        itself."""
        cfg = self.settings.get(persona)
        latest = _latest_user(messages)
        query = "" if latest is None else " ".join(message_text(messages[latest]).split())
        query = query[-MAX_QUERY_CHARS:]
        if is_blank(query):  # only invisible characters (U+200B …): nothing to search for
            query = ""
        user = self.state.get_current_user_state(persona)
        budget = _memory_budget(persona, cfg.chat_memory_budget_tokens, cfg.chat_budget_tokens)
        hits = self._recall(persona, query, session_id) if budget and query else []
        prompt = assemble_chat_prompt(
            persona=persona,
            lang=choose_language(cfg.language, _language_samples(messages, user)),
            budget_tokens=budget,
            persona_state=self.state.get_current_persona_state(persona),
            user_state=user,
            blocks=[block_text(b) for b in self.blocks.list_blocks(persona)],
            memories=[_recalled(h) for h in hits],
            tz=cfg.zone,
        )
        return Prepared(
            messages=into_system_prompt(_for_upstream(messages), prompt.text),
            prompt=prompt,
            query=query,
        )

    def _recall(self, persona: str, query: str, session_id: str | None) -> list[SearchHit]:
        """The default search, called as a client with only the query would call it."""
        request = self.search.build_request(persona, query=query)
        return [
            hit
            for hit in self.search.search(persona, request).results
            if hit.type != "episode" or hit.extra.get("session_id") != session_id
        ]

    # -- CompressStep ------------------------------------------------------------------

    def compress(
        self, persona: str, messages: list[dict[str, Any]], *, tools: Any = None
    ) -> Compressed:
        cfg = self.settings.get(persona)
        user = user_address(self.state.get_current_user_state(persona)) or "User"
        return self.compressor.compress(messages, cfg, tools=tools, names=(user, persona))

    # -- PostStep ----------------------------------------------------------------------

    def record(
        self, persona: str, session_id: str, messages: Sequence[dict[str, Any]], reply: str
    ) -> int:
        """Record the user's messages since the last assistant message (usually only the
        latest) and the reply; a retried request records nothing new.

        A user message's external id hashes the conversation up to it (its content and
        position), so a message an earlier request already recorded is skipped; the reply's
        hashes the whole request, so a retry that got a different answer is still recognised,
        while the next request's reply is a new event.
        """
        unanswered = _unanswered_users(messages)
        events: list[dict[str, Any]] = []
        if unanswered:
            user = user_address(self.state.get_current_user_state(persona)) or "User"
            for index in unanswered:
                events += _turns(
                    user, "user", message_text(messages[index]), _user_turn_id(messages, index)
                )
        events += _turns(
            persona, "assistant", reply, "chat:" + _digest(list(messages))[:40] + ":reply"
        )
        if not events:
            return 0
        self.sessions.open(persona, session_id=session_id)
        # A retried request's reply may differ from the one recorded: the first is kept.
        accepted, _ = self.sessions.record(persona, session_id, events, keep_first=True)
        return accepted


def _memory_budget(persona: str, memory_budget: int, whole_budget: int) -> int:
    """The memory section's budget, never above the whole request's.

    Why: a persona's own ``chat_memory_budget_tokens`` above its ``chat_budget_tokens`` is
    refused (``service/settings.py``), but the server default memory budget may be above a
    persona's small chat budget, and a persona stored so earlier must keep chatting. Outcome:
    the section is cut to the whole budget, and the log says so once per persona and pair of
    values in a process (not on every request)."""
    if memory_budget <= whole_budget:
        return memory_budget
    said = (persona, memory_budget, whole_budget)
    if said not in _BUDGETS_SAID:
        _BUDGETS_SAID.add(said)
        logger.warning(
            "persona %r: chat_memory_budget_tokens (%d) is above chat_budget_tokens (%d); the "
            "memory section is cut to %d tokens; lower chat_memory_budget_tokens",
            persona,
            memory_budget,
            whole_budget,
            whole_budget,
        )
    return whole_budget


_BUDGETS_SAID: set[tuple[str, int, int]] = set()  # the pairs _memory_budget has logged


def _turns(speaker: str, role: str, text: str, external_id: str) -> list[dict[str, Any]]:
    """A chat message as the turns that record it, whatever the client or the model sent (the
    reply is already out, so a refused turn would be lost): nothing for a text that shows
    nothing; NUL and lone surrogates (which no store keeps alike) as U+FFFD; a text over
    ``MAX_EVENT_CHARS`` as several consecutive turns (ids ``…:2``, ``…:3``), so none is cut;
    in NFC, as all user text is kept (the model's reply did not pass the body guard)."""
    text = nfc(replace_unstorable(text)).strip()
    if is_blank(text):
        return []
    name = replace_unstorable(speaker).strip()[:MAX_SPEAKER_CHARS]
    pieces = [text[i : i + MAX_EVENT_CHARS] for i in range(0, len(text), MAX_EVENT_CHARS)]
    return [
        {
            "speaker": name if not is_blank(name) else role,
            "role": role,
            "content": piece,
            "external_id": external_id if n == 1 else f"{external_id}:{n}",
        }
        for n, piece in enumerate((p for p in pieces if not is_blank(p)), start=1)
    ]


def _recalled(hit: SearchHit) -> Recalled:
    if hit.type == "note" and hit.memory is not None:
        m = hit.memory
        ended = m.valid_until or (m.updated_at if m.superseded_by else None)
        # marked as ended only when it is closed now: a valid_until still ahead is no end yet
        closed = None if hit.extra.get("current", True) else ended
        return Recalled(
            ident=hit.id,
            content=hit.content,
            when=m.valid_from or m.created_at,
            valid_until=closed,
            never_held=closed is not None and m.never_held(),
        )
    said = hit.extra.get("said_at")
    return Recalled(
        ident=excerpt_ident(hit),
        content=hit.content,
        when=parse_iso(said) if isinstance(said, str) else None,
        excerpt=True,
    )


def excerpt_ident(hit: SearchHit) -> str:
    """How ``X-Omoide-Injected`` names a conversation excerpt: ``episode:<episode>:<first>-<last>``,
    the episode (``open:<session id>`` for turns not yet segmented) and the event ids of its
    first and last turns (the ``event_id`` of the search API's ``sources``), so two excerpts of
    one episode, which never show the same turn, are told apart; ``episode:<episode>`` when the
    excerpt names no turn."""
    ids = [source.event_id for source in hit.sources]
    span = f":{min(ids)}-{max(ids)}" if ids else ""
    return f"{hit.type}:{hit.id}{span}"


def _for_upstream(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages as the upstream gets them: an assistant message's ``tool_calls: []`` (no
    call made, as some clients replay it) is left out, since some OpenAI-compatible servers
    refuse an empty list there; everything else is relayed as sent."""
    return [
        _without_empty_calls(m) if m.get("role") == "assistant" and m.get("tool_calls") == [] else m
        for m in messages
    ]


def _without_empty_calls(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` without its empty ``tool_calls``; when nothing else then says what the
    assistant did (no content, no other call, refusal or audio), its content is "" so that
    the message stays one the upstream reads."""
    out = {k: v for k, v in message.items() if k != "tool_calls"}
    if out.get("content") is None and not any(
        out.get(k) is not None for k in ASSISTANT_WITHOUT_CONTENT
    ):
        out["content"] = ""
    return out
