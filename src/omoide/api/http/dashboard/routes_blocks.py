"""Named memory blocks: list by priority, create or edit with a live token count, delete."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from omoide.api.http.dashboard.web import (
    DashboardRoute,
    PersonaPage,
    SignedIn,
    Viewer,
    controls_refused,
    form_data,
    form_page,
    render,
)
from omoide.api.http.deps import App
from omoide.engine.number_text import REFUSED, read_integer, refusal
from omoide.engine.tokens import estimate_tokens
from omoide.errors import InvalidInput
from omoide.model import DEFAULT_MAX_TOKENS
from omoide.service.blocks import BLOCK_TYPES, STANDARD_BLOCKS
from omoide.wiring import Omoide

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)


def _page(
    request: Request,
    persona: str,
    viewer: Viewer,
    app: Omoide,
    *,
    edit: dict[str, object] | None = None,
    error: str | None = None,
    status: int = 200,
) -> Response:
    blocks = app.blocks.list_blocks(persona)
    return render(
        request,
        "blocks.html",
        status=status,
        viewer=viewer,
        persona=persona,
        tab="blocks",
        blocks=[(b, estimate_tokens(b.content)) for b in blocks],
        edit=edit
        or {
            "block_name": "",
            "content": "",
            "block_type": "custom",
            "max_tokens": DEFAULT_MAX_TOKENS,
            "priority": 0,
            "existing": False,
        },
        standard=STANDARD_BLOCKS,
        block_types=BLOCK_TYPES,
        error=error,
        tokens=estimate_tokens(str((edit or {}).get("content", ""))),
    )


@router.get("/p/{persona}/blocks")
def blocks(
    request: Request, persona: PersonaPage, viewer: SignedIn, app: App, edit: str = ""
) -> Response:
    if not edit:
        return _page(request, persona, viewer, app)
    block = app.blocks.get_block(persona, edit)
    return _page(
        request,
        persona,
        viewer,
        app,
        edit={
            "block_name": block.block_name,
            "content": block.content,
            "block_type": block.block_type,
            "max_tokens": block.max_tokens,
            "priority": block.priority,
            "existing": True,
        },
    )


def _int(form: dict[str, str], name: str) -> int:
    """A whole number typed in the form, read as the settings form reads its numbers
    (``engine.number_text``: ``1_0`` was ten to ``int()``)."""
    try:
        return read_integer(form.get(name, ""), name=name)
    except REFUSED as exc:
        raise InvalidInput(refusal(name, exc), field=name) from None


# the editor's one-line fields, shown back when the form is refused: a control character in
# one is refused naming it, the editor holding the text without it (the content is the
# block's text, kept as the service takes it)
_ONE_LINE = {
    "block_name": "name",
    "block_type": "type",
    "max_tokens": "max tokens",
    "priority": "priority",
}


@router.post("/p/{persona}/blocks")
async def write_block(
    request: Request, persona: PersonaPage, viewer: SignedIn, app: App
) -> Response:
    form = await form_data(request)
    edit: dict[str, object] = {
        k: form.get(k, "")
        for k in ("block_name", "content", "block_type", "max_tokens", "priority")
    }
    edit["existing"] = form.get("existing") == "1"
    error = controls_refused(edit, _ONE_LINE)
    if error is None:
        try:
            app.blocks.write_block(
                persona,
                block_name=form.get("block_name", "").strip(),
                content=form.get("content", ""),
                block_type=form.get("block_type", "").strip() or "custom",
                max_tokens=_int(form, "max_tokens"),
                priority=_int(form, "priority"),
            )
        except InvalidInput as exc:
            error = exc.message
        else:
            return RedirectResponse(f"/p/{persona}/blocks", status_code=303)
    return _page(request, persona, viewer, app, edit=edit, error=error, status=422)


@router.get("/p/{persona}/blocks/{block_name}/delete")
@router.get("/p/{persona}/blocks/tokens")
def blocks_form(persona: str) -> Response:
    return form_page("p", persona, "blocks")


@router.post("/p/{persona}/blocks/{block_name}/delete")
def delete_block(persona: PersonaPage, block_name: str, viewer: SignedIn, app: App) -> Response:
    app.blocks.delete_block(persona, block_name)
    return RedirectResponse(f"/p/{persona}/blocks", status_code=303)


@router.post("/p/{persona}/blocks/tokens")
async def count_tokens(request: Request, persona: PersonaPage, viewer: SignedIn) -> Response:
    """The live token count of the block editor: the same estimate the service enforces."""
    form = await form_data(request)
    if "content" not in form:
        raise InvalidInput("post the block's content as the form field 'content'")
    return JSONResponse({"tokens": estimate_tokens(form["content"])})
