"""Build the served application from settings: wiring, admin key, HTTP app."""

from __future__ import annotations

from fastapi import FastAPI

from omoide.api.http.app import create_app
from omoide.config import Settings
from omoide.wiring import build

__all__ = ["create_server_app"]


def create_server_app(settings: Settings) -> tuple[FastAPI, str | None]:
    """The app to serve, and the admin key if one was generated on this (first) start."""
    omoide = build(settings)
    new_key = omoide.auth.ensure_admin_key(settings.data_dir, settings.admin_key)
    return create_app(omoide), new_key
