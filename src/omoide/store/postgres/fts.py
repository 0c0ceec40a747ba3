"""Keyword search in PostgreSQL, with the SQLite adapter's terms, pruning and scores.

The index tables keep the FTS5 shape (``{name}_fts`` and ``{name}_fts_tri``, ``rowid`` and
``body``; see ``migration_sql.py``), so writing rows is the SQLite adapter's
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

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from omoide.engine.lang import fold_latin, query_terms
from omoide.store.postgres.term_stats import TermStats
from omoide.store.sqlite.fts import FtsIndex, KeywordHit
from omoide.store.sqlite.fts_terms import K1, Term, idf, prune

__all__ = ["FOLD_LATIN_BODIES", "FTS_PERSONAS", "PgFtsIndex"]

_TF_ONE = (K1 + 1) / (1 + K1)
_ESTIMATE_ABOVE = 50_000  # count rows exactly up to here; above it the planner's estimate
_COUNT_CAP = 1_000  # past _ESTIMATE_ABOVE, a term that is not common is counted up to here
_SCORED_CAP = 1_000  # rows scored of a side whose one kept term is over the row budget
# the lexeme of a one-word query, as pg_stats lists tsvector elements
_LEXEME = "trim(both '''' from plainto_tsquery('english', ?)::text)"


# PostgreSQL only (SQLite's FTS5 tables have no columns to add): each keyword index row carries
# its base row's persona, filled on insert by a trigger (the writes stay the SQLite adapter's
# ``rowid``/``body`` inserts) and indexed, so a persona's keyword candidates are found in the
# index tables alone, without a probe of the base table per matching row (migration 17).
_FTS_PERSONA_FUNCTION = """
CREATE FUNCTION omoide_fts_persona() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.persona_id IS NULL THEN
        EXECUTE format('SELECT persona_id FROM %I WHERE id = $1', TG_ARGV[0])
            INTO NEW.persona_id USING NEW.rowid;
    END IF;
    RETURN NEW;
END
$$
"""


def _fts_persona(base: str) -> str:
    """Migration 17 for the two index tables of ``base`` (whose rows have ``persona_id``)."""
    return ";".join(
        f"""
