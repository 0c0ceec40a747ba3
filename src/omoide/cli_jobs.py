"""``omoide jobs status|wait``: the persona's background job queue, read or drained (a benchmark
or a script waits for its evolution and consolidation before it searches)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import click

from omoide.cli_common import (
    _print,
    built,
    data_option,
    friendly,
    holding,
    how_many,
    json_option,
    one_line,
    persona_option,
)
from omoide.cli_types import TIMEOUT

__all__ = ["jobs"]


@click.group()
def jobs() -> None:
    """Inspect and drain the background job queue."""


@jobs.command("status")
@data_option
@json_option
@persona_option
@friendly
def jobs_status(data: str | None, as_json: bool, persona: str) -> None:
    """The persona's job counts and its last failures, as GET /api/jobs/{persona} gives them."""
    with built(data) as app:
        out = app.maintenance.job_report(persona).as_dict()
        _print(
            out,
            as_json,
            lambda d: "\n".join(
                [
                    f"pending={d['pending']} running={d['running']} failed={d['failed']} "
                    f"done={d['done']} "
                    f"scheduled={d['scheduled']}",
                    *(
                        f"failed job {f['id']} {f['kind']} after "
                        f"{how_many(f['attempts'], 'attempt')}: "
                        f"{one_line(f['last_error'] or '', 200)}"
                        for f in d["failures"]
                    ),
                ]
            ),
        )


@jobs.command("wait")
@data_option
@json_option
@persona_option
@click.option(
    "--timeout",
    default=600,
    type=TIMEOUT,
    show_default=True,
    help="Seconds to wait at most (0-3600).",
)
@click.option(
    "--run/--no-run",
    default=True,
    show_default=True,
    help="Run ready jobs in this process too (else only wait for the server).",
)
@friendly
def jobs_wait(data: str | None, as_json: bool, persona: str, timeout: float, run: bool) -> None:
    """Wait until the persona's queue is empty (pending + running == 0); other personas'
    jobs are not waited for. Progress goes to stderr."""
    # Running jobs writes (notes, vectors): under the folder's hold; only waiting reads.
    with holding(data, "jobs wait") if run else built(data) as app:
        state = app.queue.wait(persona, timeout=timeout, run=run, on_progress=_queue_progress())
    out = {
        "persona": persona,
        "pending": state.pending,
        "running": state.running,
        "failed": state.failed,
    }
    _print(
        out,
        as_json,
        lambda d: f"pending={d['pending']} running={d['running']} failed={d['failed']}",
    )
    if not state.drained:
        raise click.ClickException(f"queue not empty after {timeout:.0f} s")


def _queue_progress() -> Callable[[Any], None]:
    """A progress line on stderr: rewritten in place on a terminal, else one line a second."""
    tty = sys.stderr.isatty()
    last = [0.0]

    def show(state: Any) -> None:
        line = (
            f"{state.persona}: {state.pending} pending, {state.running} running, "
            f"{state.done} done, {state.failed} failed"
        )
        if tty:
            click.echo(f"\r{line}\x1b[K", nl=state.drained, err=True)
        elif state.drained or time.monotonic() - last[0] >= 1.0:
            last[0] = time.monotonic()
            click.echo(line, err=True)

    return show
