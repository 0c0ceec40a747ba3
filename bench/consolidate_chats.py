"""Benchmark: consolidation of user/assistant chats, through the HTTP API, against labelled facts.

LoCoMo (``bench/consolidate.py``) posts both speakers as users; a chat through MCP or the chat
proxy is a user talking to the persona (role ``assistant``). This bench measures that path on
labelled chats (format: one chat per line with ``turns`` and gold ``facts`` {turn, fact, kind,
about}, see ``bench/data/README.md``). Each chat goes the way a client sends it: a fresh
persona on an in-process app over a fresh SQLite folder (no LLM: the offline consolidator),
``POST /api/sessions/{persona}`` to open a session, its turns posted as events (``role`` and
``speaker`` as written, ``external_id`` ``t<index>``, one minute apart on the chat's day),
``POST …/end``, the persona's jobs run until its queue is empty (``GET /api/jobs`` then shows
none pending), and the notes read back with ``GET /api/memories/{persona}`` and their
``sources``.

Metrics, per language and pooled:

- **fact recall**: a gold fact is kept when some note cites the fact's turn among its sources
  AND holds at least half of the fact's content words. English content words are those of
  ``bench/consolidate.py`` (lower-cased, note stopwords out, plural/-ed/-ing folded); Japanese
  ones are the character bigrams of the text's content terms (``omoide.engine.lang.cjk_terms``:
  kanji and katakana runs, hiragana words; a one-character term counts as itself) plus its
  Latin words and numbers. The user's name is left out of both sides (every note names them),
  and so is a note's closing date bracket;
- **note precision**: notes that keep some gold fact of their chat / all notes;
- **filler rate**: notes citing no turn that carries a gold fact (what the labeller would not
  have written down at all: small talk, passing feelings);
- **stray-sentence rate**: sentences of all notes that hold less than half their content words
  in the gold facts of the note's source turns (a companion sentence with nothing to keep,
  "Rough day, honestly.", riding along with a fact);
- **unnamed rate** (English): notes whose words say nobody's name, so their closing bracket has
  to say who spoke ("Mostly reading. (Ana, 2 March 2026)"): a fragment or an unbound "he/she";
- **kind agreement**: kept facts whose matching note has the fact's kind (any of the matching
  notes).

Usage::

    .venv/bin/python bench/consolidate_chats.py [--data bench/data/consolidate_chats_a.jsonl]
        [--embedder e5] [--out PATH] [--json] [--show]

Writes ``bench/results/<data file's stem>.{md,json}`` unless ``--out`` says otherwise; the JSON
lists each chat's notes and missed facts (``--show`` prints them).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from consolidate import stem
from lib.cli import parser as bench_parser
from lib.reports import REPO, RESULTS, command_line, md_table, write_results
from omoide.engine.consolidate import split_sentences
from omoide.engine.lang import NOTE_STOPWORDS, cjk_terms, note_content_words

DEFAULT_DATA = REPO / "bench" / "data" / "consolidate_chats_a.jsonl"
ADMIN_KEY = "omo_admin_consolidate-chats"
KEPT = 0.5
TURN_SPACING = timedelta(minutes=1)
_CLOSING = re.compile(r"\s*(?:\([^()]*\)|（[^（）]*）)\s*$")
_KEPT_SECTION = "## Before and after"
_EN_TOKEN = re.compile(r"[a-z0-9][a-z0-9']*")
_NUMBER_WORDS = "one two three four five six seven eight nine ten eleven twelve"
_NUMBERS = {word: str(n) for n, word in enumerate(_NUMBER_WORDS.split(), start=1)}


# -- content words ------------------------------------------------------------------------------


def without_closing(text: str) -> str:
    """A note's words without its closing "(Ana, 2 March 2026)" / "（花子、2026年3月2日）"."""
    return _CLOSING.sub("", text.strip())