ALTER TABLE {table} ADD COLUMN persona_id BIGINT;
UPDATE {table} f SET persona_id = b.persona_id FROM {base} b WHERE b.id = f.rowid;
CREATE INDEX {table}_persona ON {table}(persona_id);
CREATE TRIGGER {table}_persona BEFORE INSERT ON {table}
    FOR EACH ROW EXECUTE FUNCTION omoide_fts_persona('{base}')"""
        for table in (f"{base}_fts", f"{base}_fts_tri")
    )


FTS_PERSONAS = ";".join(
    [
        _FTS_PERSONA_FUNCTION,
        *(_fts_persona(base) for base in ("memories", "episodes", "session_events")),
    ]
)


def _latin_folds() -> tuple[str, str]:
    """Each precomposed Latin letter with a diacritic (NFC) and its folded letter, as the two
    strings of a SQL ``translate()``: the rows an index holds are NFKC text (composed), so
    this folds them as :func:`~omoide.engine.lang.fold_latin` does."""
    pairs = [
        (ch, fold_latin(ch))
        for ch in map(chr, range(0x80, 0x3000))
        if unicodedata.normalize("NFC", ch) == ch and unicodedata.name(ch, "").startswith("LATIN ")
    ]
    kept = [(ch, folded) for ch, folded in pairs if len(folded) == 1 and folded != ch]
    return "".join(ch for ch, _ in kept), "".join(folded for _, folded in kept)


def _fold_bodies(table: str) -> str:
    source, target = _latin_folds()
    return (
        f"UPDATE {table} SET body = translate(body, '{source}', '{target}') "
        f"WHERE body ~ '[^\\x01-\\x7f]' AND body <> translate(body, '{source}', "
        f"'{target}')"
    )


# Migration 19: the words bodies written before Latin letters were folded (``words_body``),
# folded now, so that "cafe" finds "café" (the generated ``words`` column follows).
FOLD_LATIN_BODIES = ";".join(
    _fold_bodies(f"{base}_fts") for base in ("memories", "episodes", "session_events")
)


@dataclass(frozen=True)
class _PgTerm:
    side: str  # "words" | "grams"
    condition: str  # SQL on the index table aliased f, with one ? parameter
    param: Any
    prefix: str | None = None  # a 1-character CJK term: the prefix of the tokens it matches


@dataclass(frozen=True)
class PgFtsIndex(FtsIndex):
    """An :class:`FtsIndex` whose search runs in PostgreSQL (its writes are the shared SQL).
    Past ``estimate_above`` rows, its statistics are estimated (see :meth:`_statistics`)."""

    estimate_above: int = _ESTIMATE_ABOVE

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
                out.append(
                    _PgTerm(
                        "words",
                        "f.words @@ to_tsquery('english', ?)",
                        "'" + cleaned.replace("'", "''").replace("\\", "\\\\") + "':*",
                        prefix=cleaned,
                    )
                )
            elif len(cleaned) == 2:
                out.append(_PgTerm("words", "f.words @@ plainto_tsquery('english', ?)", cleaned))
            elif cleaned:
                grams = dict.fromkeys(cleaned[i : i + 3] for i in range(len(cleaned) - 2))
                out += [_PgTerm("grams", "f.grams @> ARRAY[?]::text[]", g) for g in grams]
        return list({(t.side, t.condition, t.param): t for t in out}.values())

    def search(
        self, conn: Any, *, persona_id: int, query: str, limit: int, stats: TermStats | None = None
    ) -> list[KeywordHit]:
        """Two statements: the table's size and each term's document frequency, then both
        sides' candidates (see :meth:`_statistics` and :meth:`_sides`). With ``stats``, a
        query whose every term is common by the statistics an earlier search read skips the
        first (see ``term_stats.py``)."""
        terms = self.pg_terms(query)
        if not terms or limit <= 0:
            return []
        keys = [(t.side, t.condition, t.param) for t in terms]
        kept = stats.lookup(self.trigram_table, keys) if stats is not None else None
        if kept is not None and stats is not None:
            stamp, dfs = kept
            hits = self._ranked(conn, terms, stamp[0], dfs, persona_id, limit, stamp=stamp)
            if hits is not None:
                return hits
            stats.forget(self.trigram_table)  # analysed since: read them again
        n_rows, dfs, common, stamp = self._statistics(conn, terms)
        if stats is not None and common and n_rows > self.estimate_above:
            stats.keep(self.trigram_table, stamp, {keys[i]: dfs[i] for i in common})
        return self._ranked(conn, terms, n_rows, dfs, persona_id, limit) or []

    def held_by(
        self, conn: Any, *, persona_id: int, words: Sequence[str], share: float, least: int
    ) -> frozenset[str]:
        """As the SQLite index's: the ``words`` that at least ``share`` of the persona's
        indexed rows hold (and at least ``least``), in one statement, each count stopping at
        the bar."""
        if not words or share <= 0.0:
            return frozenset()
        counts = ", ".join(
            f"(SELECT count(*) FROM (SELECT 1 FROM {self.words_table} f WHERE "
            "f.words @@ plainto_tsquery('english', ?) AND f.persona_id = ? "
            "LIMIT (SELECT need FROM bar)) AS c)"
            for _ in words
        )
        sql = (
            f"WITH bar AS (SELECT GREATEST(?, CEIL(? * count(*))::bigint) AS need "
            f"FROM {self.words_table} f WHERE f.persona_id = ?) "
            f"SELECT (SELECT need FROM bar), {counts}"
        )
        params: list[object] = [least, share, persona_id]
        for word in words:
            params += [word, persona_id]
        row = conn.execute(sql, params).fetchone()
        return frozenset(w for w, n in zip(words, row[1:], strict=True) if int(n) >= int(row[0]))

    def _ranked(
        self,
        conn: Any,
        terms: list[_PgTerm],
        n_rows: int,
        dfs: list[int],
        persona_id: int,
        limit: int,
        *,
        stamp: tuple[int, ...] | None = None,
    ) -> list[KeywordHit] | None:
        """The hits, from the statistics given; None when they were kept ones (``stamp``)
        and the table's statistics have changed since, or cannot be checked."""
        if n_rows == 0:
            return []
        pool = max(limit * self.tuning.pool, self.tuning.min_pool)
        tables = {"words": self.words_table, "grams": self.trigram_table}
        stats = [
            (Term(tables[t.side], str(i), df, idf(n_rows, df)), t)
            for i, (t, df) in enumerate(zip(terms, dfs, strict=True))
        ]
        by_expr = {t.expr: pg for t, pg in stats}
        kept = prune(
            [t for t, _ in stats], max_df=self.tuning.max_df * n_rows, budget=self.tuning.row_budget
        )
        totals: dict[int, list[float]] = {}
        chosen = {
            table: [(t, by_expr[t.expr]) for t in kept if t.table == table]
            for table in tables.values()
        }
        rows, now = self._sides(conn, chosen, persona_id, pool, stamped=stamp is not None)
        if stamp is not None and now != stamp:
            return None
        for rowid, score, length in rows:
            entry = totals.setdefault(rowid, [0.0, float(length)])
            entry[0] += score
        total_idf = sum(t.idf for t, _ in stats)
        scale = 1.0 / total_idf if self.tuning.normalise and total_idf > 0 else 1.0
        ranked = sorted(totals.items(), key=lambda item: (-item[1][0], item[1][1], item[0]))
        return [KeywordHit(rowid, score * scale) for rowid, (score, _) in ranked[:limit]]

    def _statistics(
        self, conn: Any, terms: Sequence[_PgTerm]
    ) -> tuple[int, list[int], list[int], tuple[int, ...]]:
        """The index's row count, each term's document frequency, which of the terms took
        theirs from the columns' statistics (their positions), and the statistics' stamp
        (:meth:`_stamp_sql`), in one statement.

        Up to ``estimate_above`` rows both are exact (FTS5's numbers, so scores match
        SQLite's). Past it, the count is the planner's, and a term among the column's most
        common elements (``pg_stats``, kept by ANALYZE for tsvector lexemes and array
        elements) takes its frequency from there: counting a common term's rows would read a
        posting list of hundreds of thousands (a one-character term sums the frequencies of
        the tokens it prefixes, an upper bound). Other terms are rare by that token and are
        counted, up to :data:`_COUNT_CAP` rows (a term past that is taken to hold that many:
        its idf is underestimated, by 1.4 at 4× that many rows)."""
        tables = {"words": self.words_table, "grams": self.trigram_table}
        columns, params = [], []
        for term in terms:
            table = tables[term.side]
            exact = f"(SELECT count(*) FROM {table} f WHERE {term.condition})"
            capped = (
                f"(SELECT count(*) FROM (SELECT 1 FROM {table} f WHERE {term.condition} "
                f"LIMIT {_COUNT_CAP}) AS c)"
            )
            elements = f"FROM common e WHERE e.side = '{term.side}'"
            if term.prefix is not None:  # the tokens it prefixes: at most their summed rows
                common = (
                    f"(SELECT round(least(sum(e.freq), 1) * n.n) {elements} "
                    "AND starts_with(e.elem, ?))"
                )
                element = term.prefix
            else:
                lexeme = _LEXEME if term.side == "words" and "plainto" in term.condition else "?"
                common = f"(SELECT round(e.freq * n.n) {elements} AND e.elem = {lexeme} LIMIT 1)"
                element = term.param
            # negated: a frequency from the statistics (reusable, term_stats.py)
            columns.append(
                f"CASE WHEN n.n <= {self.estimate_above} THEN {exact} "
                f"ELSE COALESCE(-{common}, {capped}) END"
            )
            params += [term.param, element, term.param]
        tri = self.trigram_table
        # pg_stats (a view of several catalogues) is read once per statement, both columns
        # at once, and only past the threshold: planning it once per term cost more than
        # running the whole statement.
        sides = " OR ".join(
            f"(s.tablename = '{tables[side]}' AND s.attname = '{side}')"
            for side in dict.fromkeys(t.side for t in terms)
        )
        sql = (
            f"WITH n AS (SELECT CASE WHEN c.reltuples > {self.estimate_above} "
            f"THEN c.reltuples::bigint ELSE (SELECT count(*) FROM {tri}) END AS n "
            f"FROM pg_class c WHERE c.oid = '{tri}'::regclass), "
            "common AS MATERIALIZED (SELECT s.attname AS side, e.elem, e.freq "
            "FROM pg_stats s, unnest(s.most_common_elems::text::text[], "
            "s.most_common_elem_freqs) AS e(elem, freq) WHERE s.schemaname = "
            f"current_schema() AND ({sides}) "
            f"AND (SELECT n.n FROM n) > {self.estimate_above}) "
            f"SELECT n.n, {', '.join(columns)}, {', '.join(self._stamp_sql())} FROM n"
        )
        row = conn.execute(sql, params).fetchone()
        values = [int(v) for v in row[1 : len(columns) + 1]]
        return (
            int(row[0]),
            [abs(v) for v in values],
            [i for i, v in enumerate(values) if v < 0],
            tuple(int(v) for v in row[len(columns) + 1 :]),
        )

    def _stamp_sql(self) -> list[str]:
        """What the kept statistics depend on, as SQL values: the trigram table's
        ``reltuples`` (the row count past the threshold) and how often each index table has
        been analysed (which rewrites its most common elements)."""
        analysed = (
            "pg_stat_get_analyze_count('{0}'::regclass) + "
            "pg_stat_get_autoanalyze_count('{0}'::regclass)"
        )
        return [
            f"(SELECT c.reltuples::bigint FROM pg_class c "
            f"WHERE c.oid = '{self.trigram_table}'::regclass)",
            analysed.format(self.trigram_table),
            analysed.format(self.words_table),
        ]

    def _sides(
        self,
        conn: Any,
        chosen: dict[str, list[tuple[Term, _PgTerm]]],
        persona_id: int,
        pool: int,
        *,
        stamped: bool = False,
    ) -> tuple[list[tuple[int, float, int]], tuple[int, ...] | None]:
        """Each side's best ``pool`` rows of the persona, both sides in one statement, read
        from the index tables alone: each row carries its persona (migration 17), and the
        index holds only rows that pass the index's ``filter_sql`` (a tombstoned memory is
        unindexed; an import indexes only active ones), so no base row is probed. When the
        kept terms' rows exceed the row budget (one common term: ``prune`` keeps the rarest
        whatever its size), only the first :data:`_SCORED_CAP` matching rows of the persona
        are scored: they all hold that one term and score alike. ``stamped``: the statistics'
        stamp is read in the same statement (to check kept statistics against), else None."""
        parts, params = [], []
        for table, side in chosen.items():
            if not side:
                continue
            if len(side) == 1:  # every row holds the one term: its score, without testing
                # each row's terms again (which reads the whole column: twice the time)
                score, score_params = "?::float8", [side[0][0].idf * _TF_ONE]
            else:
                score = " + ".join(f"CASE WHEN {pg.condition} THEN ? ELSE 0 END" for _, pg in side)
                score_params = [v for t, pg in side for v in (pg.param, t.idf * _TF_ONE)]
            any_hit = " OR ".join(pg.condition for _, pg in side)
            column = "words" if table == self.words_table else "grams"
            cap = ""
            if sum(t.df for t, _ in side) > self.tuning.row_budget:
                cap = f" LIMIT {max(_SCORED_CAP, pool)}"
            parts.append(
                f"(SELECT f.rowid, {score} AS score, char_length(f.body) AS length FROM "
                f"(SELECT f.rowid, f.{column}, f.body FROM {table} f "
                f"WHERE ({any_hit}) AND f.persona_id = ?{cap}) "
                "AS f ORDER BY score DESC, length, f.rowid LIMIT ?)"
            )
            params += [*score_params, *(pg.param for _, pg in side), persona_id, pool]
        if not parts:
            return [], None
        if stamped:  # rows (NULL, value, its position)
            values = ", ".join(f"({i}, ({v})::float8)" for i, v in enumerate(self._stamp_sql()))
            parts.append(f"(SELECT NULL::bigint, s.v, s.i FROM (VALUES {values}) AS s(i, v))")
        rows = conn.execute(" UNION ALL ".join(parts), params).fetchall()
        stamp = (
            tuple(int(r[1]) for r in sorted((r for r in rows if r[0] is None), key=lambda r: r[2]))
            if stamped
            else None
        )
        return [(int(r[0]), float(r[1]), int(r[2])) for r in rows if r[0] is not None], stamp


def pg_index(index: FtsIndex) -> PgFtsIndex:
    """The PostgreSQL twin of one of the SQLite adapter's index declarations."""
    return PgFtsIndex(
        name=index.name,
        base_table=index.base_table,
        content_col=index.content_col,
        persona_col=index.persona_col,
        filter_sql=index.filter_sql,
        tuning=index.tuning,
    )
