"""``omoide`` command line: serve, personas, memories, search, reindex, decay, stats, jobs.

Results go to stdout (JSON with ``--json``); logs and progress bars go to stderr, so that
``omoide mcp`` can own stdout for the protocol. A user mistake exits 1 with one line, never a
traceback.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import time
from typing import Any

import click

from omoide.cli_common import (
    _build,
    _print,
    _settings,
    built,
    close_server,
    data_option,
    field_lines,
    folder_hold,
    friendly,
    how_many,
    json_option,
    one_line,
    persona_option,
    require_mcp_persona,
    run_until_stopped,
)
from omoide.cli_interop import register as _register_interop
from omoide.cli_jobs import jobs
from omoide.cli_memory import memory, session
from omoide.cli_migrate import migrate
from omoide.cli_ops import register_ops
from omoide.cli_persona import persona
from omoide.cli_types import DATE_RANGE, PORT, SEARCH_MODE, TOP_K, VALID_AT, VERBATIM, NumberText
from omoide.errors import OmoideError
from omoide.stopping import Hurry

__all__ = ["main"]

_SERVERS = frozenset(("serve", "mcp"))  # commands that run until stopped


@click.group()
@click.version_option(package_name="omoide")
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Debug logging on stderr (without it a one-shot command logs warnings only).",
)
@click.pass_context
def main(ctx: click.Context, verbose: bool) -> None:
    """Omoide (思い出): long-term memory for AI personas."""
    import logging

    from omoide.config import log_format_from_env, warn_unknown_environ
    from omoide.logs import configure_logging

    os.umask(0o077)  # every file this process creates is private (the folder 0700, files 0600)
    # A server logs what it does (requests, jobs); a one-shot command prints its own result,
    # so the in-process job runner's and the services' info lines would only be noise.
    level = (
        logging.DEBUG
        if verbose
        else logging.INFO
        if ctx.invoked_subcommand in _SERVERS
        else logging.WARNING
    )
    try:
        configure_logging(level=level, fmt=log_format_from_env())
        warn_unknown_environ()  # a typo or a retired OMOIDE_* name, said once (docs/settings.md)
    except OmoideError as exc:
        raise click.ClickException(exc.message) from None


@main.command()
@data_option
@click.option(
    "--host",
    default=None,
    envvar="OMOIDE_HOST",
    type=VERBATIM,
    help="Bind address (default: $OMOIDE_HOST or 127.0.0.1).",
)
# No envvar= here: Settings reads OMOIDE_PORT itself, so a bad value is refused naming the
# variable ("OMOIDE_PORT must be an integer"), not an option the user never typed.
@click.option("--port", default=None, type=PORT, help="Port (default: $OMOIDE_PORT or 8765).")
@friendly
def serve(data: str | None, host: str | None, port: int | None) -> None:
    """Run the HTTP API (and MCP at /mcp) with background workers, until Ctrl+C or SIGTERM
    (exit status 0)."""
    from omoide.api.http.protocol import OmoideH11Protocol
    from omoide.api.http.server import check_listen_address, create_server_app

    settings = _settings(data, host=host, port=port)
    check_listen_address(settings.host, settings.port)  # before the folder and the model
    with folder_hold(settings, "serve"):  # no reindex under a running server
        # stopped (Ctrl+C, SIGTERM), it closes its app as its lifespan ends, the stop being
        # the server's normal end (run_until_stopped: exit status 0)
        hurry = Hurry()  # a second Ctrl+C: no more waiting for running jobs, an owed scrub
        on_stop = functools.partial(close_server, hurry=hurry.event)
        app, new_admin_key_file = create_server_app(settings, on_stop=on_stop, give_up=hurry.event)
        url = f"http://{settings.host}:{settings.port}"
        click.echo(f"Omoide {url}  (data: {settings.data_dir.resolve()})", err=True)
        click.echo(f"  dashboard: {url}/ (sign in with a key)", err=True)
        click.echo(f"  API docs: {url}/docs", err=True)
        if new_admin_key_file:  # never the key itself: stderr ends up in logs
            click.echo(
                f"  admin key: generated and saved in {new_admin_key_file} (mode 0600)", err=True
            )
        # Background jobs run Python code between their embeddings; a shorter GIL switch interval
        # (5 ms by default) lets a request's thread in sooner (bench/fairness.py).
        sys.setswitchinterval(0.001)
        # An MCP client's open event stream (GET /mcp) never ends on its own: without a
        # graceful-shutdown timeout, Ctrl+C would wait for every connected client to leave.
        run_until_stopped(
            app,
            hurry=hurry,
            host=settings.host,
            port=settings.port,
            log_level="warning",
            timeout_graceful_shutdown=3,
            http=OmoideH11Protocol,
        )


@main.command()
@data_option
@json_option
@persona_option
@click.argument("query")
@click.option("--top-k", default=10, type=TOP_K, show_default=True)
@click.option(
    "--mode",
    default="hybrid",
    show_default=True,
    type=SEARCH_MODE,
)
@click.option("--tag", "tags", multiple=True, help="Every tag must match (repeat, or a,b).")
@click.option("--date-range", default=None, type=DATE_RANGE, help="e.g. 'last week', '先週'.")
@click.option("--valid-at", default=None, type=VALID_AT, help="ISO time or 'now'.")
@friendly
def search(
    data: str | None,
    as_json: bool,
    persona: str,
    query: str,
    top_k: int,
    mode: str,
    tags: tuple[str, ...],
    date_range: str | None,
    valid_at: str | None,
) -> None:
    """Search a persona's memories."""
    from omoide.api.mcp.text import past_mark
    from omoide.api.render import render_search
    from omoide.service.validate import split_search_tags

    def similarity(row: dict[str, Any]) -> str:
        value = row.get("similarity")
        return f"{'-':^5}" if value is None else f"{value:.3f}"

    wanted = split_search_tags(tags, "--tag")  # refused before the folder is opened
    with built(data) as app:
        request = app.search.build_request(
            persona,
            query=query,
            top_k=top_k,
            mode=mode,
            tags=wanted,
            date_range=date_range,
            valid_at=valid_at,
        )
        rows = render_search(persona, app.search.search(persona, request))["results"]
        _print(
            rows,
            as_json,
            lambda rs: (
                "\n".join(
                    f"{r['score']:.3f}  {similarity(r)}  {r.get('key') or r.get('id')}  "
                    f"{one_line(r['content'], 80)}"
                    f"{past_mark(r)}"
                    for r in rs
                )
                or "(no results)"
            ),
        )