def content(text: str, japanese: bool, user: str) -> set[str]:
    """What a fact or note says, as a set of units (see the module docstring)."""
    text = without_closing(text)
    if not japanese:
        name = user.lower()
        words = (_NUMBERS.get(t, t) for t in _EN_TOKEN.findall(text.lower()))
        return {
            stem(w)
            for w in words
            if w not in NOTE_STOPWORDS
            and (len(w) > 1 or w.isdigit())
            and stem(w) not in {name, "user"}
        }
    text = text.replace(user, " ").replace("ユーザー", " ")
    units: set[str] = set()
    for term in cjk_terms(text):
        units.update([term] if len(term) == 1 else (term[i : i + 2] for i in range(len(term) - 1)))
    units.update(w for w in note_content_words(text) if w.isascii())
    return units


def held(target: set[str], note: set[str]) -> float:
    return len(target & note) / len(target) if target else 0.0


def sentences(text: str) -> list[str]:
    """A note's sentences without its closing bracket, split as consolidation splits a turn
    (one way to split: :func:`omoide.engine.consolidate.split_sentences`)."""
    return split_sentences(without_closing(text))


# -- tallies ------------------------------------------------------------------------------------


@dataclass
class Tally:
    chats: int = 0
    turns: int = 0
    user_turns: int = 0
    facts: int = 0
    kept: int = 0
    kind_agree: int = 0
    notes: int = 0
    matching_notes: int = 0
    filler_notes: int = 0
    sentences: int = 0
    stray_sentences: int = 0
    unnamed_notes: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    kept_by_kind: Counter[str] = field(default_factory=Counter)
    note_kinds: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            if isinstance(value, Counter):
                getattr(self, name).update(value)
            else:
                setattr(self, name, getattr(self, name) + value)

    def summary(self) -> dict[str, Any]:
        def ratio(a: int, b: int) -> float:
            return round(a / b, 3) if b else 0.0

        return {
            "chats": self.chats,
            "turns": self.turns,
            "user_turns": self.user_turns,
            "facts": self.facts,
            "notes": self.notes,
            "fact_recall": ratio(self.kept, self.facts),
            "note_precision": ratio(self.matching_notes, self.notes),
            "filler_rate": ratio(self.filler_notes, self.notes),
            "stray_sentence_rate": ratio(self.stray_sentences, self.sentences),
            "unnamed_rate": ratio(self.unnamed_notes, self.notes),
            "kind_agreement": ratio(self.kind_agree, self.kept),
            "notes_per_user_turn": ratio(self.notes, self.user_turns),
            "recall_by_kind": {
                k: ratio(self.kept_by_kind[k], n) for k, n in sorted(self.by_kind.items())
            },
            "note_kinds": dict(sorted(self.note_kinds.items())),
        }


def score_chat(chat: dict[str, Any], notes: list[dict[str, Any]]) -> tuple[Tally, dict[str, Any]]:
    """The chat's tally and what it kept and missed."""
    japanese = chat["lang"] == "ja"
    user = chat["user"]
    tally = Tally(
        chats=1,
        turns=len(chat["turns"]),
        user_turns=sum(t["role"] == "user" for t in chat["turns"]),
        facts=len(chat["facts"]),
        notes=len(notes),
    )
    cited = [
        {
            int(s["external_id"][1:])
            for s in n["sources"]
            if str(s.get("external_id") or "").startswith("t")
        }
        for n in notes
    ]
    words = [content(n["content"], japanese, user) for n in notes]
    matching: set[int] = set()
    missed = []
    for fact in chat["facts"]:
        target = content(fact["fact"], japanese, user)
        hits = [
            i
            for i in range(len(notes))
            if fact["turn"] in cited[i] and held(target, words[i]) >= KEPT
        ]
        tally.by_kind[fact["kind"]] += 1
        if hits:
            tally.kept += 1
            tally.kept_by_kind[fact["kind"]] += 1
            tally.kind_agree += any(notes[i]["kind"] == fact["kind"] for i in hits)
            matching.update(hits)
        else:
            missed.append(fact)
    fact_turns = {f["turn"] for f in chat["facts"]}
    for i, note in enumerate(notes):
        tally.note_kinds[note["kind"]] += 1
        tally.matching_notes += i in matching
        tally.filler_notes += not (cited[i] & fact_turns)
        gold: set[str] = set()
        for fact in chat["facts"]:
            if fact["turn"] in cited[i]:
                gold |= content(fact["fact"], japanese, user)
        for sentence in sentences(note["content"]):
            units = content(sentence, japanese, user)
            if not units:
                continue
            tally.sentences += 1
            tally.stray_sentences += held(units, gold) < KEPT
        if not japanese and _unnamed(note["content"], user):
            tally.unnamed_notes += 1
    detail = {
        "id": chat["id"],
        "lang": chat["lang"],
        "notes": [
            {"kind": n["kind"], "sources": sorted(c), "content": n["content"]}
            for n, c in zip(notes, cited, strict=True)
        ],
        "missed": missed,
    }
    return tally, detail


