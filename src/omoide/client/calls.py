"""Every route of the HTTP API as a request description (:class:`Call`), shared by the sync and
async clients so both send exactly the same requests, with the pydantic model of its answer
(``omoide.api.http.schemas``, imported on first use so ``import omoide.client`` stays light).
Every public function here is one route. No I/O here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from omoide.client.call import JSON, Call, When, model

if TYPE_CHECKING:
    from omoide.api.http import schemas as s
    from omoide.api.http.schemas.transfer import ImportReply


def _p(segment: str) -> str:
    return quote(str(segment), safe="")


def _given(**values: Any) -> dict[str, Any]:
    """The fields actually given (None means "not given")."""
    return {k: v for k, v in values.items() if v is not None}


# -- personas (admin) ------------------------------------------------------------------------


def create_persona(name: str) -> Call[s.PersonaCreated]:
    return Call("POST", "/api/personas", json={"name": name}, parse=model("PersonaCreated"))


def list_personas() -> Call[s.PersonaList]:
    return Call("GET", "/api/personas", parse=model("PersonaList"))


def delete_persona(name: str) -> Call[s.PersonaErased]:
    return Call("DELETE", f"/api/personas/{_p(name)}", parse=model("PersonaErased"))


def issue_key(name: str) -> Call[s.IssuedKeyOut]:
    return Call("POST", f"/api/personas/{_p(name)}/keys", parse=model("IssuedKeyOut"))


def list_keys(name: str) -> Call[s.KeyList]:
    return Call("GET", f"/api/personas/{_p(name)}/keys", parse=model("KeyList"))


def revoke_key(name: str, key_id: int) -> Call[s.KeyOut]:
    return Call("DELETE", f"/api/personas/{_p(name)}/keys/{int(key_id)}", parse=model("KeyOut"))


# -- memories --------------------------------------------------------------------------------


def create_memory(persona: str, content: str, **fields: Any) -> Call[s.CreateReply]:
    return Call(
        "POST",
        f"/api/memories/{_p(persona)}",
        json={"content": content, **_given(**fields)},
        parse=model("CreateReply"),
    )


def list_memories(
    persona: str, *, limit: int = 20, offset: int = 0, include_deleted: bool = False
) -> Call[s.MemoryList]:
    return Call(
        "GET",
        f"/api/memories/{_p(persona)}",
        params={"limit": limit, "offset": offset, "include_deleted": str(include_deleted).lower()},
        parse=model("MemoryList"),
    )


def get_memory(persona: str, key: str) -> Call[s.MemoryOut]:
    return Call("GET", f"/api/memories/{_p(persona)}/{_p(key)}", parse=model("MemoryOut"))


def update_memory(persona: str, key: str, changes: Mapping[str, Any]) -> Call[s.MemoryOut]:
    return Call(
        "PATCH",
        f"/api/memories/{_p(persona)}/{_p(key)}",
        json=dict(changes),
        parse=model("MemoryOut"),
    )


def delete_memory(
    persona: str, key: str, *, purge: bool = False
) -> Call[s.MemoryOut | s.PurgeReply]:
    return Call(
        "DELETE",
        f"/api/memories/{_p(persona)}/{_p(key)}",
        params={"purge": "true"} if purge else {},
        parse=model("PurgeReply" if purge else "MemoryOut"),
    )


def memory_history(persona: str, key: str) -> Call[s.HistoryReply]:
    return Call(
        "GET", f"/api/memories/{_p(persona)}/{_p(key)}/history", parse=model("HistoryReply")
    )


def memory_links(persona: str, key: str) -> Call[s.LinksReply]:
    return Call("GET", f"/api/memories/{_p(persona)}/{_p(key)}/links", parse=model("LinksReply"))


def stats(persona: str) -> Call[s.StatsOut]:
    return Call("GET", f"/api/stats/{_p(persona)}", parse=model("StatsOut"))


def search(
    persona: str,
    query: str,
    *,
    top_k: int | None = None,
    mode: str | None = None,
    tags: Sequence[str] | None = None,
    date_range: str | None = None,
    valid_at: When | None = None,
    min_importance: float | None = None,
    kind: str | None = None,
    importance_weight: float | None = None,
    include_episodes: bool | None = None,
) -> Call[s.SearchReply]:
    params = _given(
        q=query,
        top_k=top_k,
        mode=mode,
        date_range=date_range,
        valid_at=valid_at,
        min_importance=min_importance,
        kind=kind,
        importance_weight=importance_weight,
    )
    if tags:
        params["tags"] = list(tags)
    if include_episodes is not None:
        params["include_episodes"] = str(include_episodes).lower()
    return Call("GET", f"/api/search/{_p(persona)}", params=params, parse=model("SearchReply"))


# -- sessions --------------------------------------------------------------------------------


def open_session(
    persona: str, session_id: str | None = None, started_at: When | None = None
) -> Call[s.SessionOpened]:
    return Call(
        "POST",
        f"/api/sessions/{_p(persona)}",
        json=_given(session_id=session_id, started_at=started_at),
        parse=model("SessionOpened"),
    )


def list_sessions(persona: str, *, limit: int = 20, offset: int = 0) -> Call[s.SessionList]:
    return Call(
        "GET",
        f"/api/sessions/{_p(persona)}",
        params={"limit": limit, "offset": offset},
        parse=model("SessionList"),
    )


def record_events(
    persona: str, session_id: str, events: Sequence[Mapping[str, Any]]
) -> Call[s.EventsReply]:
    return Call(
        "POST",
        f"/api/sessions/{_p(persona)}/{_p(session_id)}/events",
        json={"events": [dict(e) for e in events]},
        parse=model("EventsReply"),
    )


def end_session(persona: str, session_id: str) -> Call[s.SessionEndReply]:
    return Call(
        "POST", f"/api/sessions/{_p(persona)}/{_p(session_id)}/end", parse=model("SessionEndReply")
    )


def session_episodes(persona: str, session_id: str) -> Call[s.EpisodesReply]:
    return Call(
        "GET",
        f"/api/sessions/{_p(persona)}/{_p(session_id)}/episodes",
        parse=model("EpisodesReply"),
    )


def delete_session(
    persona: str, session_id: str, *, with_notes: bool = False
) -> Call[s.SessionErased]:
    return Call(
        "DELETE",
        f"/api/sessions/{_p(persona)}/{_p(session_id)}",
        params={"with_notes": "true"} if with_notes else {},
        parse=model("SessionErased"),
    )


# -- user and persona state ------------------------------------------------------------------


def get_state(persona: str, whose: str) -> Call[s.StateReply]:
    return Call("GET", f"/api/{_whose(whose)}/{_p(persona)}", parse=model("StateReply"))


def update_state(persona: str, whose: str, values: Mapping[str, Any]) -> Call[s.StateChanged]:
    return Call(
        "PUT", f"/api/{_whose(whose)}/{_p(persona)}", json=dict(values), parse=model("StateChanged")
    )


def state_history(
    persona: str, whose: str, key: str, at: When | None = None
) -> Call[s.StateHistory]:
    return Call(
        "GET",
        f"/api/{_whose(whose)}/{_p(persona)}/history",
        params=_given(key=key, at=at),
        parse=model("StateHistory"),
    )


def _whose(whose: str) -> str:
    if whose not in ("user", "persona"):
        raise ValueError("whose must be 'user' or 'persona'")
    return f"{whose}-state"


# -- blocks, context, settings ---------------------------------------------------------------


def list_blocks(persona: str) -> Call[s.BlockList]:
    return Call("GET", f"/api/blocks/{_p(persona)}", parse=model("BlockList"))


def get_block(persona: str, block_name: str) -> Call[s.BlockOut]:
    return Call("GET", f"/api/blocks/{_p(persona)}/{_p(block_name)}", parse=model("BlockOut"))


def write_block(
    persona: str, block_name: str, content: str, **fields: Any
) -> Call[s.WriteBlockReply]:
    return Call(
        "POST",
        f"/api/blocks/{_p(persona)}",
        json={"block_name": block_name, "content": content, **_given(**fields)},
        parse=model("WriteBlockReply"),
    )


def delete_block(persona: str, block_name: str) -> Call[s.OkReply]:
    return Call("DELETE", f"/api/blocks/{_p(persona)}/{_p(block_name)}", parse=model("OkReply"))


def get_context(persona: str) -> Call[s.ContextOut]:
    return Call("GET", f"/api/context/{_p(persona)}", parse=model("ContextOut"))


def begin_session(persona: str) -> Call[s.SessionStartOut]:
    return Call("POST", f"/api/context/{_p(persona)}/session", parse=model("SessionStartOut"))


def update_context(
    persona: str,
    *,
    user_info: Mapping[str, Any] | None = None,
    persona_state: Mapping[str, Any] | None = None,
) -> Call[s.ContextChanges]:
    return Call(
        "PUT",
        f"/api/context/{_p(persona)}",
        json=_given(user_info=user_info, persona_state=persona_state),
        parse=model("ContextChanges"),
    )


def get_settings(persona: str) -> Call[s.SettingsReply]:
    return Call("GET", f"/api/settings/{_p(persona)}", parse=model("SettingsReply"))


def update_settings(persona: str, changes: Mapping[str, Any]) -> Call[s.SettingsReply]:
    return Call(
        "PUT", f"/api/settings/{_p(persona)}", json=dict(changes), parse=model("SettingsReply")
    )


# -- jobs, system ----------------------------------------------------------------------------


def jobs(persona: str) -> Call[s.JobsOut]:
    return Call("GET", f"/api/jobs/{_p(persona)}", parse=model("JobsOut"))


def wait_for_jobs(persona: str, timeout: float = 60.0) -> Call[s.JobsWaitOut]:
    return Call(
        "GET",
        f"/api/jobs/{_p(persona)}/wait",
        params={"timeout": timeout},
        timeout=timeout + 30.0,
        parse=model("JobsWaitOut"),
    )


def health() -> Call[s.HealthOut]:
    return Call("GET", "/health", parse=model("HealthOut"))


def metrics() -> Call[str]:
    return Call("GET", "/metrics", text=True)


# -- chat proxy ------------------------------------------------------------------------------


def _chat_headers(persona: str | None, session_id: str | None = None) -> dict[str, str]:
    """The proxy's own headers: ``X-Omoide-Persona`` names the persona (needed with the admin
    key), ``X-Omoide-Session`` the conversation the turns are recorded in (docs/chat.md)."""
    headers = {"X-Omoide-Persona": persona} if persona is not None else {}
    return headers | ({"X-Omoide-Session": session_id} if session_id is not None else {})


def models(persona: str | None = None) -> Call[s.ModelList]:
    return Call("GET", "/v1/models", headers=_chat_headers(persona), parse=model("ModelList"))


def get_model(model_id: str, persona: str | None = None) -> Call[s.ModelOut]:
    return Call(
        "GET",
        f"/v1/models/{_p(model_id)}",
        headers=_chat_headers(persona),
        parse=model("ModelOut"),
    )


def chat_completion(
    messages: Sequence[Mapping[str, Any]],
    *,
    persona: str | None = None,
    session_id: str | None = None,
    **body: Any,
) -> Call[s.ChatCompletion]:
    if body.get("stream"):
        raise ValueError("stream=True: use an OpenAI client with base_url=<server>/v1")
    return Call(
        "POST",
        "/v1/chat/completions",
        json={"model": "omoide", **body, "messages": [dict(m) for m in messages]},
        headers=_chat_headers(persona, session_id),
        parse=model("ChatCompletion"),
    )


# -- export / import -------------------------------------------------------------------------


def export_persona(persona: str, *, with_vectors: bool = False) -> Call[JSON]:
    return Call(
        "GET", f"/api/export/{_p(persona)}", params={"with_vectors": "true"} if with_vectors else {}
    )


def import_persona(
    persona: str,
    data: bytes,
    *,
    merge: bool = False,
    source: str = "omoide",
    user_id: str | None = None,
    user_name: str | None = None,
    assistant_name: str | None = None,
) -> Call[ImportReply]:
    params = _given(
        source=source, user_id=user_id, user_name=user_name, assistant_name=assistant_name
    )
    if merge:
        params["merge"] = "true"
    media = "application/json" if source in ("mem0", "chat") else "application/x-ndjson"
    return Call(
        "POST",
        f"/api/import/{_p(persona)}",
        params=params,
        content=data,
        headers={"Content-Type": media},
        timeout=600.0,
        parse=model("ImportReply"),
    )
