"""A persona's API keys: issue another, list them, revoke one.

The admin may manage the keys of any persona (and so give a persona that lost its key a new
one); a persona key may manage its own persona's keys. A revoked key is refused on the next
request of every transport (REST, ``/mcp``, dashboard sessions).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path

from omoide.api.http.deps import App, named_persona_access
from omoide.api.http.schemas.common import errors
from omoide.api.http.schemas.keys import IssuedKeyOut, KeyList, KeyOut
from omoide.api.render import ts
from omoide.model import KeyInfo

__all__ = ["router"]

router = APIRouter(tags=["keys"])

_RESPONSES = errors(401, 403, 404, 422)

PersonaName = Annotated[str, Depends(named_persona_access)]  # admin or the persona's own key
KeyId = Annotated[int, Path(ge=1, le=2**62, description="The key's id (from the key list).")]


def _out(info: KeyInfo) -> dict[str, Any]:
    return {
        "key_id": info.id,
        "fingerprint": info.fingerprint,
        "created_at": ts(info.created_at),
        "last_used_at": ts(info.last_used_at),
        "revoked_at": ts(info.revoked_at),
    }


# response_model=None as on every other route: the reply's times as render.ts writes them
# (…+00:00); a response model re-serialised them as …Z, the one place that did.
@router.post(
    "/api/personas/{name}/keys",
    status_code=201,
    response_model=None,
    responses={
        201: {"model": IssuedKeyOut},
        **_RESPONSES,
        **errors(409),
    },  # 409: the persona erased meanwhile
    summary="Issue another key for a persona (admin, or the persona's own key); "
    "the reply is the only time it is shown",
)
def issue_key(name: PersonaName, app: App) -> dict[str, Any]:
    issued = app.auth.issue_key(name)
    return {**_out(issued.info), "persona": name, "api_key": issued.api_key}


@router.get(
    "/api/personas/{name}/keys",
    response_model=None,
    responses={200: {"model": KeyList}, **_RESPONSES},
    summary="A persona's keys (ids, fingerprints, creation, last use, revocation)",
)
def list_keys(name: PersonaName, app: App) -> dict[str, Any]:
    return {"persona": name, "keys": [_out(k) for k in app.auth.list_keys(name)]}


@router.delete(
    "/api/personas/{name}/keys/{key_id}",
    response_model=None,
    responses={200: {"model": KeyOut}, **_RESPONSES},
    summary="Revoke one key of a persona; it stops working at once, on every transport",
)
def revoke_key(name: PersonaName, key_id: KeyId, app: App) -> dict[str, Any]:
    return _out(app.auth.revoke_key(name, key_id))
