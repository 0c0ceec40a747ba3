"""Benchmark: LoCoMo retrieval through Omoide's HTTP API, against BM25 baselines (issue 5 item 5).

What it measures. Each LoCoMo conversation becomes one persona. Every session is opened, its
turns are posted as events (``speaker``, text, a shared photo's caption as metadata.image_caption,
``external_id`` = the ``dia_id``, timestamp = the session's date with the turns
ten seconds apart) and the session is ended; then the bench waits until the persona's job queue
is empty (segmentation into episodes, consolidation into notes). Ingest time = posting +
draining. Every question of categories 1–4 is then asked through ``GET /api/search``; results
are mapped back to ``dia_id``s through their ``sources``.
Both LoCoMo speakers are people whose facts are asked about, so every turn is posted with role
``user``. Searches pass only ``q`` and ``top_k``, exactly as a client would: what is measured is
the default search.

Splits: conversations 26, 30 and 41 are the tuning split (every retrieval default was chosen on
them); 42 and 43 are the validation split, scored and reported separately and never tuned on.

Context budget (tokens = characters / 4; results are joined by a newline, which counts too).
Results are taken in rank order:

- **strict** (the headline): a result counts only if all of it fits in what is left of the
  budget; packing stops at the first result that does not fit;
- **truncate**: the first result that does not fit is cut to what is left and packing stops; its
  text counts for containment, and of its sources only those whose whole line is inside the cut
  (an episode excerpt is a date header then one ``Speaker: text`` line per source turn, in order;
  a note is one unit, so a cut note cites nothing).

Metrics, overall and per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop):

- evidence recall@budget: the share of a question's evidence turns cited by the included results,
  averaged over questions that have evidence;
- containment@budget: the normalised gold answer (lower case, punctuation and the articles
  a/an/the removed, spaces collapsed) is a substring of the normalised included text;
- recall_any@5/@10: some evidence turn is cited by one of the first 5/10 results (no budget);
- MRR: 1 / rank of the first result citing an evidence turn (0 when none of the results does);
- p50/p95 search latency (client side, HTTP round trip) and ingest time per conversation.

Baselines, computed in-process over the same turns in the same run: BM25 (k1 = 1.2, b = 0.75,
implemented here) over single turns rendered ``Speaker: text [shares a photo: caption]``, lower
cased, English stopwords removed, no stemming; and the same ranking with each hit expanded to its
±1 neighbouring turns in the same session (turns already in the context are not repeated; the
expanded group is one result for packing, at the same budget).

Usage::

    .venv/bin/python bench/locomo.py [--data DIR] [--url URL --admin-key KEY]
        [--embedder e5|use] [--budget 1000] [--top-k 50] [--conversations 26,30] [--json]
        [--search-param NAME=VALUE] [--setting NAME=VALUE] [--details FILE] [--out PATH]
        [--keep DIR] [--experiment NAME,...] [--reuse DIR] [--skip-ingest]

Without ``--url`` it starts ``omoide serve`` itself on a free port with a temporary data folder
and stops it at the end. It talks to Omoide only through HTTP. ``--search-param`` and
``--setting`` measure the real server under another query parameter or persona setting;
``--skip-ingest`` queries the personas an earlier run left on ``--url``. ``--experiment``
prototypes (clearly separated below, labelled ``exp:``) open a data folder in-process to measure
retrieval variants: the self-started server's, or one kept by ``--keep`` and given to
``--reuse``. Writes bench/results/locomo.md and .json (or ``--out``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo_data import (
    DEFAULT_LOCOMO_DIR,
    LocomoConversation,
    LocomoQA,
    LocomoTurn,
    list_conversation_files,
    load_conversation,
)

REPO = Path(__file__).resolve().parents[1]
RESULTS_DIR = REPO / "bench" / "results"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
CHARS_PER_TOKEN = 4
TURN_SPACING = timedelta(seconds=10)
REFERENCE = {  # shared/bench/README.md, same five conversations
    "bm25": {"evidence_recall": 0.659, "containment": 0.298, "recall_any@10": 0.632,
             "mrr": 0.426},
    "bm25_neighbours": {"evidence_recall": 0.699, "containment": 0.326},
}
TARGET = {"evidence_recall": 0.84, "containment": 0.44}  # issue 8, default parameters
SPLITS = {"tuning": ("26", "30", "41"), "validation": ("42", "43")}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# == retrieved results and the context budget ==================================================


@dataclass(frozen=True)
class Retrieved:
    """One ranked result as the scorer sees it: its text and the turns it cites."""

    kind: str  # "note", "episode", "turn" or "window"
    content: str
    dia_ids: tuple[str, ...]
    line_sources: tuple[tuple[int, str], ...] = ()  # (end offset in content, dia_id) per line
    score: float = 0.0  # the server's score (only the experiments' "score" order reads it)


@dataclass(frozen=True)
class Packed:
    text: str
    cited: frozenset[str]
    included: tuple[Retrieved, ...]


def tokens(text: str) -> float:
    return len(text) / CHARS_PER_TOKEN


def pack(results: Sequence[Retrieved], budget: int, *, truncate: bool = False) -> Packed:
    """Results in rank order into ``budget`` tokens (see the module docstring for the rules)."""
    left = budget * CHARS_PER_TOKEN
    texts: list[str] = []
    cited: set[str] = set()
    included: list[Retrieved] = []
    for result in results:
        # Results are joined by one newline, which also costs its character.
        cost = len(result.content) + (1 if texts else 0)
        if cost <= left:
            texts.append(result.content)
            cited.update(result.dia_ids)
            included.append(result)
            left -= cost
            continue
        if truncate and left > 1:
            room = left - (1 if texts else 0)
            texts.append(result.content[:room])
            cited.update(d for end, d in result.line_sources if end <= room)
            return Packed("\n".join(texts), frozenset(cited), tuple(included))
        break
    return Packed("\n".join(texts), frozenset(cited), tuple(included))


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(r"[^\w\s]")


def normalise_answer(text: str) -> str:
    text = _PUNCT.sub(" ", text.lower())
    return " ".join(_ARTICLES.sub(" ", text).split())


def contains_answer(context: str, answer: str | None) -> bool:
    gold = normalise_answer(answer or "")
    return bool(gold) and gold in normalise_answer(context)


# == scoring ===================================================================================


@dataclass(frozen=True)
class QuestionScore:
    category: int
    has_evidence: bool
    recall: float  # strict packing
    contained: bool
    recall_trunc: float
    contained_trunc: bool
    any5: bool
    any10: bool
    rr: float


def score_question(qa: LocomoQA, ranked: Sequence[Retrieved], budget: int) -> QuestionScore:
    evidence = set(qa.evidence)
    strict = pack(ranked, budget)
    cut = pack(ranked, budget, truncate=True)
    first = next((i for i, r in enumerate(ranked, 1) if evidence & set(r.dia_ids)), None)

    def recall(packed: Packed) -> float:
        return len(evidence & packed.cited) / len(evidence) if evidence else 0.0

    return QuestionScore(
        category=qa.category, has_evidence=bool(evidence),
        recall=recall(strict), contained=contains_answer(strict.text, qa.answer),
        recall_trunc=recall(cut), contained_trunc=contains_answer(cut.text, qa.answer),
        any5=first is not None and first <= 5, any10=first is not None and first <= 10,
        rr=1.0 / first if first else 0.0)


_DETAILS: dict[str, bool] = {"on": False}


def score_into(run: ConversationRun, system: str, qa: LocomoQA, ranked: Sequence[Retrieved],
               budget: int) -> None:
    """Score one question for one system; with ``--details`` also keep what was retrieved."""
    score = score_question(qa, ranked, budget)
    run.scores[system].append(score)
    if _DETAILS["on"]:
        packed = pack(ranked, budget)
        run.details.append({
            "system": system, "conversation": run.sample_id, "question": qa.question,
            "answer": qa.answer, "category": qa.category, "evidence": list(qa.evidence),
            "recall": score.recall, "contained": score.contained, "rr": score.rr,
            "included": len(packed.included),
            "top": [{"kind": r.kind, "dia_ids": list(r.dia_ids), "chars": len(r.content)}
                    for r in ranked[:15]]})


def summarise(scores: Sequence[QuestionScore]) -> dict[str, Any]:
    with_ev = [s for s in scores if s.has_evidence]

    def mean(values: Iterable[float]) -> float:
        values = list(values)
        return round(sum(values) / len(values), 4) if values else 0.0

    return {
        "questions": len(scores),
        "evidence_recall": mean(s.recall for s in with_ev),
        "containment": mean(float(s.contained) for s in scores),
        "evidence_recall_trunc": mean(s.recall_trunc for s in with_ev),
        "containment_trunc": mean(float(s.contained_trunc) for s in scores),
        "recall_any@5": mean(float(s.any5) for s in with_ev),
        "recall_any@10": mean(float(s.any10) for s in with_ev),
        "mrr": mean(s.rr for s in with_ev),
    }


def by_category(scores: Sequence[QuestionScore]) -> dict[str, dict[str, Any]]:
    out = {"all": summarise(scores)}
    for cat, name in CATEGORIES.items():
        subset = [s for s in scores if s.category == cat]
        if subset:
            out[f"{cat} {name}"] = summarise(subset)
    return out


# == BM25 baselines (in-process, no server) ====================================================

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


def lines_result(kind: str, header: Sequence[str], lines: Sequence[tuple[str, str]]
                 ) -> Retrieved:
    """Header lines, then one line per cited turn; remembers where each turn's line ends."""
    text = "\n".join([*header, *(line for line, _ in lines)])
    ends, offset = [], len("\n".join(header)) + (1 if header else 0)
    for line, dia_id in lines:
        offset += len(line)
        ends.append((offset, dia_id))
        offset += 1
    return Retrieved(kind, text, tuple(d for _, d in lines), tuple(ends))


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
            group = [j for j in range(i - radius, i + radius + 1)
                     if 0 <= j < len(self.turns) and j not in seen
                     and self.turns[j].session == self.turns[i].session]
            seen.update(group)
            out.append(window_result([self.turns[j] for j in group]))
        return out


