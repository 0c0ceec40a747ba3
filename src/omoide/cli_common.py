"""What every ``omoide`` command module shares: the data folder, building the app, the common
options, one-line errors and printing. A module of its own so that each command module imports
it rather than ``omoide.cli``, which imports them (any of them can be imported first).
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from omoide.cli_types import LIMIT, OFFSET, VERBATIM, Verbatim
from omoide.config import Settings
from omoide.engine.counts import how_many
from omoide.errors import NotFound, OmoideError
from omoide.model import SCRUB_PENDING_MEANS
from omoide.stopping import Hurry

__all__ = [
    "SCRUB_LEFT",
    "SCRUB_PENDING",
    "SCRUB_WAIT_S",
    "_build",
    "_print",
    "_settings",
    "built",
    "close_server",
    "data_option",
    "field_lines",
    "folder_hold",
    "friendly",
    "holding",
    "how_many",
    "json_option",
    "on_named_persona",
    "one_line",
    "page_options",
    "persona_name",
    "persona_option",
    "require_mcp_persona",
    "run_until_stopped",
]


# how long a command that erased waits, before it ends, for the scrub its erase owes
SCRUB_WAIT_S = 10.0

# who scrubs the files an erase still owes once this process has ended (``scrub_pending``)
SCRUB_LEFT = (
    "they are scrubbed by the next Omoide process to open the folder once that read has ended, "
    "or at the next erase (PostgreSQL: the database records the VACUUM as owed, and the next "
    "Omoide process to open it runs it; autovacuum meanwhile)"
)

# what an erasing command says when its text is still in the folder's files (``scrub_pending``)
SCRUB_PENDING = (
    f"{SCRUB_PENDING_MEANS}, and this command could not wait longer for them: {SCRUB_LEFT}"
)


def _nfc_text(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The command's text arguments (content, query, tags, names…) in Unicode NFC, as HTTP, MCP
    and import read them, so "café" typed in either form is one memory and one query; a path
    (``click.Path``: a ``Path`` or file, not a string) or a ``VERBATIM`` option stays as typed."""
    from omoide.service.validate import nfc

    try:
        params = {p.name: p for p in click.get_current_context().command.params}
    except RuntimeError:  # called outside click (a direct call in a test)
        params = {}
    verbatim = {
        name for name, p in params.items() if isinstance(p.type, (Verbatim, click.Path, click.File))
    }
    out = {}
    for name, value in kwargs.items():
        if name in verbatim:
            out[name] = value
        elif isinstance(value, str):
            out[name] = nfc(value)
        elif isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            out[name] = tuple(nfc(v) for v in value)
        else:
            out[name] = value
    return out


def _settings(data: str | None, **overrides: Any) -> Settings:
    return Settings.from_env(data_dir=Path(data) if data else None, **overrides)


def _build(data: str | None, *, check_embedder_record: bool = True, **overrides: Any) -> Any:
    from omoide.wiring import build

    return build(_settings(data, **overrides), check_embedder_record=check_embedder_record)


def folder_hold(settings: Settings, command: str, *, exclusive: bool = False) -> Any:
    """The data folder's lock for ``omoide <command>``, held inside a ``with`` block
    (wiring.hold_folder). A wrapper so that its five callers keep ``omoide.wiring`` out of
    start-up: importing it at module level would add ~1.0–1.4 s (every store, service and
    classifier module) to ``omoide --help``'s ~0.3–0.7 s of imports (``-X importtime``)."""
    from omoide.wiring import hold_folder

    return hold_folder(settings, command, exclusive=exclusive)


@contextlib.contextmanager
def holding(data: str | None, command: str, **overrides: Any) -> Iterator[Any]:
    """The app of a command that writes memories, conversations or their vectors, built and
    used under the folder's shared hold (store/sqlite/folder_lock.py): refused with a clear
    message while ``omoide reindex`` or ``omoide restore`` rewrites the folder, and either of
    those refused while it runs."""
    with folder_hold(_settings(data), command), built(data, scrub_wait=True, **overrides) as app:
        yield app


@contextlib.contextmanager
def built(data: str | None, *, scrub_wait: bool = False, **overrides: Any) -> Iterator[Any]:
    """The app of a command, closed as the command ends, whether it succeeds or fails: run
    in-process (a test, a program that embeds the CLI), an app left to the process's exit
    kept its database connections (a PostgreSQL pool) open until the garbage collector found
    them, and an open SQLite connection can hold back a later erase's checkpoint. A command
    that may erase (``scrub_wait``: every :func:`holding` one) waits for the scrub it owes
    (:func:`_close`); any other closes at once, an owed scrub tried once (``Omoide.close``)."""
    app = _build(data, **overrides)
    try:
        yield app
    finally:
        if scrub_wait:
            _close(app)
        else:
            app.close()


