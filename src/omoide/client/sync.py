"""The synchronous client: one method per route of the HTTP API.

    from omoide.client import Client

    with Client("http://127.0.0.1:8765", api_key="omo_p_…") as omoide:
        omoide.create_memory("rin", "The user lives in Tokyo", tags=["home"])
        for hit in omoide.search("rin", "where does the user live").results:
            print(hit.score, hit.content)

Answers are the API's pydantic models (``omoide.api.http.schemas``: ``CreateReply``,
``SearchReply`` …, fields as documented at ``/docs``; unknown fields are kept). Every error
answer raises the ``omoide.errors`` class of its code (``NotFound``, ``Forbidden`` …).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

from omoide.client import calls, exchange
from omoide.client.call import Call
from omoide.client.sync_memory import MemoryCalls

if TYPE_CHECKING:
    from omoide.api.http import schemas as s
    from omoide.api.http.schemas.transfer import ImportReply

__all__ = ["Client"]

T = TypeVar("T")


class Client(MemoryCalls):
    """A persona's (or the admin's) connection to an Omoide server.

    The memory, search, session and state methods are
    :class:`~omoide.client.sync_memory.MemoryCalls`'s; the connection, personas, blocks,
    context, settings, jobs, chat and export/import are here.
    """

    def __init__(
        self,
        base_url: str = exchange.DEFAULT_URL,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            **exchange.client_options(base_url, api_key, timeout), transport=transport
        )

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _run(self, call: Call[T]) -> T:
        return exchange.answer(call, self._http.request(**exchange.request_options(call)))

    # -- personas (admin key) ----------------------------------------------------------------

    def create_persona(self, name: str) -> s.PersonaCreated:
        """Create a persona; the answer's ``api_key`` is shown this once."""
        return self._run(calls.create_persona(name))

    def list_personas(self) -> s.PersonaList:
        """``{"personas": [{name, created_at, memories}]}``."""
        return self._run(calls.list_personas())

    def delete_persona(self, name: str) -> s.PersonaErased:
        """Erase a persona and everything it remembers; its keys stop working."""
        return self._run(calls.delete_persona(name))

    def issue_key(self, name: str) -> s.IssuedKeyOut:
        """Issue another key for persona ``name`` (admin, or the persona's own key); the
        answer's ``api_key`` is shown this once."""
        return self._run(calls.issue_key(name))

    def list_keys(self, name: str) -> s.KeyList:
        """The persona's keys: ids, fingerprints, creation, last use and revocation dates."""
        return self._run(calls.list_keys(name))

    def revoke_key(self, name: str, key_id: int) -> s.KeyOut:
        """Revoke one key of persona ``name``; it stops working at once, on every transport."""
        return self._run(calls.revoke_key(name, key_id))

    # -- blocks, context, settings -----------------------------------------------------------

    def list_blocks(self, persona: str) -> s.BlockList:
        """Named memory blocks, priority descending."""
        return self._run(calls.list_blocks(persona))

    def get_block(self, persona: str, block_name: str) -> s.BlockOut:
        """One named block (``NotFound`` when the persona has none by that name)."""
        return self._run(calls.get_block(persona, block_name))

    def write_block(
        self,
        persona: str,
        block_name: str,
        content: str,
        *,
        block_type: str | None = None,
        max_tokens: int | None = None,
        priority: int | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> s.WriteBlockReply:
        """Create or update a named block."""
        return self._run(
            calls.write_block(
                persona,
                block_name,
                content,
                block_type=block_type,
                max_tokens=max_tokens,
                priority=priority,
                metadata=dict(metadata) if metadata is not None else None,
            )
        )

    def delete_block(self, persona: str, block_name: str) -> s.OkReply:
        """Delete a named block."""
        return self._run(calls.delete_block(persona, block_name))

    def get_context(self, persona: str) -> s.ContextOut:
        """What ``get_context`` returns: blocks, state, recent memories (reads only)."""
        return self._run(calls.get_context(persona))

    def begin_session(self, persona: str) -> s.SessionStartOut:
        """``session_begin``: end open sessions, open a new one, return its context."""
        return self._run(calls.begin_session(persona))

    def update_context(
        self,
        persona: str,
        *,
        user_info: Mapping[str, Any] | None = None,
        persona_state: Mapping[str, Any] | None = None,
    ) -> s.ContextChanges:
        """``update_context``: user and persona state in one transaction."""
        return self._run(
            calls.update_context(persona, user_info=user_info, persona_state=persona_state)
        )

    def get_settings(self, persona: str) -> s.SettingsReply:
        """Effective runtime settings and the persona's overrides."""
        return self._run(calls.get_settings(persona))

    def update_settings(self, persona: str, **changes: Any) -> s.SettingsReply:
        """Override settings (``None`` resets one to its default)."""
        return self._run(calls.update_settings(persona, changes))

    # -- jobs, system, chat ------------------------------------------------------------------

    def jobs(self, persona: str) -> s.JobsOut:
        """Background job counts of the persona."""
        return self._run(calls.jobs(persona))

    def wait_for_jobs(self, persona: str, timeout: float = 60.0) -> s.JobsWaitOut:
        """Block until the persona's queue is empty (or ``timeout`` seconds): ``{drained}``."""
        return self._run(calls.wait_for_jobs(persona, timeout))

    def health(self) -> s.HealthOut:
        """Liveness: ``{status, version, embedder}`` (no key needed)."""
        return self._run(calls.health())

    def metrics(self) -> str:
        """Prometheus metrics text (admin key)."""
        return self._run(calls.metrics())

    def models(self, *, persona: str | None = None) -> s.ModelList:
        """The chat proxy's model list (OpenAI format); ``persona`` names the persona, as
        the admin key must (``X-Omoide-Persona``)."""
        return self._run(calls.models(persona))

    def get_model(self, model_id: str, *, persona: str | None = None) -> s.ModelOut:
        """The chat proxy's model by its id (OpenAI format); NotFound for any other id.
        ``persona`` as for :meth:`models`."""
        return self._run(calls.get_model(model_id, persona))

    def chat_completion(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        persona: str | None = None,
        session_id: str | None = None,
        **body: Any,
    ) -> s.ChatCompletion:
        """One chat completion through the memory proxy (not streamed; for streaming use an
        OpenAI client with ``base_url=<server>/v1``). ``persona`` names the persona, as the
        admin key must (``X-Omoide-Persona``); ``session_id`` the conversation its turns are
        recorded in (``X-Omoide-Session``; else derived, docs/chat.md); ``body`` holds the
        request's other fields (``temperature``, ``user`` …)."""
        return self._run(
            calls.chat_completion(messages, persona=persona, session_id=session_id, **body)
        )

    # -- export / import ---------------------------------------------------------------------

    def export_lines(self, persona: str, *, with_vectors: bool = False) -> Iterator[str]:
        """The persona's export, streamed line by line (JSON Lines, see docs/import.md)."""
        call = calls.export_persona(persona, with_vectors=with_vectors)
        with self._http.stream(**exchange.stream_options(call)) as response:
            if response.status_code >= 400:
                response.read()  # the error body, for its message
            exchange.raise_for_error(response)
            for line in response.iter_lines():
                if line:
                    yield line + "\n"

    def export_to(self, persona: str, path: str | Path, *, with_vectors: bool = False) -> int:
        """Write the persona's export to ``path``; returns the number of lines."""
        count = 0
        with Path(path).open("w", encoding="utf-8") as handle:
            for line in self.export_lines(persona, with_vectors=with_vectors):
                handle.write(line)
                count += 1
        return count

    def import_file(
        self,
        persona: str,
        file: str | Path | bytes,
        *,
        merge: bool = False,
        source: str = "omoide",
        user_id: str | None = None,
        user_name: str | None = None,
        assistant_name: str | None = None,
    ) -> ImportReply:
        """Import an Omoide export (``source="omoide"``) or a ``mem0`` / ``mcp-memory`` /
        ``chat`` file into the persona; the answer counts what was written."""
        data = file if isinstance(file, bytes) else Path(file).read_bytes()
        return self._run(
            calls.import_persona(
                persona,
                data,
                merge=merge,
                source=source,
                user_id=user_id,
                user_name=user_name,
                assistant_name=assistant_name,
            )
        )
