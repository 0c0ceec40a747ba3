"""Build the served application from settings: wiring, admin key, HTTP app."""

from __future__ import annotations

import errno
import functools
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI

from omoide.api.http.app import create_app
from omoide.config import Settings
from omoide.engine.errors import quoted
from omoide.errors import InvalidInput
from omoide.wiring import Omoide, build

__all__ = ["check_listen_address", "create_server_app"]


def check_listen_address(host: str, port: int) -> None:
    """Refuse, naming the setting, an address ``omoide serve`` cannot listen on, before the
    folder is opened and the model loaded: uvicorn said only "[Errno -2] Name or service not
    known" for a host name that does not resolve, and "[Errno 99] … cannot assign requested
    address" for an address of another machine, after the whole start-up."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise InvalidInput(
            f"OMOIDE_HOST (--host) {quoted(host)} is no address to listen on ({_reason(exc)}): "
            "give an address of this machine, e.g. 127.0.0.1, or 0.0.0.0 for every interface"
        ) from None
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            where = f"{host}:{port}"
            if exc.errno == errno.EADDRINUSE:
                raise InvalidInput(
                    f"OMOIDE_PORT (--port) {port} is in use on {host} (another server "
                    "listens there): stop it, or choose another port"
                ) from None
            raise InvalidInput(
                f"omoide serve cannot listen on {where} (OMOIDE_HOST / --host, OMOIDE_PORT / "
                f"--port): {_reason(exc)}"
            ) from None


def _reason(exc: BaseException) -> str:
    return str(getattr(exc, "strerror", None) or exc)


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
