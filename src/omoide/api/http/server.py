"""Build the served application from settings: wiring, admin key, HTTP app."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from omoide.api.http.app import create_app
from omoide.config import Settings
from omoide.wiring import build

__all__ = ["create_server_app"]


def create_server_app(settings: Settings) -> tuple[FastAPI, Path | None]:
    """The app to serve, and the admin key's file if one was generated on this (first) start
    (the key itself is never printed or logged)."""
    omoide = build(settings)
    try:
        new_key_file = omoide.auth.ensure_admin_key(settings.data_dir, settings.admin_key)
    except BaseException:
        omoide.close()
        raise
    return create_app(omoide), new_key_file
