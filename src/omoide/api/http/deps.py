"""Request dependencies: the wired app, the authenticated principal, the persona check."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request

from omoide.model import check_persona_name
from omoide.service.auth import Principal
from omoide.service.validate import NAME_PATTERN
from omoide.wiring import Omoide

__all__ = ["App", "Caller", "PersonaPath", "get_app", "persona_access", "principal"]

PersonaPath = Annotated[str, Path(pattern=NAME_PATTERN, description=(
    "Persona name: 1-64 ASCII letters, digits, '_' or '-'."))]


def get_app(request: Request) -> Omoide:
    return request.app.state.omoide


App = Annotated[Omoide, Depends(get_app)]


def principal(request: Request, app: App) -> Principal:
    """401 without a valid Bearer key."""
    return app.auth.authenticate(request.headers.get("authorization"))


Caller = Annotated[Principal, Depends(principal)]


def persona_access(persona: PersonaPath, caller: Caller, app: App) -> str:
    """401 → 403 (key of another persona) → 422 (bad name) → 404 (unknown persona).

    A read never creates a persona: the lookup raises NotFound.
    """
    caller.require_persona(persona)
    check_persona_name(persona)
    app.maintenance.require_persona(persona)
    return persona
