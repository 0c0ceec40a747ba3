"""The replies the OpenAPI document once published as bare objects (a block's metadata, the
context's sections, the settings, job failures, an import's skipped items, a version's before
and after) hold exactly the fields their models now name, through real HTTP (schema26)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from omoide_testing import LiveServer, post_unended_chat
from pydantic import BaseModel

from omoide.api.http.schemas.context import BlockOut, ContextOut, SettingsReply
from omoide.api.http.schemas.memories import HistoryReply
from omoide.api.http.schemas.system import JobsOut
from omoide.api.http.schemas.transfer import ImportReply


def exactly(model: type[BaseModel], reply: dict[str, Any]) -> None:
    """``reply`` validates as ``model`` and every object in it is one the model names: no
    field the document leaves out (a free-form map is a dict, not a model: not walked)."""
    def walk(value: Any, where: str) -> None:
        if isinstance(value, BaseModel):
            assert not value.model_extra, (where, value.model_extra)
            for name in type(value).model_fields:
                walk(getattr(value, name), f"{where}.{name}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{where}[{i}]")
    walk(model.model_validate(reply), model.__name__)


def test_blocks_context_settings_history_and_jobs_match_their_models(
        held_server: LiveServer) -> None:
    server = held_server
    with server.client(server.create_persona("rin")) as rin:
        assert rin.put("/api/settings/rin", json={"context_include_blocks": True,
                                                  "timezone": "Asia/Tokyo"}).status_code == 200
        assert rin.post("/api/blocks/rin", json={
            "block_name": "plans", "content": "Trip to Nara.",
            "metadata": {"from": "user", "tags": ["trip", 2], "deep": {"ok": None}}},
        ).status_code in (200, 201)
        key = rin.post("/api/memories/rin", json={"content": "Ken drinks green tea.",
                                                  "importance": 0.9}).json()["memory"]["key"]
        assert rin.patch(f"/api/memories/rin/{key}", json={"tags": ["drink"]}).status_code == 200
        assert rin.put("/api/user-state/rin", json={"name": "Ken"}).status_code == 200
        post_unended_chat(rin, "rin", "s1")
        assert rin.post("/api/sessions/rin/s1/end").status_code == 200

        block = rin.get("/api/blocks/rin/plans").json()
        exactly(BlockOut, block)
        assert block["metadata"]["deep"] == {"ok": None}
        context = rin.get("/api/context/rin").json()
        exactly(ContextOut, context)
        sections = context["sections"]
        assert sections["blocks"] and sections["last_conversation"]
        assert sections["recent_memories"] and sections["user"]["state"] == {"name": "Ken"}
        settings = rin.get("/api/settings/rin").json()
        exactly(SettingsReply, settings)
        assert settings["overrides"] == {"context_include_blocks": True,
                                         "timezone": "Asia/Tokyo"}
        history = rin.get(f"/api/memories/rin/{key}/history").json()
        exactly(HistoryReply, history)
        assert [v["before"] is None for v in history["versions"]] == [True, False]

        persona_id = server.omoide.store.get_persona("rin").id
        jobs = server.omoide.jobs
        job_id = jobs.enqueue(kind="memory.evolve", persona_id=persona_id,
                              payload={"key": key}, now=datetime.now(UTC), max_attempts=1)
        job = None
        while job is None or job.id != job_id:  # the writes above queued jobs first
            job = jobs.claim(now=datetime.now(UTC), persona_id=persona_id)
            assert job is not None
        assert jobs.fail(job, "boom", now=datetime.now(UTC), backoff_s=0) == "failed"
        report = rin.get("/api/jobs/rin").json()
        exactly(JobsOut, report)
        assert report["failures"][0]["last_error"] == "boom"


def test_an_mcp_memory_imports_skipped_items_match_their_model(server: LiveServer) -> None:
    lines = [{"type": "entity", "name": "Ken", "entityType": "person",
              "observations": ["drinks tea", "  "]}]
    body = "".join(json.dumps(line) + "\n" for line in lines)
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post("/api/import/rin?source=mcp-memory", content=body.encode(),
                         headers={"content-type": "application/x-ndjson"})
        assert reply.status_code == 200, reply.text
        exactly(ImportReply, reply.json())
        assert reply.json()["skipped_items"] == [
            {"line": 1, "entity": "Ken", "observation": 1, "reason": "blank observation"}]