def _close(app: Any, hurry: threading.Event | None = None) -> None:
    """Close the app of a command about to end. A scrub its erase owes (``scrub_pending``:
    an older read holds the erased text, a VACUUM waits for its table) is tried for up to
    :data:`SCRUB_WAIT_S` first, said on stderr: no thread of this process outlives it to
    retry it, and the erased text would otherwise stay in the files until another process
    opens the store. ``hurry`` set (a server's second Ctrl+C, ``stopping.Hurry``) ends the
    wait at once, said too.
    The command's output then says whether it is still owed (``app.scrub_pending``)."""
    if app.scrub_pending:
        click.echo(
            f"erased: {SCRUB_PENDING_MEANS}: waiting up to {SCRUB_WAIT_S:g} s to scrub them",
            err=True,
        )
    app.close(scrub_wait_s=SCRUB_WAIT_S, give_up=hurry)
    if hurry is not None and hurry.is_set() and app.scrub_pending:
        click.echo(HURRIED, err=True)


# said when a second Ctrl+C (or SIGTERM) ended the wait for an owed scrub
HURRIED = "stopped waiting for the erase's scrub (a second Ctrl+C)"


def close_server(app: Any, hurry: threading.Event | None = None) -> None:
    """Close the app of a server that stops (``omoide serve``, ``omoide mcp``) as a command
    that erased closes its own (:func:`_close`): the scrub an erase of its owes is waited for,
    up to :data:`SCRUB_WAIT_S` (or until ``hurry`` is set: a server's second Ctrl+C),
    since the thread that retried it dies with the process; one still owed after that is said
    on stderr, in one line (before: one try, at once, and the log's warning only)."""
    _close(app, hurry)
    if app.scrub_pending:
        click.echo(
            f"the server stopped with an erase's scrub owed: {SCRUB_PENDING_MEANS}; {SCRUB_LEFT}",
            err=True,
        )


def run_until_stopped(app: Any, *, hurry: Hurry | None = None, **config: Any) -> None:
    """Serve ``app`` with uvicorn (``config``: ``uvicorn.Config``'s) until it is stopped (Ctrl+C,
    SIGTERM), then return, so that ``omoide serve`` ends as a server stopped on purpose does:
    exit status 0, nothing more said. The app was closed as its lifespan ended
    (:func:`close_server`). uvicorn's own ``run`` raises the stopping signal again once it has
    stopped: SIGTERM then ended the process by it (status -15, before the folder's hold was let
    go), and a second Ctrl+C during the stop printed a KeyboardInterrupt traceback. A server
    that never started (its port taken) exits 3, as uvicorn's ``run`` does.

    A second stop signal (Ctrl+C again, SIGTERM) while stopping sets ``hurry``
    (:class:`~omoide.stopping.Hurry`, as ``omoide mcp``'s does), which ends at once the wait for
    the jobs mid-run (``JobRunner.stop``), :func:`close_server`'s wait for an owed scrub (it ran
    its full 10 s), and uvicorn's wait for open connections; the app is still closed as its
    lifespan ends (uvicorn skips the app's shutdown on a forced quit: it was closed only as the
    event loop cancelled the lifespan, a traceback on stderr), and the process still exits 0:
    everything written is committed, and what the scrub left is said."""
    import uvicorn

    class _Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with _loop_signals(self.handle_exit):  # stopped on purpose: nothing to raise again
                yield

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.should_exit and hurry is not None:
                hurry.signalled(sig)
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets: Any = None) -> None:
            await super().shutdown(sockets)
            ended = getattr(self.lifespan, "shutdown_event", None)  # uvicorn's LifespanOn
            if self.force_exit and ended is not None and not ended.is_set():
                await self.lifespan.shutdown()  # skipped on a forced quit: ended all the same

    server = _Server(uvicorn.Config(app, **config))
    server.run()
    if not server.started:
        raise SystemExit(3)


