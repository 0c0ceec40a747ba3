"""Keyword search in PostgreSQL, with the SQLite adapter's terms, pruning and scores.

The index tables keep the FTS5 shape (``{name}_fts`` and ``{name}_fts_tri``, ``rowid`` and
``body``; see ``migrations.py``), so writing rows is the SQLite adapter's
:meth:`~omoide.store.sqlite.fts.FtsIndex.index` unchanged: the words table gets the same body
(Latin words, CJK bigrams and each run's last character) and PostgreSQL derives an English
``tsvector`` from it (Snowball stemming where FTS5 uses Porter); the trigram table derives each
body's character trigrams. A query is split into the same terms as in SQLite:

- a Latin word → ``plainto_tsquery('english', word)`` on ``words`` (bound, so no operators);
- a 1-character CJK term → the prefix query ``'猫':*`` on ``words`` (bigrams starting with it,
  or a run's last character), a 2-character term → that bigram token;
- a CJK term of 3+ characters → its trigrams, each ``grams @> ARRAY[trigram]``.

Each term's document frequency gives its idf (FTS5's formula, floor and pruning are shared), and
a row scores the BM25 of each term it holds with a term frequency of one and no length
normalisation (``idf × (k1 + 1) / (1 + k1)``), summed and divided by the query's total idf: the
same *coverage* in [0, 1] that SQLite's scores mean. Among equal scores the shorter body ranks
first, then the older row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from omoide.engine.lang import query_terms
from omoide.store.sqlite.fts import _K1, FtsIndex, KeywordHit, _idf, _prune, _Term

__all__ = ["PgFtsIndex"]

_TF_ONE = (_K1 + 1) / (1 + _K1)
_ESTIMATE_ABOVE = 50_000  # count rows exactly up to here; above it the planner's estimate


@dataclass(frozen=True)
class _PgTerm:
    side: str  # "words" | "grams"
    condition: str  # SQL on the index table aliased f, with one ? parameter
    param: Any


class PgFtsIndex(FtsIndex):
    """An :class:`FtsIndex` whose search runs in PostgreSQL (its writes are the shared SQL)."""

    def optimize(self, conn: Any) -> None:
        """Nothing to merge: a deleted row's terms go with its row (vacuum reclaims the space)."""

    def pg_terms(self, query: str) -> list[_PgTerm]:
        terms = query_terms(query)
        out: list[_PgTerm] = []
        for word in terms.words:
            out.append(_PgTerm("words", "f.words @@ plainto_tsquery('english', ?)", word))
        for term in terms.cjk:
            cleaned = term.replace("\x00", "")
            if len(cleaned) == 1:
                out.append(_PgTerm("words", "f.words @@ to_tsquery('english', ?)",
                                   "'" + cleaned.replace("'", "''").replace("\\", "\\\\")
                                   + "':*"))
            elif len(cleaned) == 2:
                out.append(_PgTerm("words", "f.words @@ plainto_tsquery('english', ?)", cleaned))
            elif cleaned:
                grams = dict.fromkeys(cleaned[i:i + 3] for i in range(len(cleaned) - 2))
                out += [_PgTerm("grams", "f.grams @> ARRAY[?]::text[]", g) for g in grams]
        return list({(t.side, t.condition, t.param): t for t in out}.values())

    def search(self, conn: Any, *, persona_id: int, query: str, limit: int) -> list[KeywordHit]:
        terms = self.pg_terms(query)
        if not terms or limit <= 0:
            return []
        n_rows = self._rows(conn)
        if n_rows == 0:
            return []
        pool = max(limit * self.tuning.pool, self.tuning.min_pool)
        stats: list[tuple[_Term, _PgTerm]] = []
        for side, table in (("words", self.words_table), ("grams", self.trigram_table)):
            chosen = [(i, t) for i, t in enumerate(terms) if t.side == side]
            for (i, term), df in zip(chosen, self._frequencies(conn, table, chosen),
                                     strict=True):
                stats.append((_Term(table, str(i), df, _idf(n_rows, df)), term))
        by_expr = {t.expr: pg for t, pg in stats}
        kept = _prune([t for t, _ in stats], max_df=self.tuning.max_df * n_rows,
                      budget=self.tuning.row_budget)
        totals: dict[int, list[float]] = {}
        for table in (self.words_table, self.trigram_table):
            chosen = [(t, by_expr[t.expr]) for t in kept if t.table == table]
            for rowid, score, length in self._side(conn, table, chosen, persona_id, pool):
                entry = totals.setdefault(rowid, [0.0, float(length)])
                entry[0] += score
        total_idf = sum(t.idf for t, _ in stats)
        scale = 1.0 / total_idf if self.tuning.normalise and total_idf > 0 else 1.0
        ranked = sorted(totals.items(), key=lambda item: (-item[1][0], item[1][1], item[0]))
        return [KeywordHit(rowid, score * scale) for rowid, (score, _) in ranked[:limit]]

    def _frequencies(self, conn: Any, table: str,
                     chosen: Sequence[tuple[int, _PgTerm]]) -> list[int]:
        """Each term's document frequency over the whole table, in one statement (one bitmap
        scan of the GIN index for all of them)."""
        if not chosen:
            return []
        counts = ", ".join(f"count(*) FILTER (WHERE {t.condition})" for _, t in chosen)
        any_hit = " OR ".join(t.condition for _, t in chosen)
        params = [t.param for _, t in chosen] * 2
        row = conn.execute(f"SELECT {counts} FROM {table} f WHERE {any_hit}", params).fetchone()
        return [int(v) for v in row]

    def _rows(self, conn: Any) -> int:
        estimate = conn.execute("SELECT reltuples::bigint FROM pg_class WHERE oid = ?::regclass",
                                (self.trigram_table,)).fetchone()[0]
        if estimate is not None and estimate > _ESTIMATE_ABOVE:
            return int(estimate)
        return int(conn.execute(f"SELECT count(*) FROM {self.trigram_table}").fetchone()[0])

    def _side(self, conn: Any, table: str, chosen: Sequence[tuple[_Term, _PgTerm]],
              persona_id: int, pool: int) -> list[tuple[int, float, int]]:
        if not chosen:
            return []
        score = " + ".join(f"CASE WHEN {pg.condition} THEN ? ELSE 0 END" for _, pg in chosen)
        score_params = [v for t, pg in chosen for v in (pg.param, t.idf * _TF_ONE)]
        any_hit = " OR ".join(pg.condition for _, pg in chosen)
        sql = (f"SELECT f.rowid, {score} AS score, char_length(f.body) AS length "
               f"FROM {table} f JOIN {self.base_table} AS b ON b.id = f.rowid "
               f"WHERE ({any_hit}) AND {self._where_base()} "
               "ORDER BY score DESC, length, f.rowid LIMIT ?")
        params = [*score_params, *(pg.param for _, pg in chosen), persona_id, pool]
        return [(int(r[0]), float(r[1]), int(r[2])) for r in conn.execute(sql, params)]


def pg_index(index: FtsIndex) -> PgFtsIndex:
    """The PostgreSQL twin of one of the SQLite adapter's index declarations."""
    return PgFtsIndex(name=index.name, base_table=index.base_table,
                      content_col=index.content_col, persona_col=index.persona_col,
                      filter_sql=index.filter_sql, tuning=index.tuning)
