"""The BM25 baselines LoCoMo results are compared with (in-process, over the same turns).

Okapi BM25 (k1 = 1.2, b = 0.75) over single turns rendered ``Speaker: text [shares a photo:
caption]``, lower cased, English stopwords removed, no stemming; and the same ranking with each
hit expanded to its ±1 neighbouring turns in the same session (turns already shown are not
repeated; the group is one result for packing).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

from lib.datasets import LocomoConversation, LocomoTurn
from lib.metrics import Retrieved, lines_result

# A common English stopword list (function words only), written out so the baseline does not move
# when the server's own lists change.
_STOPWORD_TEXT = """
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more
most my myself no nor not now of off on once only or other our ours ourselves out over own same
she should so some such than that the their theirs them themselves then there these they this
those through to too under until up very was we were what when where which while who whom why
will with would you your yours yourself yourselves s t don ll m re ve d y o isn aren wasn weren
hasn haven hadn doesn didn won wouldn shan shouldn couldn mustn mightn needn
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_WORD = re.compile(r"[a-z0-9]+")


def bm25_tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


class Bm25:
    """Okapi BM25 over pre-tokenised documents (idf with the +1 inside the log, never negative)."""

    def __init__(self, docs: Sequence[Sequence[str]], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.tf = [Counter(doc) for doc in docs]
        self.lengths = np.array([len(doc) for doc in docs], dtype=np.float64)
        self.avg = float(self.lengths.mean()) if len(docs) else 0.0
        df: Counter[str] = Counter()
        for counts in self.tf:
            df.update(counts.keys())
        n = len(docs)
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, counts in enumerate(self.tf):
            for term in counts:
                self.postings[term].append(i)

    def rank(self, query: Sequence[str]) -> list[int]:
        """Document indices with a positive score, best first (ties by index)."""
        scores: dict[int, float] = defaultdict(float)
        for term in set(query):
            idf = self.idf.get(term)
            if idf is None:
                continue
            for i in self.postings[term]:
                tf = self.tf[i][term]
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
                scores[i] += idf * tf * (self.k1 + 1) / (tf + norm)
        return [i for i, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))]


def turn_result(turn: LocomoTurn) -> Retrieved:
    text = turn.render()
    return Retrieved("turn", text, (turn.dia_id,), ((len(text), turn.dia_id),))


def window_result(turns: Sequence[LocomoTurn]) -> Retrieved:
    return lines_result("window", [], [(t.render(), t.dia_id) for t in turns])


class Baselines:
    """BM25 over one conversation's turns, alone and with ±1 neighbours."""

    def __init__(self, conv: LocomoConversation) -> None:
        self.turns = list(conv.turns())
        self.index = Bm25([bm25_tokens(t.render()) for t in self.turns])

    def bm25(self, question: str) -> list[Retrieved]:
        return [turn_result(self.turns[i]) for i in self.index.rank(bm25_tokens(question))]

    def bm25_neighbours(self, question: str, radius: int = 1) -> list[Retrieved]:
        seen: set[int] = set()
        out = []
        for i in self.index.rank(bm25_tokens(question)):
            if i in seen:
                continue
            group = [
                j
                for j in range(i - radius, i + radius + 1)
                if 0 <= j < len(self.turns)
                and j not in seen
                and self.turns[j].session == self.turns[i].session
            ]
            seen.update(group)
            out.append(window_result([self.turns[j] for j in group]))
        return out