@contextlib.contextmanager
def _loop_signals(handle: Callable[[int, Any], None]) -> Iterator[None]:
    """While inside, the running event loop's own handlers call ``handle(signum, None)`` for
    uvicorn's stop signals (SIGINT, SIGTERM): the loop wakes at once whenever one comes
    (``loop.add_signal_handler``: a signal's C handler writes it to the loop's wake-up pipe);
    then the handlers before are put back. Outside the main thread (an embedded server), none.

    uvicorn's own ``capture_signals`` installs Python-level handlers (``signal.signal``), which
    Python runs only in the main thread and only once that thread runs Python code again: a
    signal whose C handler ran while the loop's thread was on its way into ``epoll_wait``
    (after its last check of pending signals), or ran in another thread, waited for the next
    event that woke the loop. While stopping, the loop has nothing else to wake it: a second
    Ctrl+C during the wait for an erase's owed scrub was seen once that wait had run its full
    10 s (one fresh-clone CI run in many; measured: the signal delivered to the main thread,
    its handler run 10.0 s later, just as the wait ended)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    import asyncio
    import signal

    from uvicorn.server import HANDLED_SIGNALS

    loop = asyncio.get_running_loop()
    before = {signum: signal.getsignal(signum) for signum in HANDLED_SIGNALS}
    try:
        for signum in HANDLED_SIGNALS:
            loop.add_signal_handler(signum, handle, signum, None)
        yield
    finally:
        for signum, handler in before.items():
            loop.remove_signal_handler(signum)
            signal.signal(signum, handler)


def data_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The shared ``--data DIR`` option (default: $OMOIDE_DATA or ./data)."""
    return click.option(
        "--data",
        "data",
        default=None,
        envvar="OMOIDE_DATA",
        type=VERBATIM,
        help="Data folder (default: $OMOIDE_DATA or ./data).",
    )(fn)


def json_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Read the text arguments in NFC (:func:`_nfc_text`); turn an OmoideError into one line on
    stderr and exit status 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **_nfc_text(kwargs))
        except OmoideError as exc:
            raise click.ClickException(exc.message) from None

    return wrapper


def _print(data: Any, as_json: bool, text: Callable[[Any], str]) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2) if as_json else text(data))


def field_lines(row: dict[str, Any]) -> str:
    """One ``field: value`` line per field of a result's JSON (api/render.py): a text as it
    is, every other value as JSON writes it (``tags: ["home"]``, ``emotion_type: null``),
    never Python's ``['home']`` or ``None``."""
    return "\n".join(
        f"{k}: {v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}"
        for k, v in row.items()
    )


def one_line(text: str, width: int) -> str:
    """``text`` on one line of at most ``width`` characters: every run of whitespace (line
    breaks included: an episode is one line per turn) becomes one space, and a longer text ends
    in "…". A list prints one line per row, so ``grep``, ``wc -l`` and ``head`` count rows."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def page_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--limit`` and ``--offset`` of a list that pages newest first, as its HTTP route."""
    fn = click.option(
        "--offset",
        default=0,
        type=OFFSET,
        show_default=True,
        help="How many newest to skip.",
    )(fn)
    return click.option(
        "--limit",
        default=20,
        type=LIMIT,
        show_default=True,
        help=f"How many (1-{LIMIT.maximum}).",
    )(fn)


def persona_name(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """A click callback: a persona name (an option or argument) refused as it is read, before
    the command builds the app (which opens the data folder and loads the embedder: a second
    or more) — one line on stderr, exit status 1, as for any other error."""
    if value is None:
        return None
    from omoide.model.admin import check_persona_name

    try:
        return check_persona_name(value)
    except OmoideError as exc:
        raise click.ClickException(exc.message) from None


def on_named_persona(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--data``, ``--json`` and the persona ``NAME`` argument (checked as it is read), in
    that order: the head of every command on one persona named by its argument."""
    return data_option(json_option(click.argument("name", callback=persona_name)(fn)))


def persona_option(
    fn: Callable[..., Any] | None = None, *, help: str = "Persona name.", required: bool = True
) -> Any:
    """``--persona/-p NAME``, its name checked as it is read (:func:`persona_name`)."""
    option = click.option("--persona", "-p", required=required, help=help, callback=persona_name)
    return option if fn is None else option(fn)


def require_mcp_persona(app: Any, persona: str) -> None:
    """``persona`` exists, else the one line ``omoide mcp`` exits with (how to create it)."""
    try:
        app.maintenance.require_persona(persona)
    except OmoideError as exc:
        hint = (
            f"; create it with: omoide persona create {persona}"
            if isinstance(exc, NotFound)
            else ""
        )
        raise click.ClickException(exc.message + hint) from None
