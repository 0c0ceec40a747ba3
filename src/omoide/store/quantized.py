"""An int8 copy of vectors, for the first pass of an *exact* top-k search over many rows.

Exact search at 100k × 384 float32 reads 154 MB per query, which on a shared two-core machine
costs 15–40 ms however it is computed (memory bandwidth). One byte per dimension reads a quarter
of that, with an integer dot-product kernel (``simsimd``; numpy has none for int8).

Each row ``x`` is stored as ``scale · codes`` (codes in −127…127, ``scale = max|x| / 127``),
with the norm of what rounding lost (``error = ‖x − scale · codes‖``) and of what was kept
(``kept = ‖scale · codes‖``). For a query ``y`` stored the same way, Cauchy–Schwarz bounds the
first pass's error on every row:

    |x·y − scale_x scale_y (codes_x · codes_y)| ≤ ‖y‖ error_x + error_y kept_x

so a row whose upper bound is below the k-th best lower bound cannot be in the top k, and only
the rows left are scored exactly (:meth:`QuantizedRows.survivors`). The answer is the exact
search's answer, not an approximation of it; what the first pass saves depends only on how many
rows the bound lets through (a few hundred of 100k on the synthetic corpus).

Past :data:`MIN_CANDIDATES` rows an even cheaper pass comes first (:meth:`QuantizedRows.near`):
each row also keeps one bit per dimension, the sign of its centred vector (48 bytes at 384
dimensions, an eighth of the int8 codes), and only the rows whose signs differ least from the
query's (a Hamming distance weighted by the query's magnitudes; :func:`candidate_count` rows,
ties at the cut kept) go through the int8 pass. That step is a filter, not a bound: a row of
the exact top ``limit`` that more than that many rows beat on signs is lost. The count was
chosen on measured candidate recall (``bench/results/prefilter_recall.md``); with at least as
many candidates as rows, the answer is the exact one.

Every per-search array lives in buffers kept with the rows: on this machine the first touch of
fresh memory costs ~1 ms per MB, more than the arithmetic done in it.
"""

from __future__ import annotations

import ctypes
import math
import sys

import numpy as np
import simsimd

__all__ = ["CANDIDATE_SHARE", "MIN_CANDIDATES", "QuantizedRows", "candidate_count"]

_LEVELS = 127.0
# Room for float32 rounding in the bound and in the exact scores the survivors are ranked by
# (~1e-6); far below any score difference that ranks anything.
_SLACK = 1e-4
_CHUNK = 2048  # rows quantized at a time (small temporaries)
# Rows per integer pass call. simsimd holds the GIL while it runs (~4.5 ms for 100k rows here),
# so the search's keyword thread, whose SQLite statements release the GIL, cannot take it back
# when a statement returns until the call ends; between calls the interpreter hands it over
# once the thread has waited one switch interval (1 ms under ``omoide serve``). An explicit
# yield (``time.sleep(0)``) between calls was slower on the loaded machine (a yield can lose the
# core), so there is none.
PASS_ROWS = 16_384
# The sign prefilter keeps this share of the rows searched, and never fewer than MIN_CANDIDATES
# (below that many rows every row goes through the int8 pass).
CANDIDATE_SHARE = 1 / 20
MIN_CANDIDATES = 2_000


def candidate_count(
    rows: int, *, share: float = CANDIDATE_SHARE, floor: int = MIN_CANDIDATES
) -> int:
    """How many rows of ``rows`` the sign prefilter passes to the int8 pass."""
    return max(floor, math.ceil(rows * share))


def _none_refs_lost() -> int:
    """References to ``None`` one ``simsimd.cdist(..., out=...)`` call takes away: simsimd
    6.5.16 returns ``None`` without a new reference when given ``out``, so each call lowers its
    count by one, and on Python 3.11 (``None`` is not immortal) the process aborts once it
    reaches zero ("deallocating None"). Measured once here, so a fixed simsimd costs nothing."""
    codes, out = np.zeros((1, 8), dtype=np.int8), np.zeros((1, 1), dtype=np.float32)
    calls = 64
    before = sys.getrefcount(None)
    for _ in range(calls):
        simsimd.cdist(codes, codes, metric="dot", out=out, out_dtype="float32")
    return max(0, round((before - sys.getrefcount(None)) / calls))


_NONE_REFS_LOST = _none_refs_lost()
_incref = ctypes.pythonapi.Py_IncRef
_incref.argtypes = [ctypes.py_object]
_incref.restype = None