def _unnamed(note: str, user: str) -> bool:
    """The note's closing bracket says who spoke: its words did not name the speaker."""
    closing = _CLOSING.search(note.strip())
    return closing is not None and (
        f"({user}," in closing.group(0) or f"({user})" in closing.group(0)
    )


# -- running the chats through the API ----------------------------------------------------------


def load_chats(path: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def run_chats(chats: list[dict[str, Any]], embedder_name: str) -> list[list[dict[str, Any]]]:
    """Each chat's notes, as ``GET /api/memories`` lists them (oldest first)."""
    from fastapi.testclient import TestClient

    from omoide.api.http.app import create_app
    from omoide.clock import FixedClock
    from omoide.config import Settings
    from omoide.embed import make_embedder
    from omoide.wiring import build

    last_day = max(datetime.fromisoformat(c["day"]) for c in chats)
    clock = FixedClock((last_day + timedelta(days=2)).replace(tzinfo=UTC))
    out = []
    with tempfile.TemporaryDirectory(prefix="omoide-chats-bench-") as tmp:
        app = build(
            Settings.from_env({"OMOIDE_LLM_PROVIDER": "none"}, data_dir=Path(tmp)),
            clock=clock,
            embedder=make_embedder(embedder_name, threads=1),
            llm=None,
        )
        app.auth.ensure_admin_key(Path(tmp), ADMIN_KEY)
        with TestClient(create_app(app, start_workers=False)) as client:
            for n, chat in enumerate(chats):
                out.append(_one_chat(client, app, chat, f"chat{n}"))
                print(f"{chat['id']}: {len(out[-1])} note(s)", file=sys.stderr)
        app.close()
    return out


def _one_chat(client: Any, app: Any, chat: dict[str, Any], persona: str) -> list[dict[str, Any]]:
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    key = _ok(client.post("/api/personas", json={"name": persona}, headers=admin))["api_key"]
    auth = {"Authorization": f"Bearer {key}"}
    start = datetime.fromisoformat(chat["day"]).replace(hour=10, tzinfo=UTC)
    _ok(
        client.post(
            f"/api/sessions/{persona}",
            headers=auth,
            json={"session_id": "s1", "started_at": start.isoformat()},
        )
    )
    events = [
        {
            "speaker": t["speaker"],
            "role": t["role"],
            "content": t["content"],
            "external_id": f"t{i}",
            "timestamp": (start + i * TURN_SPACING).isoformat(),
        }
        for i, t in enumerate(chat["turns"])
    ]
    _ok(client.post(f"/api/sessions/{persona}/s1/events", json={"events": events}, headers=auth))
    _ok(client.post(f"/api/sessions/{persona}/s1/end", headers=auth))
    app.runner.run_until_idle()  # the workers' job, in this thread: segment, consolidate
    jobs = _ok(client.get(f"/api/jobs/{persona}", headers=auth))
    if jobs["pending"] + jobs["running"] or jobs.get("failed"):
        raise RuntimeError(f"{chat['id']}: jobs left or failed: {jobs}")
    listed = _ok(client.get(f"/api/memories/{persona}", params={"limit": 200}, headers=auth))
    return list(reversed(listed["memories"]))


def _ok(reply: Any) -> Any:
    if reply.status_code >= 400:
        raise RuntimeError(
            f"{reply.request.method} {reply.request.url.path} → "
            f"{reply.status_code}: {reply.text[:300]}"
        )
    return reply.json()


# -- report -------------------------------------------------------------------------------------

_COLUMNS = (
    ("fact_recall", "fact recall"),
    ("note_precision", "note precision"),
    ("filler_rate", "filler"),
    ("stray_sentence_rate", "stray sentences"),
    ("unnamed_rate", "unnamed (en)"),
    ("kind_agreement", "kind agreement"),
    ("notes_per_user_turn", "notes/user turn"),
    ("facts", "facts"),
    ("notes", "notes"),
    ("chats", "chats"),
)


def render(result: dict[str, Any]) -> str:
    rows = [[name, *(result["groups"][name][k] for k, _ in _COLUMNS)] for name in result["groups"]]
    kinds = sorted({k for g in result["groups"].values() for k in g["recall_by_kind"]})
    by_kind = [
        [
            name,
            *(f"{g['recall_by_kind'].get(k, 0.0)} ({g['facts_by_kind'].get(k, 0)})" for k in kinds),
        ]
        for name, g in result["groups"].items()
    ]
    return "\n".join(
        [
            f"# Consolidation of user/assistant chats: {result['data']}",
            "",
            f"Command: `{result['command']}` ({result['seconds']} s, embedder "
            f"`{result['embedder']}`)",
            "",
            md_table(["language", *(label for _, label in _COLUMNS)], rows),
            "",
            md_table(["recall by kind (facts)", *kinds], by_kind),
            "",
            "fact recall = gold facts with a note citing their turn and holding ≥ half their "
            "content words (English: words, Japanese: character bigrams of content terms; the "
            "user's name and the note's closing date left out); note precision = notes that keep "
            "some gold fact; filler = notes citing no turn that carries a gold fact; stray "
            "sentences = note sentences with < half their content words in the gold facts of the "
            "note's turns; unnamed = English notes whose words name nobody, so the closing bracket "
            "says who spoke; kind agreement = kept facts whose matching note has their kind.",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    bench = bench_parser(__doc__, out=None, data=DEFAULT_DATA)
    bench.add_argument("--embedder", default="e5")
    bench.add_argument("--show", action="store_true", help="print each chat's notes and misses")
    args = bench.parse_args(argv)
    out = args.out or RESULTS / args.data.stem
    chats = load_chats(args.data)
    started = time.perf_counter()
    notes = run_chats(chats, args.embedder)
    groups: dict[str, Tally] = {"all": Tally()}
    details = []
    for chat, chat_notes in zip(chats, notes, strict=True):
        tally, detail = score_chat(chat, chat_notes)
        groups["all"].add(tally)
        groups.setdefault(chat["lang"], Tally()).add(tally)
        details.append(detail)
    result = {
        "benchmark": "consolidate_chats (user/assistant chats through the HTTP API)",
        "data": str(
            args.data.resolve().relative_to(REPO)
            if args.data.resolve().is_relative_to(REPO)
            else args.data
        ),
        "command": command_line(),
        "embedder": args.embedder,
        "seconds": round(time.perf_counter() - started, 1),
        "groups": {
            name: {**t.summary(), "facts_by_kind": dict(t.by_kind)}
            for name, t in sorted(groups.items(), key=lambda kv: kv[0] != "all")
        },
        "chats": details,
    }
    report = out.with_suffix(".md")
    kept = report.read_text().partition(_KEPT_SECTION)[1:] if report.exists() else ("", "")
    write_results(out, render(result) + "".join(kept), result)
    if args.show:
        for d in details:
            print(f"\n== {d['id']} ({d['lang']})")
            for n in d["notes"]:
                print(f"  [{n['kind']} {n['sources']}] {n['content']}")
            for f in d["missed"]:
                print(f"  MISSED t{f['turn']} {f['kind']}: {f['fact']}")
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.json else render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