# == the server and its HTTP API ===============================================================


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def local_server(data_dir: Path, embedder: str | None, admin_key: str) -> Iterator[str]:
    """``omoide serve`` on a free port with ``data_dir``; yields its URL, stops it after."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMOIDE_")}
    env.update(OMOIDE_ADMIN_KEY=admin_key, OMOIDE_LLM_PROVIDER="none")
    if embedder:
        env["OMOIDE_EMBEDDER"] = embedder
    log_path = data_dir.parent / "server.log"
    with log_path.open("wb") as server_log:
        proc = subprocess.Popen(
            [str(REPO / ".venv" / "bin" / "omoide"), "serve", "--data", str(data_dir),
             "--port", str(port)], env=env, stdout=server_log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, proc, log_path)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_healthy(url: str, proc: subprocess.Popen[bytes], log_path: Path,
                 timeout_s: float = 180.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"omoide serve exited ({proc.returncode}):\n"
                               + log_path.read_text(errors="replace")[-2000:])
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"omoide serve did not answer /health within {timeout_s:.0f} s")


class OmoideClient:
    def __init__(self, url: str, admin_key: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=120)
        self.admin_key = admin_key

    def health(self) -> dict[str, Any]:
        return self._ok(self.http.get("/health"))

    def create_persona(self, name: str) -> str:
        reply = self._ok(self.http.post("/api/personas", json={"name": name},
                                        headers=self._auth(self.admin_key)))
        return str(reply["api_key"])

    def put_settings(self, persona: str, key: str, patch: dict[str, Any]) -> None:
        self._ok(self.http.put(f"/api/settings/{persona}", json=patch, headers=self._auth(key)))

    def ingest(self, persona: str, key: str, conv: LocomoConversation) -> int:
        """Post every session's turns and end it; returns the number of events accepted."""
        accepted = 0
        for session in conv.sessions:
            start = (session.date_time or datetime(2023, 1, 1)).replace(tzinfo=UTC)
            sid = f"session_{session.number}"
            self._ok(self.http.post(f"/api/sessions/{persona}", headers=self._auth(key),
                                    json={"session_id": sid, "started_at": start.isoformat()}))
            events = [{"speaker": t.speaker, "role": "user", "content": t.text,
                       "external_id": t.dia_id, "timestamp": (start + i * TURN_SPACING).isoformat(),
                       **({"metadata": {"image_caption": t.image_caption}}
                          if t.image_caption else {})}
                      for i, t in enumerate(session.turns)]
            reply = self._ok(self.http.post(f"/api/sessions/{persona}/{sid}/events",
                                            json={"events": events}, headers=self._auth(key)))
            accepted += int(reply["accepted"])
            self._ok(self.http.post(f"/api/sessions/{persona}/{sid}/end",
                                    headers=self._auth(key)))
        return accepted

    def drain(self, persona: str, key: str, timeout_s: float = 7200.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while True:
            jobs = self._ok(self.http.get(f"/api/jobs/{persona}", headers=self._auth(key)))
            if jobs["pending"] + jobs["running"] == 0:
                return jobs
            if time.monotonic() > deadline:
                raise RuntimeError(f"job queue of {persona} not drained: {jobs}")
            time.sleep(0.5)

    def existing_persona(self, sample_id: str) -> str:
        """The persona an earlier run made for a conversation (``locomo-<id>-<hex>``)."""
        reply = self._ok(self.http.get("/api/personas", headers=self._auth(self.admin_key)))
        names = [p["name"] for p in reply["personas"]
                 if p["name"].startswith(f"locomo-{sample_id}-")]
        if len(names) != 1:
            raise SystemExit(f"expected one persona locomo-{sample_id}-*, found {names}")
        return names[0]

    def search(self, persona: str, key: str, query: str, top_k: int,
               extra: dict[str, str] | None = None) -> tuple[list[dict[str, Any]], float]:
        start = time.perf_counter()
        reply = self._ok(self.http.get(
            f"/api/search/{persona}", headers=self._auth(key),
            params={"q": query, "top_k": top_k, **(extra or {})}))
        return reply["results"], (time.perf_counter() - start) * 1000

    @staticmethod
    def _auth(key: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {key}"}

    @staticmethod
    def _ok(response: httpx.Response) -> Any:
        if response.status_code >= 400:
            raise RuntimeError(f"{response.request.method} {response.request.url.path} → "
                               f"{response.status_code}: {response.text[:500]}")
        return response.json()


def to_retrieved(hit: dict[str, Any]) -> Retrieved:
    """An API result; an excerpt's lines after its date header map to its sources in order."""
    dia_ids = tuple(str(s["external_id"]) for s in hit.get("sources", [])
                    if s.get("external_id"))
    content = str(hit["content"])
    if hit["type"] == "episode":
        parts = content.split("\n")
        header = parts[:1] if parts and parts[0].startswith("[") else []
        body = parts[len(header):]
        if len(body) == len(dia_ids):
            lines = lines_result("episode", header, list(zip(body, dia_ids, strict=True)))
            return replace(lines, score=float(hit.get("score", 0.0)))
    return Retrieved(str(hit["type"]), content, dia_ids, score=float(hit.get("score", 0.0)))


# == one run ===================================================================================


@dataclass
class ConversationRun:
    sample_id: str
    turns: int
    questions: int
    ingest_s: float = 0.0
    post_s: float = 0.0
    jobs: dict[str, Any] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list)
    scores: dict[str, list[QuestionScore]] = field(default_factory=lambda: defaultdict(list))
    details: list[dict[str, Any]] = field(default_factory=list)
    analysis: list[dict[str, Any]] = field(default_factory=list)


def run_conversation(client: OmoideClient, conv: LocomoConversation, args: argparse.Namespace,
                     experiments: Sequence[Experiment]) -> ConversationRun:
    questions = [qa for qa in conv.qa if qa.category in CATEGORIES]
    run = ConversationRun(conv.sample_id, sum(1 for _ in conv.turns()), len(questions))
    if args.skip_ingest:
        persona, key = client.existing_persona(conv.sample_id), client.admin_key
    else:
        persona = f"locomo-{conv.sample_id}-{secrets.token_hex(3)}"
        key = client.create_persona(persona)
    if args.setting:
        client.put_settings(persona, key, dict(args.setting))
    if not args.skip_ingest:
        start = time.perf_counter()
        client.ingest(persona, key, conv)
        run.post_s = time.perf_counter() - start
        run.jobs = client.drain(persona, key)
        run.ingest_s = time.perf_counter() - start
        log(f"conversation {conv.sample_id}: {run.turns} turns ingested in {run.ingest_s:.1f} s "
            f"(posting {run.post_s:.1f} s); jobs failed: {run.jobs['failed']}")
    baselines = Baselines(conv)
    for qa in questions:
        hits, ms = client.search(persona, key, qa.question, args.top_k, dict(args.search_param))
        run.latencies_ms.append(ms)
        ranked = [to_retrieved(h) for h in hits]
        score_into(run, "omoide", qa, ranked, args.budget)
        score_into(run, "bm25", qa, baselines.bm25(qa.question), args.budget)
        score_into(run, "bm25_neighbours", qa, baselines.bm25_neighbours(qa.question),
                   args.budget)
        run.analysis.append(analyse(qa, ranked, args.budget))
    run_in_process(run, persona, questions, args, experiments)
    return run


# == miss analysis =============================================================================


def analyse(qa: LocomoQA, ranked: Sequence[Retrieved], budget: int) -> dict[str, Any]:
    """Where a question's evidence turns ended up: cited by a note or an excerpt inside the
    budget, only further down the ranking, or nowhere in the results."""
    evidence = set(qa.evidence)
    packed = pack(ranked, budget)
    n_in = len(packed.included)
    where: dict[str, str] = {}
    for dia_id in evidence:
        ranks = [(i, r.kind) for i, r in enumerate(ranked) if dia_id in r.dia_ids]
        inside = [kind for i, kind in ranks if i < n_in]
        if inside:
            where[dia_id] = "in budget: " + ("both" if len(set(inside)) > 1 else inside[0])
        elif ranks:
            where[dia_id] = f"ranked below budget: {ranks[0][1]}"
        else:
            where[dia_id] = "not in the results"
    chars = Counter()
    for r in packed.included:
        chars[r.kind] += len(r.content)
    return {"category": qa.category, "where": where, "included": n_in,
            "included_kinds": [r.kind for r in packed.included],
            "chars": dict(chars), "first_kinds": [r.kind for r in ranked[:10]],
            "mean_note_chars": _mean_len(ranked, "note"),
            "mean_episode_chars": _mean_len(ranked, "episode")}


def _mean_len(ranked: Sequence[Retrieved], kind: str) -> float | None:
    lengths = [len(r.content) for r in ranked if r.kind == kind]
    return sum(lengths) / len(lengths) if lengths else None


def miss_report(analysis: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, cat in [("all", None), *((f"{c} {n}", c) for c, n in CATEGORIES.items())]:
        rows = [a for a in analysis if cat is None or a["category"] == cat]
        where = Counter(w for a in rows for w in a["where"].values())
        total = sum(where.values())
        out[label] = {k: round(v / total, 3) for k, v in sorted(where.items())} if total else {}
    rows = list(analysis)
    included = [a["included"] for a in rows]
    note_chars = sum(a["chars"].get("note", 0) for a in rows)
    ep_chars = sum(a["chars"].get("episode", 0) for a in rows)
    kinds = Counter(k for a in rows for k in a["included_kinds"])
    out["budget"] = {
        "mean_results_in_budget": round(sum(included) / max(1, len(included)), 2),
        "share_of_included_chars_notes": round(note_chars / max(1, note_chars + ep_chars), 3),
        "included_results_by_kind": dict(kinds),
        "mean_note_chars": _avg(a["mean_note_chars"] for a in rows),
        "mean_episode_chars": _avg(a["mean_episode_chars"] for a in rows),
        "first10_kinds": dict(Counter(k for a in rows for k in a["first_kinds"])),
    }
    return out


def _avg(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(sum(present) / len(present), 1) if present else None


# == experiments (prototypes; NOT the committed system) =========================================
#
# Labelled "exp:" in the report and never mixed into the headline ("omoide") numbers. After
# ingest, the self-started server's data folder (or a folder kept by --keep, with --reuse) is
# opened in-process with the installed omoide library and searched with recall=False (nothing is
# written) and one knob changed: a constructor argument, a module constant or a persona setting
# patched for this process only, or a different way of ordering and trimming the two tiers'
# results. "inproc_default" changes nothing and must match the server's own row.


@dataclass(frozen=True)
class Experiment:
    name: str
    variant: Variant


def experiments_from(names: Sequence[str]) -> list[Experiment]:
    out = []
    for name in names:
        if name not in EXPERIMENTS:
            raise SystemExit(f"unknown experiment {name!r}; known: {', '.join(EXPERIMENTS)}")
        out.append(Experiment(f"exp:{name}", EXPERIMENTS[name]))
    return out


@dataclass(frozen=True)
class Variant:
    """One in-process retrieval variant; the defaults reproduce the server as committed."""

    neighbours: int = 1  # turns either side of an episode hit
    max_window: int = 7  # the most turns merged into one excerpt
    # how notes and excerpts make one list: "rrf" (the server's: alternate, a note first),
    # "score" (by the tiers' fused scores), "ratio:E:N" (E excerpts then N notes, repeated),
    # "nratio:N:E" (notes lead), "notes"/"episodes" (one tier), "notes_first"/"episodes_first"
    order: str = "rrf"
    keyword_weight: float | None = None  # None → the persona's setting
    semantic_weight: float | None = None
    method: str | None = None  # fusion method of both tiers; None → the server's default
    importance_weight: float | None = None
    dedupe: str = "none"  # "cited": drop a result whose turns are all cited above it;
    # "trim": also drop excerpt lines whose turn is already cited above; "trim_ex": only trim
    # excerpts (drop one when nothing is left), never drop a note
    header: str = "iso"  # excerpt date header: "iso" (the server's), "dmy" ("8 May 2023"), "none"
    top_k: int = 50


_IN_PROCESS_APP: dict[str, Any] = {}


@contextmanager
def _patched(variant: Variant) -> Iterator[None]:
    """Module-level knobs of the installed code, changed for this process only."""
    from omoide.engine import fusion
    from omoide.service import episodes as episodes_module
    from omoide.service import search as search_module

    saved = (episodes_module.MAX_WINDOW, search_module.fuse, episodes_module.fuse)
    episodes_module.MAX_WINDOW = variant.max_window
    if variant.method is not None:
        def fuse_with(*args: Any, **kwargs: Any) -> Any:
            return fusion.fuse(*args, **kwargs, method=variant.method)
        search_module.fuse = episodes_module.fuse = fuse_with  # type: ignore[assignment]
    try:
        yield
    finally:
        episodes_module.MAX_WINDOW, search_module.fuse, episodes_module.fuse = saved


class _Settings:
    """A settings service that overrides the fusion weights of every persona."""

    def __init__(self, inner: Any, variant: Variant) -> None:
        self.inner, self.variant = inner, variant

    def get(self, persona: str) -> Any:
        from dataclasses import replace

        cfg = self.inner.get(persona)
        patch = {k: getattr(self.variant, k) for k in (
            "keyword_weight", "semantic_weight", "importance_weight")
            if getattr(self.variant, k) is not None}
        return replace(cfg, **patch)


def variant_results(app: Any, persona: str, query: str, variant: Variant) -> list[Retrieved]:
    from omoide.model import SearchFilters
    from omoide.service.episodes import EpisodeSearch
    from omoide.service.search import SearchService

    settings = _Settings(app.settings_service, variant)
    embedder = _IN_PROCESS_APP["embedder"]
    with _patched(variant):
        service = SearchService(app.store, embedder, app.clock, settings)  # type: ignore[arg-type]
        request = service.build_request(persona, query=query, top_k=variant.top_k,
                                        include_episodes=False)
        notes = service.search(persona, request, recall=False).results
        episodes = EpisodeSearch(app.store, settings, neighbours=variant.neighbours)  # type: ignore[arg-type]
        excerpts = episodes.search_episodes(persona, query, embedder.embed_query(query),
                                            limit=variant.top_k, filters=SearchFilters())
    as_retrieved = [to_retrieved(_hit_dict(h, variant.header)) for h in notes + excerpts]
    n_notes = len(notes)
    ranked = _order(as_retrieved[:n_notes], as_retrieved[n_notes:], variant.order)
    return _dedupe(ranked[: variant.top_k], variant.dedupe)  # the server also cuts at top_k


def _hit_dict(hit: Any, header: str) -> dict[str, Any]:
    content = hit.content
    if hit.type == "episode" and header != "iso":
        first, _, rest = content.partition("\n")
        if header == "none":
            content = rest
        else:
            day = datetime.fromisoformat(first.strip("[]"))
            content = f"[{day.day} {day:%B %Y}]\n{rest}"
    return {"type": hit.type, "content": content, "score": hit.score,
            "sources": [{"external_id": s.external_id} for s in hit.sources]}


def _order(notes: list[Retrieved], excerpts: list[Retrieved], order: str) -> list[Retrieved]:
    if order == "notes":
        return notes
    if order == "episodes":
        return excerpts
    if order == "notes_first":
        return notes + excerpts
    if order == "episodes_first":
        return excerpts + notes
    if order == "score":  # one ranking by the tiers' own fused scores; a note wins a tie
        return sorted(notes + excerpts, key=lambda r: (-r.score, r.kind != "note"))
    if order == "rrf":  # as the server's _interleave: equal ranks alternate, a note first
        e_per, n_per = 1, 1
        notes_first = True
    elif order.startswith("nratio:"):  # N notes, then E excerpts
        _, n, e = order.split(":")
        e_per, n_per, notes_first = int(e), int(n), True
    else:  # "ratio:E:N": E excerpts, then N notes
        _, e, n = order.split(":")
        e_per, n_per, notes_first = int(e), int(n), False
    out: list[Retrieved] = []
    while notes or excerpts:
        blocks = [(notes, n_per), (excerpts, e_per)]
        for source, count in blocks if notes_first else blocks[::-1]:
            out += source[:count]
            del source[:count]
    return out


def _dedupe(ranked: list[Retrieved], mode: str) -> list[Retrieved]:
    if mode == "none":
        return ranked
    seen: set[str] = set()
    out = []
    for r in ranked:
        keep_note = mode == "trim_ex" and r.kind == "note"
        if r.dia_ids and set(r.dia_ids) <= seen and not keep_note:
            continue
        if mode in ("trim", "trim_ex") and r.kind == "episode" and r.line_sources \
                and seen & set(r.dia_ids):
            r = _without_lines(r, seen)
        seen.update(r.dia_ids)
        out.append(r)
    return out


def _without_lines(r: Retrieved, drop: set[str]) -> Retrieved:
    """An excerpt without the lines of turns in ``drop`` (its date header kept)."""
    parts = r.content.split("\n")
    header = parts[: len(parts) - len(r.line_sources)]
    body = parts[len(header):]
    kept = [(line, d) for line, (_, d) in zip(body, r.line_sources, strict=True)
            if d not in drop]
    return lines_result(r.kind, header, kept)


# name → the variant measured; "inproc_default" must reproduce the server's own numbers.
EXPERIMENTS: dict[str, Variant] = {
    "inproc_default": Variant(),
    "notes_only": Variant(order="notes"),
    "episodes_only": Variant(order="episodes"),
    "notes_first": Variant(order="notes_first"),
    "episodes_first": Variant(order="episodes_first"),
    "2ep_1note": Variant(order="ratio:2:1"),
    "dedupe_cited": Variant(dedupe="cited"),
    "neighbours0": Variant(neighbours=0),
    "neighbours2": Variant(neighbours=2),
    "window3": Variant(max_window=3),
    "window5": Variant(max_window=5),
    "dedupe_trim": Variant(dedupe="trim"),
    "header_dmy": Variant(header="dmy"),
    "rrf_fusion": Variant(method="rrf"),
    "convex_fusion": Variant(method="convex"),
    "kw0.25": Variant(keyword_weight=0.25, semantic_weight=0.75),
    "kw0.6": Variant(keyword_weight=0.6, semantic_weight=0.4),
    "kw1_1": Variant(keyword_weight=1.0, semantic_weight=1.0),
    "iw0": Variant(importance_weight=0.0),
    "w3_cited": Variant(max_window=3, dedupe="cited"),
    "w3_trim": Variant(max_window=3, dedupe="trim"),
    "w5_trim": Variant(max_window=5, dedupe="trim"),
    "ep_lead": Variant(order="ratio:1:1"),
    "1ep_2notes": Variant(order="ratio:1:2"),
    "w3_trim_ep_lead": Variant(max_window=3, dedupe="trim", order="ratio:1:1"),
    "trim_ex": Variant(dedupe="trim_ex"),
    "score_order": Variant(order="score"),
    "2notes_1ep": Variant(order="nratio:2:1"),
    "1ep_3notes": Variant(order="ratio:1:3"),
    "combo_a": Variant(order="ratio:1:2", header="dmy", dedupe="trim_ex"),
    "combo_b": Variant(order="ratio:1:2", header="dmy", dedupe="trim_ex", max_window=5),
    "combo_c": Variant(order="nratio:2:1", header="dmy", dedupe="trim_ex"),
    "combo_d": Variant(order="ratio:1:2", header="dmy", dedupe="trim"),
    "score_trim_ex": Variant(order="score", dedupe="trim_ex"),
    "score_dmy_trim_ex": Variant(order="score", header="dmy", dedupe="trim_ex"),
    "score_w5": Variant(order="score", max_window=5),
    "score_n0": Variant(order="score", neighbours=0),
    "score_dmy": Variant(order="score", header="dmy"),
    "score_iw0": Variant(order="score", importance_weight=0.0),
    "1ep_4notes": Variant(order="ratio:1:4"),
    "k20": Variant(top_k=20),
    "score_k20": Variant(order="score", top_k=20),
    "score_dmy_trim_ex_k20": Variant(order="score", header="dmy", dedupe="trim_ex", top_k=20),
    "3notes_1ep": Variant(order="nratio:3:1"),
}


def run_in_process(run: ConversationRun, persona: str, questions: Sequence[LocomoQA],
                   args: argparse.Namespace, experiments: Sequence[Experiment]) -> None:
    if not experiments:
        return
    app = _IN_PROCESS_APP.get("app")
    if app is None:
        raise SystemExit("in-process experiments need the self-started server (no --url) "
                         "or --reuse")
    for exp in experiments:
        for qa in questions:
            ranked = variant_results(app, persona, qa.question, exp.variant)
            score_into(run, exp.name, qa, ranked, args.budget)


# == report ====================================================================================


def fmt(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else 0.0


def build_report(runs: Sequence[ConversationRun], args: argparse.Namespace, health: dict[str, Any],
                 elapsed_s: float) -> tuple[str, dict[str, Any]]:
    systems = list(dict.fromkeys(name for run in runs for name in run.scores))
    scores = {name: [s for run in runs for s in run.scores.get(name, [])] for name in systems}
    tables = {name: by_category(scores[name]) for name in systems}
    latencies = [ms for run in runs for ms in run.latencies_ms]
    skipped = bool(args.skip_ingest or args.reuse)
    analysis = miss_report([a for run in runs for a in run.analysis])
    command = " ".join([".venv/bin/python", "bench/locomo.py", *sys.argv[1:]])
    data = {
        "command": command, "git": git_revision(), "embedder": health.get("embedder"),
        "budget_tokens": args.budget,
        "top_k": args.top_k, "conversations": [r.sample_id for r in runs],
        "elapsed_s": round(elapsed_s, 1),
        "latency_ms": {"p50": round(percentile(latencies, 50), 1),
                       "p95": round(percentile(latencies, 95), 1), "n": len(latencies)},
        "ingest": [{"conversation": r.sample_id, "turns": r.turns, "questions": r.questions,
                    "ingest_s": "skipped" if skipped else round(r.ingest_s, 1),
                    "posting_s": "skipped" if skipped else round(r.post_s, 1),
                    "jobs_failed": r.jobs.get("failed"), "jobs_done": r.jobs.get("done")}
                   for r in runs],
        "results": tables, "analysis": analysis, "reference": REFERENCE, "target": TARGET,
        "splits": {split: {name: summarise([s for r in runs if r.sample_id in ids
                                            for s in r.scores.get(name, [])])
                           for name in systems}
                   for split, ids in SPLITS.items()
                   if any(r.sample_id in ids for r in runs)},
        "per_conversation": {r.sample_id: {name: summarise(s) for name, s in r.scores.items()}
                             for r in runs},
    }
    return markdown(data, systems), data


def git_revision() -> str:
    """HEAD, with "+dirty" when the working tree differs (retrieval code moves fast here)."""
    def git(*cmd: str) -> str:
        return subprocess.run(["git", *cmd], cwd=REPO, capture_output=True, text=True,
                              check=False).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("+dirty" if git("status", "--porcelain", "--", "src") else "")


def markdown(data: dict[str, Any], systems: Sequence[str]) -> str:
    tables = data["results"]
    main = "omoide" if "omoide" in tables else systems[-1]
    omoide = tables[main]["all"]
    meets = (omoide["evidence_recall"] >= TARGET["evidence_recall"]
             and omoide["containment"] >= TARGET["containment"]
             and all(omoide[m] > tables[b]["all"][m] for b in ("bm25", "bm25_neighbours")
                     for m in ("evidence_recall", "containment")))
    lines = [
        "# LoCoMo retrieval through the HTTP API",
        "",
        f"Command: `{data['command']}` ({data['elapsed_s']:.0f} s; git {data['git']}; embedder "
        f"`{data['embedder']}`; conversations {', '.join(data['conversations'])}; budget "
        f"{data['budget_tokens']} tokens = {data['budget_tokens'] * CHARS_PER_TOKEN} characters; "
        f"top_k {data['top_k']}).",
        "",
        f"Target (issue 8): evidence recall@{data['budget_tokens']} ≥ "
        f"{TARGET['evidence_recall']} and containment ≥ {TARGET['containment']}, above both "
        f"baselines — **{'met' if meets else 'not met'}** "
        f"({main} {omoide['evidence_recall']:.3f} / {omoide['containment']:.3f}).",
        "",
        "## Overall",
        "",
    ]
    header = ["system", "evidence recall", "containment", "recall (truncate)",
              "containment (truncate)", "recall_any@5", "recall_any@10", "MRR", "questions"]
    rows = [[name, *(fmt(tables[name]["all"][k]) for k in (
        "evidence_recall", "containment", "evidence_recall_trunc", "containment_trunc",
        "recall_any@5", "recall_any@10", "mrr", "questions"))] for name in systems]
    lines += [_table(header, rows), ""]
    lines += ["Reference numbers for the baselines on the five dev conversations (README): "
              "BM25 0.659 / 0.298 (recall_any@10 0.632, MRR 0.426); BM25+neighbours 0.699 / "
              "0.326.", ""]
    if data["splits"]:
        lines += ["## Tuning and validation splits (evidence recall / containment, strict)", "",
                  "Tuning: conversations " + ", ".join(SPLITS["tuning"]) + " (defaults were "
                  "chosen on these); validation: " + ", ".join(SPLITS["validation"]) + " (never "
                  "tuned on).", ""]
        rows = [[split, *(f"{data['splits'][split][name]['evidence_recall']:.3f} / "
                          f"{data['splits'][split][name]['containment']:.3f}"
                          for name in systems), data["splits"][split][systems[0]]["questions"]]
                for split in data["splits"]]
        lines += [_table(["split", *systems, "questions"], rows), ""]
    lines += ["## Per category (evidence recall / containment, strict budget)", ""]
    cats = [c for c in tables[main] if c != "all"]
    rows = [[name, *(f"{tables[name][c]['evidence_recall']:.3f} / "
                     f"{tables[name][c]['containment']:.3f}" for c in cats)] for name in systems]
    lines += [_table(["system", *(f"{c} (n={tables[main][c]['questions']})" for c in cats)],
                     rows), ""]
    rows = [[name, *(f"{tables[name][c]['recall_any@10']:.3f} / {tables[name][c]['mrr']:.3f}"
                     for c in cats)] for name in systems]
    lines += ["recall_any@10 / MRR:", "", _table(["system", *cats], rows), ""]
    lat = data["latency_ms"]
    lines += ["## Ingest and latency", "",
              f"Search latency (HTTP round trip, {lat['n']} queries): p50 {lat['p50']} ms, "
              f"p95 {lat['p95']} ms.", "",
              _table(["conversation", "turns", "questions", "ingest s (post + drain)",
                      "posting s", "jobs failed"],
                     [[r["conversation"], r["turns"], r["questions"], r["ingest_s"],
                       r["posting_s"], r["jobs_failed"]] for r in data["ingest"]]), ""]
    an = data["analysis"]
    if not an["budget"]["mean_results_in_budget"]:
        lines += ["## Method", "", __doc__.split("Usage::")[0].strip(), ""]
        return "\n".join(lines)
    lines += ["## Where the evidence turns are (omoide)", "",
              "Share of evidence turns: cited inside the budget by a note, an excerpt or both; "
              "cited only by results ranked below the budget (kind of the first one); or cited "
              f"by none of the top {data['top_k']} results.", ""]
    kinds = sorted({k for label, v in an.items() if label != "budget" for k in v})
    lines += [_table(["category", *kinds],
                     [[label, *(fmt(an[label].get(k, 0.0)) for k in kinds)]
                      for label in an if label != "budget"]), ""]
    budget = an["budget"]
    lines += [f"Budget use: {budget['mean_results_in_budget']} results fit on average "
              f"({budget['included_results_by_kind']}); notes take "
              f"{budget['share_of_included_chars_notes']:.0%} of the included characters; mean "
              f"note {budget['mean_note_chars']} chars, mean excerpt "
              f"{budget['mean_episode_chars']} chars; kinds among the first 10 results: "
              f"{budget['first10_kinds']}.", ""]
    lines += ["## Method", "", __doc__.split("Usage::")[0].strip(), ""]
    return "\n".join(lines)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


# == main ======================================================================================


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_LOCOMO_DIR,
                        help="Folder of LoCoMo conversation JSON files.")
    parser.add_argument("--url", help="A running Omoide (default: start one).")
    parser.add_argument("--admin-key", help="Admin key of --url.")
    parser.add_argument("--embedder", choices=("e5", "use", "hash"), default=None,
                        help="OMOIDE_EMBEDDER for the self-started server (default: its own).")
    parser.add_argument("--budget", type=int, default=1000, help="Context budget in tokens.")
    parser.add_argument("--top-k", type=int, default=50, help="top_k of each search.")
    parser.add_argument("--conversations", default="",
                        help="Comma-separated sample ids (file stems), e.g. 26,30; default all.")
    parser.add_argument("--experiment", default="",
                        help="Comma-separated prototypes to measure next to the system.")
    parser.add_argument("--json", action="store_true", help="Print the JSON report on stdout.")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "locomo",
                        help="Report path without extension.")
    parser.add_argument("--keep", type=Path, default=None,
                        help="Copy the self-started server's data folder here at the end.")
    parser.add_argument("--search-param", action="append", default=[], type=_pair,
                        metavar="NAME=VALUE", help="Extra query parameter of every search "
                        "(e.g. importance_weight=0); repeatable.")
    parser.add_argument("--setting", action="append", default=[], type=_pair,
                        metavar="NAME=VALUE", help="Persona setting PUT before ingest "
                        "(e.g. keyword_weight=0.5); repeatable.")
    parser.add_argument("--skip-ingest", action="store_true",
                        help="With --url: query the personas an earlier run left there.")
    parser.add_argument("--details", type=Path, default=None,
                        help="Write every question's retrieved results and scores here (JSON).")
    parser.add_argument("--reuse", type=Path, default=None,
                        help="Experiments only: open a data folder saved by --keep in-process "
                             "(no server, no ingest); needs --out.")
    args = parser.parse_args(argv)
    if args.url and not args.admin_key:
        parser.error("--url needs --admin-key")
    if args.skip_ingest and not args.url:
        parser.error("--skip-ingest needs --url")
    if args.reuse and (args.url or args.out == RESULTS_DIR / "locomo"):
        parser.error("--reuse measures prototypes only: give --out, not --url")
    return args


def _pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def load_selected(data: Path, wanted: str) -> list[LocomoConversation]:
    ids = [w.strip() for w in wanted.split(",") if w.strip()]
    files = list_conversation_files(data)
    if ids:
        files = [f for f in files if f.stem in ids]
        missing = set(ids) - {f.stem for f in files}
        if missing:
            raise SystemExit(f"no conversation file for {', '.join(sorted(missing))} in {data}")
    return [load_conversation(f) for f in files]


def main(argv: Sequence[str] | None = None) -> None:
    # A plain SIGTERM would skip the finally blocks and leave the server running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = parse_args(argv)
    conversations = load_selected(args.data, args.conversations)
    experiments = experiments_from([e.strip() for e in args.experiment.split(",") if e.strip()])
    _DETAILS["on"] = args.details is not None
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="omoide-locomo-") as tmp:
        data_dir = Path(tmp) / "data"
        if args.reuse:
            runs, health = run_reused(args.reuse, conversations, args, experiments)
        elif args.url:
            runs, health = run_all(args.url, args.admin_key, conversations, args, experiments)
        else:
            admin_key = "adm_" + secrets.token_urlsafe(24)
            with local_server(data_dir, args.embedder, admin_key) as url:
                if experiments:
                    open_in_process(data_dir, args.embedder)
                runs, health = run_all(url, admin_key, conversations, args, experiments)
            if args.keep:
                shutil.copytree(data_dir, args.keep, dirs_exist_ok=True)
    md, data = build_report(runs, args, health, time.perf_counter() - started)
    if args.details:
        args.details.write_text(json.dumps([d for r in runs for d in r.details]) + "\n",
                                encoding="utf-8")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(md, encoding="utf-8")
    args.out.with_suffix(".json").write_text(json.dumps(data, indent=2, ensure_ascii=False)
                                             + "\n", encoding="utf-8")
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else md)


