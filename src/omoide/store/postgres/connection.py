"""One psycopg connection seen through the interface the shared SQL is written against, the
``sqlite3`` one (``db.py`` pools and scopes these connections):

- statements are written with ``?`` placeholders (translated to psycopg's ``%s`` once per text,
  cached) and ``INSERT OR IGNORE`` / ``IS ?`` are given their PostgreSQL spelling; a cursor's
  ``lastrowid`` is the ``id`` an ``INSERT`` returned, as in DB-API;
- a row answers to a column index and to a column name, like ``sqlite3.Row``;
- text holding NUL, which PostgreSQL's cannot store (SQLite's can), is a clear
  :class:`~omoide.errors.InvalidInput`, a write the server's disk has no room for is
  :class:`~omoide.errors.StorageFull` and the server's other refusals (out of memory, a
  cancelled statement, a conflicting write …) :class:`~omoide.errors.StorageUnavailable`,
  not a 500 (``refusals.py``, applied by the pool's connection context to every statement
  on a pooled connection).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, ClassVar

import psycopg
from psycopg.errors import InsufficientPrivilege
from psycopg.pq import ExecStatus

from omoide.store.postgres.refusals import lacks_privilege
from omoide.store.postgres.rls import NO_PERSONA
from omoide.store.tracing import Tracer

__all__ = [
    "PgConnection",
    "PgCursor",
    "Row",
    "has_rows",
    "row_factory",
    "translate",
]


# Tables whose INSERT reports the new row's id (DB-API ``lastrowid``).
_ID_TABLES = frozenset(
    {
        "personas",
        "api_keys",
        "memories",
        "memory_versions",
        "memory_blocks",
        "user_state_history",
        "persona_state_history",
        "jobs",
        "sessions",
        "session_events",
        "episodes",
    }
)


_INSERT = re.compile(r"^\s*INSERT\s+(OR\s+IGNORE\s+)?INTO\s+([A-Za-z_]+)", re.IGNORECASE)


_IS_PARAM = re.compile(r"\bIS\s+\?", re.IGNORECASE)


@lru_cache(maxsize=2048)
def translate(statement: str) -> tuple[str, bool]:
    """The PostgreSQL text of a statement written for the shared SQL, and whether it returns
    the inserted id. Quoted literals are left alone; ``%`` is escaped for psycopg."""
    match = _INSERT.match(statement)
    ignore = bool(match and match.group(1))
    returns_id = bool(
        match and match.group(2) in _ID_TABLES and "RETURNING" not in statement.upper()
    )
    if ignore:
        statement = statement[: match.start(1)] + statement[match.end(1) :]  # type: ignore[union-attr]
    parts = re.split(r"('(?:[^']|'')*')", statement)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part.replace("%", "%%"))
            continue
        part = _IS_PARAM.sub("IS NOT DISTINCT FROM ?", part)
        out.append(part.replace("%", "%%").replace("?", "%s"))
    text = _scalar_min_max("".join(out)).rstrip().rstrip(";")
    if ignore:
        text += " ON CONFLICT DO NOTHING"
    if returns_id:
        text += " RETURNING id"
    return text, returns_id


_MIN_MAX = re.compile(r"\b(MIN|MAX)\(", re.IGNORECASE)


def _scalar_min_max(text: str) -> str:
    """SQLite's two-argument ``MIN(a, b)``/``MAX(a, b)`` are ``LEAST``/``GREATEST`` here; the
    one-argument aggregates stay."""
    out, at = [], 0
    for match in _MIN_MAX.finditer(text):
        depth, i, comma = 1, match.end(), False
        while i < len(text) and depth:
            char = text[i]
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            elif char == "," and depth == 1:
                comma = True
            elif char == "'":
                i = text.index("'", i + 1)
            i += 1
        if comma:
            out.append(text[at : match.start()])
            out.append("LEAST(" if match.group(1).upper() == "MIN" else "GREATEST(")
            at = match.end()
    out.append(text[at:])
    return "".join(out)


class Row(tuple):
    """A result row: ``row[0]`` and ``row["name"]`` both work, and ``dict(row)``."""

    __slots__ = ()
    _index: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


def row_factory(cursor: psycopg.Cursor[Any]) -> Any:
    # the names from the result itself: ``cursor.description`` builds a typed Column for each
    # (and a search reads rows of 25 columns several times)
    return _row_class(_names(cursor.pgresult))


def _names(result: Any) -> tuple[str, ...]:
    # any result with fields: a named cursor's rows are described before they are fetched
    if result is None:
        return ()
    return tuple((result.fname(i) or b"").decode() for i in range(result.nfields))


def has_rows(result: Any) -> bool:
    return result is not None and result.status == ExecStatus.TUPLES_OK


@lru_cache(maxsize=1024)
def _row_class(names: tuple[str, ...]) -> type[Row]:
    return type("Row", (Row,), {"__slots__": (), "_index": {n: i for i, n in enumerate(names)}})


class PgCursor:
    """Buffered results of one statement (what the shared code reads from a cursor)."""

    def __init__(self, rows: list[Row], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self._at = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def fetchone(self) -> Row | None:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Row]:
        rows, self._at = self._rows[self._at :], len(self._rows)
        return rows

    def fetchmany(self, size: int) -> list[Row]:
        rows = self._rows[self._at : self._at + size]
        self._at += len(rows)
        return rows

    def __iter__(self) -> Iterator[Row]:
        return iter(self.fetchall())


class PgConnection:
    """One psycopg connection seen through the shared SQL's interface."""

    def __init__(
        self, raw: psycopg.Connection[Any], tracer: Tracer | None = None, scope: str = NO_PERSONA
    ) -> None:
        self.raw = raw
        self.tracer = tracer
        self.scope = scope  # whose rows the open transaction sees (rls.py)

    def execute(self, statement: str, params: Sequence[Any] | None = None) -> PgCursor:
        if self.tracer is not None:
            self.tracer(statement)
        text, returns_id = translate(statement)
        with self.raw.cursor(row_factory=row_factory, binary=True) as cur:
            try:
                cur.execute(text.encode(), list(params) if params is not None else [])
            except InsufficientPrivilege as exc:  # naming the operation: the statement's
                raise lacks_privilege(self.raw, exc, statement) from exc
            rows = cur.fetchall() if has_rows(cur.pgresult) else []
            lastrowid = None
            if returns_id:
                lastrowid = int(rows[0][0]) if rows else None
                rows = []
            return PgCursor(rows, cur.rowcount, lastrowid)

    def executemany(self, statement: str, params: Iterable[Sequence[Any]]) -> PgCursor:
        if self.tracer is not None:
            self.tracer(statement)
        text, returns_id = translate(statement)
        if returns_id:
            text = text[: -len(" RETURNING id")]
        batch = [list(p) for p in params]
        if not batch:
            return PgCursor([], 0, None)
        with self.raw.cursor() as cur:
            try:
                cur.executemany(text.encode(), batch)
            except InsufficientPrivilege as exc:
                raise lacks_privilege(self.raw, exc, statement) from exc
            return PgCursor([], cur.rowcount, None)
