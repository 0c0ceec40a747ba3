"""Fair embedding: interactive calls never wait behind background work.

:class:`FairEmbedder` wraps the configured model twice over:

- **Two instances.** Calls from job worker threads (threads that called
  :func:`mark_background_thread`) embed on a separate instance of the model, so a search
  never queues behind a batch of turns on the model's lock. The model's weights are memory-
  mapped, so the second instance costs only its scratch buffers.
- **Small slices, interactive first.** Background work embeds a few texts at a time (about one
  model input's worth) and, before each slice, steps aside while any interactive embedding is
  in flight (up to :data:`MAX_YIELD_S`, so it is never starved), leaving the CPU to the call a
  client is waiting for.
- **Lower CPU priority.** Worker threads run at a higher nice value (Linux, per thread).
- **Cut to the input length.** Each text is cut to what the model reads in one pass (the
  adapter's ``cut``, by its own tokenizer), so a 49k-character turn costs one model input, not
  twenty-four.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence

import numpy as np

from omoide.embed.base import Embedder

__all__ = ["MAX_YIELD_S", "SLICE_CHARS", "FairEmbedder", "is_background", "mark_background_thread"]

SLICE_CHARS = 2_000
"""Characters of text per background slice (≈ one 512-token model input; at least one text)."""
SLICE_TEXTS = 16
MAX_YIELD_S = 2.0
"""Longest a background slice waits for interactive calls to finish before it runs anyway."""

_local = threading.local()


BACKGROUND_NICE = 10
"""How much lower the CPU priority of a background worker thread is (Linux applies a thread's
nice value to that thread only), so embedding in the background leaves the cores to requests."""


def mark_background_thread() -> None:
    """Mark the calling thread as a background worker (job runner threads call this once) and
    lower its CPU priority where the platform allows it."""
    _local.background = True
    if sys.platform.startswith("linux"):
        tid = threading.get_native_id()
        with contextlib.suppress(OSError):
            current = os.getpriority(os.PRIO_PROCESS, tid)
            os.setpriority(os.PRIO_PROCESS, tid, min(19, current + BACKGROUND_NICE))


def is_background() -> bool:
    return bool(getattr(_local, "background", False))


class FairEmbedder:
    """An :class:`Embedder` that keeps interactive calls ahead of background work."""

    def __init__(self, interactive: Embedder, background: Embedder | None = None) -> None:
        self.inner = interactive
        self._background = background or interactive
        self.model_id = interactive.model_id
        self.dim = interactive.dim
        self.calibration = interactive.calibration
        self._cut: Callable[[str], str] = getattr(interactive, "cut", _identity)
        self._cut_background: Callable[[str], str] = getattr(self._background, "cut", _identity)
        self._busy = 0  # interactive embeddings in flight
        self._idle = threading.Condition()

    def cut(self, text: str) -> str:
        """``text`` cut to the model's input length (unchanged when it fits)."""
        return self._cut(text)

    def embed_query(self, text: str) -> np.ndarray:
        if is_background():
            self._yield()
            return self._background.embed_query(self._cut_background(text))
        with self._interactive():
            return self.inner.embed_query(self._cut(text))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not is_background():
            with self._interactive():
                return self.inner.embed_passages([self._cut(t) for t in texts])
        cut = [self._cut_background(t) for t in texts]
        if not cut:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        for piece in _slices(cut):
            self._yield()
            parts.append(self._background.embed_passages(piece))
        return np.concatenate(parts).astype(np.float32, copy=False)

    def _interactive(self) -> _InFlight:
        return _InFlight(self)

    def _yield(self) -> None:
        """Wait (bounded) until no interactive embedding is running."""
        deadline = time.monotonic() + MAX_YIELD_S
        with self._idle:
            while self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._idle.wait(left)


class _InFlight:
    def __init__(self, owner: FairEmbedder) -> None:
        self.owner = owner

    def __enter__(self) -> None:
        with self.owner._idle:
            self.owner._busy += 1

    def __exit__(self, *_: object) -> None:
        with self.owner._idle:
            self.owner._busy -= 1
            if not self.owner._busy:
                self.owner._idle.notify_all()


def _slices(texts: list[str]) -> list[list[str]]:
    """Consecutive groups of about :data:`SLICE_CHARS` characters (at least one text each)."""
    out: list[list[str]] = []
    current: list[str] = []
    size = 0
    for text in texts:
        if current and (size + len(text) > SLICE_CHARS or len(current) >= SLICE_TEXTS):
            out.append(current)
            current, size = [], 0
        current.append(text)
        size += len(text)
    if current:
        out.append(current)
    return out


def _identity(text: str) -> str:
    return text