def run_all(url: str, admin_key: str, conversations: Sequence[LocomoConversation],
            args: argparse.Namespace, experiments: Sequence[Experiment]
            ) -> tuple[list[ConversationRun], dict[str, Any]]:
    client = OmoideClient(url, admin_key)
    health = client.health()
    log(f"server {url} up, embedder {health.get('embedder')}")
    runs = []
    for conv in conversations:
        run = run_conversation(client, conv, args, experiments)
        runs.append(run)
        table = {k: summarise(v) for k, v in run.scores.items()}
        log(f"conversation {conv.sample_id}: " + "; ".join(
            f"{k} {v['evidence_recall']:.3f}/{v['containment']:.3f}" for k, v in table.items()))
    return runs, health


def run_reused(data_dir: Path, conversations: Sequence[LocomoConversation],
               args: argparse.Namespace, experiments: Sequence[Experiment]
               ) -> tuple[list[ConversationRun], dict[str, Any]]:
    """Baselines and in-process prototypes on a kept data folder (the personas it holds)."""
    open_in_process(data_dir, args.embedder)
    app = _IN_PROCESS_APP["app"]
    names = [p.name for p in app.store.list_personas()]
    runs = []
    for conv in conversations:
        persona = next((n for n in names if n.startswith(f"locomo-{conv.sample_id}-")), None)
        if persona is None:
            log(f"conversation {conv.sample_id}: not in {data_dir}, skipped")
            continue
        questions = [qa for qa in conv.qa if qa.category in CATEGORIES]
        run = ConversationRun(conv.sample_id, sum(1 for _ in conv.turns()), len(questions))
        baselines = Baselines(conv)
        for qa in questions:
            score_into(run, "bm25", qa, baselines.bm25(qa.question), args.budget)
            score_into(run, "bm25_neighbours", qa, baselines.bm25_neighbours(qa.question),
                       args.budget)
        run_in_process(run, persona, questions, args, experiments)
        runs.append(run)
        log(f"conversation {conv.sample_id}: " + "; ".join(
            f"{k} {v['evidence_recall']:.3f}/{v['containment']:.3f}"
            for k, v in ((k, summarise(v)) for k, v in run.scores.items())))
    return runs, {"embedder": app.embedder.model_id}


def open_in_process(data_dir: Path, embedder: str | None) -> None:
    from omoide.config import Settings
    from omoide.wiring import build

    overrides = {"embedder": embedder} if embedder else {}
    settings = Settings.from_env(data_dir=data_dir, **overrides)
    app = build(settings, llm=None)
    _IN_PROCESS_APP["app"] = app
    _IN_PROCESS_APP["embedder"] = _QueryCache(app.embedder)


class _QueryCache:
    """The app's embedder with query vectors memoised: every variant asks the same questions."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.cache: dict[str, np.ndarray] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_query(self, text: str) -> np.ndarray:
        if text not in self.cache:
            self.cache[text] = self.inner.embed_query(text)
        return self.cache[text]


if __name__ == "__main__":
    main()
