"""Build the served application from settings: wiring, admin key, HTTP app."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI

from omoide.api.http.app import create_app
from omoide.config import Settings
from omoide.wiring import Omoide, build

__all__ = ["create_server_app"]


def create_server_app(
    settings: Settings,
    *,
    on_stop: Callable[[Omoide], None] | None = None,
    give_up: threading.Event | None = None,
) -> tuple[FastAPI, Path | None]:
    """The app to serve, and the admin key's file if one was generated on this (first) start
    (the key itself is never printed or logged). ``on_stop`` closes the wiring as the app's
    lifespan ends (``omoide serve``: ``cli_common.close_server``); ``give_up`` set (a second
    Ctrl+C) ends the stop's wait for the jobs mid-run (``create_app``)."""
    omoide = build(settings)
    try:
        new_key_file = omoide.auth.ensure_admin_key(settings.data_dir, settings.admin_key)
    except BaseException:
        omoide.close()
        raise
    on_shutdown = None if on_stop is None else functools.partial(on_stop, omoide)
    return create_app(omoide, on_shutdown=on_shutdown, give_up=give_up), new_key_file
