"""``/docs``: Swagger UI served from the package (``swagger-ui-dist`` from npm, vendored under
``static/swagger-ui`` with its licence), so the API reference works offline. FastAPI's own page
loads its assets from a CDN and carries an inline script; this one has neither.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from omoide.api.http.dashboard.web import render, security_headers

router = APIRouter(include_in_schema=False)


@router.get("/docs")
def swagger_ui(request: Request) -> Response:
    openapi_url = request.app.openapi_url or "/openapi.json"
    return security_headers(
        render(request, "docs.html", openapi_url=openapi_url, title=request.app.title)
    )