@main.command()
@data_option
@persona_option(help="Only this persona (default: all).", required=False)
@click.option(
    "--batch",
    default=64,
    type=NumberText(int, minimum=1),
    show_default=True,
    help="Rows re-embedded and written per transaction.",
)
@friendly
def reindex(data: str | None, persona: str | None, batch: int) -> None:
    """Re-embed memories, conversation turns and episodes with the configured embedder (after
    changing OMOIDE_EMBEDDER; stop the server first), then record it for the folder."""
    with folder_hold(_settings(data), "reindex", exclusive=True):  # refused while in use
        _reindex(data, persona, batch)


def _reindex(data: str | None, persona: str | None, batch: int) -> None:
    from omoide.wiring import vectors_holder

    with built(data, check_embedder_record=False) as app:
        model = app.embedder.model_id
        plan = app.reindex.plan(persona, holder=vectors_holder(app.settings))
        names = ", ".join(plan.personas) or "(no personas)"
        if plan.total == 0:
            report = app.reindex.run(plan)
            click.echo(f"{names}: every vector is already {model}", err=True)
        else:
            with click.progressbar(
                length=plan.total, label=f"re-embedding with {model}", file=sys.stderr
            ) as bar:
                report = app.reindex.run(plan, batch=batch, on_progress=bar.update)
            click.echo(
                f"{names}: {how_many(plan.count('memories'), 'memory')}, "
                f"{how_many(plan.count('events'), 'turn')}, "
                f"{how_many(plan.count('episodes'), 'episode')} re-embedded with {model}",
                err=True,
            )
        if not report.recorded:
            left = sum(report.remaining.values())
            raise click.ClickException(
                f"{how_many(left, 'vector')} of other models "
                f"{'remains' if left == 1 else 'remain'} in other personas; "
                "run `omoide reindex` without -p to finish"
            )
        click.echo(f"{vectors_holder(app.settings).place} now uses {model}", err=True)


@main.command()
@data_option
@persona_option(help="Only this persona (default: all).", required=False)
@friendly
def decay(data: str | None, persona: str | None) -> None:
    """Recompute FSRS strength for every memory now (all personas, or the one -p names)."""
    with built(data, embedder="hash", check_embedder_record=False) as app:  # decay embeds nothing
        started = time.perf_counter()
        n = app.maintenance.decay(persona)
        took = time.perf_counter() - started
        click.echo(f"decayed {how_many(n, 'memory')} in {took:.2f} s", err=True)


@main.command()
@data_option
@json_option
@persona_option
@friendly
def stats(data: str | None, as_json: bool, persona: str) -> None:
    """Memory statistics for a persona."""
    from omoide.api.render import render_stats

    with built(data) as app:
        _print(
            render_stats(app.memories.stats(persona)),
            as_json,
            field_lines,
        )


@main.command("mcp")
@data_option
@persona_option
def mcp_command(data: str | None, persona: str) -> None:
    """Serve MCP over stdio for one persona (Claude Desktop, Claude Code).

    stdout carries the protocol; logs go to stderr. Background jobs (evolution, segmentation,
    consolidation, decay) run in this process while the client is connected.
    """
    from omoide.api.mcp import run_stdio
    from omoide.api.mcp.stdio_stop import OrderlyStop

    # Nothing may reach stdout before the protocol starts (a model loader printing would
    # corrupt the client's first read), so building happens with stdout sent to stderr.
    # SIGTERM or SIGINT during the build unwinds it; during the stop it ends the stop's waits
    # (running jobs, an owed scrub) at once, as in ``omoide serve``: exit 0 either way.
    with OrderlyStop() as stopping, contextlib.ExitStack() as held:
        with contextlib.redirect_stdout(sys.stderr):
            try:
                held.enter_context(folder_hold(_settings(data), "mcp"))  # no reindex under it
                app = _build(data)
            except OmoideError as exc:
                raise click.ClickException(exc.message) from None
        try:
            require_mcp_persona(app, persona)  # before any protocol traffic
            run_stdio(app, persona, stopping)
        finally:  # the client closed the pipe: an erase's owed scrub is settled first
            stopping.hold()
            close_server(app, hurry=stopping.hurry.event)


main.add_command(persona)
main.add_command(memory)
main.add_command(jobs)
main.add_command(session)
register_ops(main, persona)
_register_interop(main)
main.add_command(migrate)


if __name__ == "__main__":  # python -m omoide.cli … (the same as the omoide command)
    main()