def _dots(query: np.ndarray, codes: np.ndarray, out: np.ndarray) -> None:
    """``out[0, i] = query[0] · codes[i]`` (int8, exact), giving back what the call took."""
    simsimd.cdist(query, codes, metric="dot", out=out, out_dtype="float32")
    for _ in range(_NONE_REFS_LOST):
        _incref(None)


class QuantizedRows:
    """Int8 rows with their scales and error norms, grown like the index that owns them.

    Not thread-safe: the owning :class:`~omoide.store.vectors.VectorIndex` holds its lock."""

    def __init__(
        self,
        dim: int,
        capacity: int,
        *,
        pass_rows: int = PASS_ROWS,
        share: float = CANDIDATE_SHARE,
        floor: int | None = MIN_CANDIDATES,
    ) -> None:
        """``floor=None`` turns the sign prefilter off (every row takes the int8 pass)."""
        self.dim = dim
        self.pass_rows = pass_rows
        self.share, self.floor = share, floor
        self.words = -(-dim // 64)  # 64-bit words of sign bits per row (zero-padded)
        self._picked = np.zeros((0, dim), dtype=np.int8)
        self._alloc(capacity, 0)

    def _alloc(self, capacity: int, keep: int) -> None:
        codes = np.zeros((capacity, self.dim), dtype=np.int8)
        scale, error, kept = (np.zeros(capacity, dtype=np.float32) for _ in range(3))
        # Sign bits stored word-major (one contiguous array per 64 dimensions), so the
        # Hamming distance is a few whole-array operations.
        signs = np.zeros((self.words, capacity), dtype=np.uint64)
        if keep:
            codes[:keep], scale[:keep] = self.codes[:keep], self.scale[:keep]
            error[:keep], kept[:keep] = self.error[:keep], self.kept[:keep]
            signs[:, :keep] = self.signs[:, :keep]
        self.codes, self.scale, self.error, self.kept = codes, scale, error, kept
        self.signs = signs
        self._dots, self._bound, self._lower = (
            np.zeros(capacity, dtype=np.float32) for _ in range(3)
        )
        self._pass = np.zeros(capacity, dtype=bool)
        self._xor = np.zeros(capacity, dtype=np.uint64)
        self._ones = np.zeros(capacity, dtype=np.uint8)
        self._distance = np.zeros(capacity, dtype=np.uint16)

    def grow(self, capacity: int, keep: int) -> None:
        """Room for ``capacity`` rows, keeping the first ``keep``."""
        self._alloc(capacity, keep)

    def compact(self, keep: np.ndarray) -> None:
        """Move rows ``keep`` (ascending row numbers) to the front, in order."""
        size = int(keep.size)
        for part in (self.codes, self.scale, self.error, self.kept):
            part[:size] = part[keep]
        self.signs[:, :size] = self.signs[:, keep]

    def set(self, start: int, rows: np.ndarray) -> None:
        """Store float rows as rows ``start…`` (in small chunks)."""
        for begin in range(0, len(rows), _CHUNK):
            chunk = np.asarray(rows[begin : begin + _CHUNK], dtype=np.float32)
            at = slice(start + begin, start + begin + len(chunk))
            codes, scale, error, kept = _quantize(chunk)
            self.codes[at], self.scale[at], self.error[at], self.kept[at] = (
                codes,
                scale,
                error,
                kept,
            )
            self.signs[:, at] = _signs(codes, self.words).T

    def survivors(
        self, query: np.ndarray, n: int, limit: int, allowed: np.ndarray | None = None
    ) -> np.ndarray:
        """Row numbers (of the first ``n``) that may be among the ``limit`` largest
        ``row · query``; ``allowed`` (n booleans, None for all) restricts the rows.

        Past the prefilter's floor, only the rows :meth:`near` picks are considered. Every row
        returned has an upper bound at least the ``limit``-th largest lower bound of the rows
        considered, so every row left out of those scores below ``limit`` rows that were kept.
        """
        total = n if allowed is None else int(np.count_nonzero(allowed))
        if total <= limit:
            return np.arange(n) if allowed is None else np.flatnonzero(allowed)
        q_codes, q_scale, q_error, _ = _quantize(np.asarray(query, dtype=np.float32)[None, :])
        norm = np.float32(np.linalg.norm(query))
        if self.floor is None or total <= self.floor:
            picked = None
            codes, scale, error, kept = (
                self.codes[:n],
                self.scale[:n],
                self.error[:n],
                self.kept[:n],
            )
            count = n
        else:
            picked = self.near(
                q_codes, n, candidate_count(total, share=self.share, floor=self.floor), allowed
            )
            count = int(picked.size)
            if len(self._picked) < count:
                self._picked = np.zeros(
                    (max(count, 2 * len(self._picked)), self.dim), dtype=np.int8
                )
            codes = np.take(self.codes, picked, axis=0, out=self._picked[:count])
            scale, error, kept = self.scale[picked], self.error[picked], self.kept[picked]
            allowed = None  # the picked rows are all allowed
        if picked is not None and count <= limit:
            return picked
        approx, bound, lower = self._dots[:count], self._bound[:count], self._lower[:count]
        for begin in range(0, count, self.pass_rows):
            end = min(count, begin + self.pass_rows)
            # exact: |sum| ≤ 127² × dim < 2²⁴
            _dots(q_codes, codes[begin:end], approx[begin:end].reshape(1, end - begin))
        approx *= scale
        approx *= q_scale[0]
        np.multiply(error, norm, out=bound)
        np.multiply(kept, q_error[0], out=lower)
        bound += lower
        bound += _SLACK
        np.subtract(approx, bound, out=lower)
        approx += bound  # now the upper bounds
        if allowed is not None:
            np.copyto(lower, -np.inf, where=~allowed)
            np.copyto(approx, -np.inf, where=~allowed)
        lower.partition(count - limit)
        threshold = lower[count - limit]  # the limit-th largest lower bound
        chosen = np.flatnonzero(np.greater_equal(approx, threshold, out=self._pass[:count]))
        return chosen if picked is None else picked[chosen]

    def near(
        self, q_codes: np.ndarray, n: int, want: int, allowed: np.ndarray | None = None
    ) -> np.ndarray:
        """Row numbers (ascending) of the ``want`` rows of the first ``n`` nearest the query
        codes by weighted sign distance (all rows at the cut's distance are kept, so there may
        be a few more); every allowed row when there are no more than ``want``.

        The distance counts each dimension whose sign differs from the query's, twice where
        the query's magnitude is above its median: a differing sign costs a dot product more
        where the query is large (``bench/results/prefilter_recall.md``: top-50 recall for
        queries far from every row 0.87 with plain Hamming, 0.95 weighted, at 5%)."""
        distance, scratch, ones = self._distance[:n], self._xor[:n], self._ones[:n]
        distance[:] = 0
        query = _signs(q_codes, self.words)[0]
        size = np.abs(q_codes.astype(np.int16))
        large = _signs((size > np.median(size)).astype(np.int8), self.words)[0]
        for word in range(self.words):
            np.bitwise_xor(self.signs[word, :n], query[word], out=scratch)
            np.bitwise_count(scratch, out=ones)
            distance += ones
            np.bitwise_and(scratch, large[word], out=scratch)
            np.bitwise_count(scratch, out=ones)
            distance += ones
        beyond = self.words * 128 + 1  # farther than any row's distance
        if allowed is not None:
            np.copyto(distance, beyond, where=~allowed)
        reach = np.cumsum(np.bincount(distance, minlength=beyond + 1)[:beyond])
        if reach[-1] <= want:
            return np.flatnonzero(np.less(distance, beyond, out=self._pass[:n]))
        cut = int(np.searchsorted(reach, want))  # the smallest distance reaching want rows
        return np.flatnonzero(np.less_equal(distance, cut, out=self._pass[:n]))


def _signs(codes: np.ndarray, words: int) -> np.ndarray:
    """Each row's sign bits (code > 0), packed into ``words`` little-endian 64-bit words."""
    packed = np.packbits(codes > 0, axis=1, bitorder="little")
    padded = np.zeros((len(codes), words * 8), dtype=np.uint8)
    padded[:, : packed.shape[1]] = packed
    return padded.view("<u8")


def _quantize(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """float32 rows → (int8 codes, scale, error norm, kept norm)."""
    peak = np.abs(rows).max(axis=1)
    scale = np.where(peak > 0, peak / np.float32(_LEVELS), np.float32(1.0)).astype(np.float32)
    scaled = rows / scale[:, None]
    np.rint(scaled, out=scaled)
    np.clip(scaled, -_LEVELS, _LEVELS, out=scaled)
    codes = scaled.astype(np.int8)
    kept = codes * scale[:, None]
    norms = np.sqrt(np.einsum("ij,ij->i", kept, kept))
    kept -= rows
    errors = np.sqrt(np.einsum("ij,ij->i", kept, kept))
    return codes, scale, errors.astype(np.float32), norms.astype(np.float32)
