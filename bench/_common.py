"""Shared helpers for the performance benchmarks: machine facts, timing statistics, a synthetic
memory corpus, and writing reports.

Benchmarks are commands, not tests: these helpers measure and describe, they assert nothing.
Nothing here touches the repository's data folder; corpora are built in temporary directories.
The synthetic corpus is deterministic (seeded), so two runs build the same texts and vectors.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from omoide.model import NewMemory

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"
BENCH_DATA = REPO.parent / "shared" / "bench"

# The corpus's "now": every synthetic memory is created in the two years before it.
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY")

# -- machine ------------------------------------------------------------------------------------


def load_average() -> tuple[float, float, float]:
    one, five, fifteen = os.getloadavg()
    return round(one, 2), round(five, 2), round(fifteen, 2)


def git_revision() -> str:
    """Commit and whether the tree had local changes (read-only git)."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                                  check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = [line for line in git("status", "--porcelain").splitlines() if line]
    return f"{commit} + {len(changed)} changed files" if changed else commit


def machine_info() -> dict[str, Any]:
    return {
        "revision": git_revision(),
        "cpus": os.cpu_count(),
        "load_average": load_average(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "numpy": np.__version__,
        "platform": platform.platform(),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": " ".join(["python", *sys.argv]),
        "threads_env": {k: os.environ.get(k) for k in _THREAD_VARS},
    }


def rss_mb() -> float:
    """Resident set size now (Linux ``/proc``; 0 where unavailable)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far (``ru_maxrss`` is KiB on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


# -- timing -------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default), q in [0, 100]."""
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else 0.0


@dataclass(frozen=True)
class Repeated:
    """p50/p95 of each repeat of one measurement, summarised as best-of and median-of."""

    p50s: tuple[float, ...]
    p95s: tuple[float, ...]
    n_per_repeat: int

    @classmethod
    def of(cls, runs: Sequence[Sequence[float]]) -> Repeated:
        return cls(p50s=tuple(percentile(r, 50) for r in runs),
                   p95s=tuple(percentile(r, 95) for r in runs),
                   n_per_repeat=len(runs[0]) if runs else 0)

    @property
    def p50_best(self) -> float:
        return min(self.p50s)

    @property
    def p50_median(self) -> float:
        return statistics.median(self.p50s)

    @property
    def p95_best(self) -> float:
        return min(self.p95s)

    @property
    def p95_median(self) -> float:
        return statistics.median(self.p95s)

    def as_dict(self) -> dict[str, Any]:
        return {"p50_best_ms": round(self.p50_best, 3), "p50_median_ms": round(self.p50_median, 3),
                "p95_best_ms": round(self.p95_best, 3), "p95_median_ms": round(self.p95_median, 3),
                "repeats": len(self.p50s), "n_per_repeat": self.n_per_repeat}


def timed_ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return (time.perf_counter() - start) * 1000.0, result


def timed_wall_cpu_ms(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall and CPU time (this process, all threads) of one call.

    On a shared machine wall time includes waiting for a core; CPU time does not, so with one
    thread per library it estimates what the call costs on a quiet machine.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return ((time.perf_counter() - wall) * 1000.0, (time.process_time() - cpu) * 1000.0,
            result)


def best_and_median(values: Sequence[float], *, higher_is_better: bool = False
                    ) -> dict[str, Any]:
    """For throughputs and job times: the best run is the one least disturbed by neighbours."""
    best = max(values) if higher_is_better else min(values)
    return {"best": best, "median": statistics.median(values), "runs": list(values)}


# -- synthetic corpus ---------------------------------------------------------------------------

_FIRST = ("Aiko", "Ben", "Chika", "Daniel", "Emi", "Farah", "Goro", "Hana", "Ivan", "Jun",
          "Kenta", "Lena", "Mio", "Nora", "Oscar", "Priya", "Ren", "Sara", "Taro", "Yuki")
_LAST = ("Sato", "Miller", "Tanaka", "Okafor", "Suzuki", "Garcia", "Ito", "Novak", "Kato",
         "Silva", "Mori", "Chen")
_PLACES = ("Tokyo", "Osaka", "Kyoto", "Sapporo", "Nagoya", "Fukuoka", "Kobe", "Nara", "Lisbon",
           "Berlin", "Seattle", "Toronto", "Hanoi", "Seoul", "Melbourne", "Kanazawa")
_FOODS = ("ramen", "sushi", "curry", "tacos", "pho", "okonomiyaki", "croissants", "dumplings",
          "green tea", "cold brew coffee", "cheesecake", "miso soup", "pizza", "falafel")
_HOBBIES = ("guitar", "bouldering", "watercolour painting", "chess", "running", "baking",
            "photography", "origami", "birdwatching", "piano", "pottery", "swimming")
_OBJECTS = ("bicycle", "camera", "laptop", "rice cooker", "backpack", "tent", "keyboard",
            "umbrella", "watch", "novel", "plant", "lamp")
_EVENTS = ("concert", "wedding", "job interview", "marathon", "dentist appointment",
           "family dinner", "hackathon", "school reunion", "art exhibition", "football match")
_FEELINGS = ("happy", "nervous", "proud", "tired", "relieved", "excited", "lonely", "grateful")
_RELATIONS = ("sister", "brother", "mother", "father", "cousin", "best friend", "colleague",
              "neighbour")
_JOBS = ("nurse", "software engineer", "teacher", "chef", "designer", "accountant",
         "photographer", "translator")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")

_JA_NAMES = ("らうらう", "ハル", "みさき", "ケンタ", "ゆい", "ソウタ", "あかり", "リョウ", "はるか",
             "タクミ", "さくら", "ダイキ")
_JA_PLACES = ("大阪", "京都", "札幌", "仙台", "名古屋", "横浜", "神戸", "福岡", "奈良", "金沢",
              "広島", "沖縄", "函館", "鎌倉")
_JA_FOODS = ("ラーメン", "寿司", "カレー", "抹茶", "たこ焼き", "うどん", "天ぷら", "焼き鳥",
             "コーヒー", "チーズケーキ", "味噌汁", "餃子")
_JA_HOBBIES = ("ギター", "ボルダリング", "水彩画", "将棋", "ランニング", "お菓子作り", "写真",
               "折り紙", "ピアノ", "陶芸", "水泳", "登山")
_JA_OBJECTS = ("自転車", "カメラ", "ノートパソコン", "炊飯器", "リュック", "テント", "腕時計",
               "小説", "観葉植物", "傘")
_JA_EVENTS = ("コンサート", "結婚式", "面接", "マラソン大会", "歯医者の予約", "家族の食事会",
              "同窓会", "展覧会", "花火大会", "誕生日会")
_JA_FEELINGS = ("嬉しい", "緊張した", "誇らしい", "疲れた", "ほっとした", "わくわくした",
                "寂しい", "感謝の")
_JA_PETS = ("猫", "犬", "うさぎ", "インコ", "金魚", "ハムスター")
_WEEKDAYS_JA = ("月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日")

# (template, tags). Slots are filled from the vocabularies above.
_EN_TEMPLATES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("{name} moved to {place} in {month} and started working as a {job}.", ("life", "work")),
    ("User loves {food} and often eats it at a small place near {place} station.", ("food",)),
    ("{name} will visit {place} next month to see the {event}.", ("travel", "plans")),
    ("User's {relation} {name} is learning {hobby} and practises every weekend.",
     ("family", "hobby")),
    ("User bought a new {object} for {num} dollars in {place}.", ("shopping",)),
    ("User felt {feeling} after the {event} with {name}.", ("feelings",)),
    ("{name}'s birthday is on {month} {day}; they like {food}.", ("birthday", "people")),
    ("User has been doing {hobby} for {num} years and wants to try it in {place}.", ("hobby",)),
    ("On a trip to {place}, User lost their {object} and felt {feeling}.", ("travel",)),
    ("User's {relation} works as a {job} in {place} and calls every Sunday.",
     ("family", "work")),
)
_JA_TEMPLATES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("{jname}は{jplace}に住んでいて、{jfood}が大好きだ", ("life", "food")),
    ("ユーザーは{jmonth}月に{jplace}へ旅行して{jevent}に行った", ("travel",)),
    ("{jname}の趣味は{jhobby}で、毎週{weekday}に練習している", ("hobby",)),
    ("私は{jplace}で{jobject}を{num}00円で買った", ("shopping",)),
    ("ユーザーは{jevent}のあと{jfeeling}気持ちになった", ("feelings",)),
    ("{jname}は{jpet}を飼っていて、名前は{jname2}だ", ("pets", "people")),
    ("ユーザーは{jplace}の{jfood}の店によく行く", ("food",)),
    ("{jname}の誕生日は{jmonth}月{day}日で、{jfood}が好き", ("birthday", "people")),
)

# Queries in the corpus's vocabulary, so that keyword search finds many candidates (realistic
# for a persona that talks about the same things for years), English, Japanese and mixed.
SEARCH_QUERIES: tuple[str, ...] = (
    "Where does Aiko Sato live now?",
    "favourite food ramen",
    "birthday present for my sister",
    "trip to Kyoto",
    "what did the user buy in Berlin",
    "guitar practice every weekend",
    "dentist appointment",
    "how did the user feel after the marathon",
    "new job as a software engineer",
    "camera lost on a trip",
    "cousin who works as a nurse",
    "cold brew coffee near the station",
    "大阪に旅行",
    "猫",
    "誕生日はいつ",
    "好きな食べ物は何ですか",
    "ギターの練習",
    "京都で何をした",
    "結婚式のあと嬉しい気持ち",
    "カメラを買った",
    "らうらうの趣味",
    "犬を飼っている",
    "ラーメン Osaka",
    "ハル birthday",
)


def _fill(template: str, rng: np.random.Generator) -> str:
    def pick(options: Sequence[str]) -> str:
        return options[int(rng.integers(len(options)))]

    return template.format(
        name=f"{pick(_FIRST)} {pick(_LAST)}", place=pick(_PLACES), food=pick(_FOODS),
        hobby=pick(_HOBBIES), object=pick(_OBJECTS), event=pick(_EVENTS),
        feeling=pick(_FEELINGS), relation=pick(_RELATIONS), job=pick(_JOBS),
        month=pick(_MONTHS), jmonth=int(rng.integers(1, 13)),
        day=int(rng.integers(1, 29)), num=int(rng.integers(2, 90)),
        jname=pick(_JA_NAMES), jname2=pick(_JA_NAMES), jplace=pick(_JA_PLACES),
        jfood=pick(_JA_FOODS), jhobby=pick(_JA_HOBBIES), jobject=pick(_JA_OBJECTS),
        jevent=pick(_JA_EVENTS), jfeeling=pick(_JA_FEELINGS), jpet=pick(_JA_PETS),
        weekday=pick(_WEEKDAYS_JA))


class SyntheticCorpus:
    """Deterministic persona-style memories: 60% English, 40% Japanese, two years of dates.

    Vectors are not embeddings of the texts: they are unit vectors drawn around 256 random
    "topic" centres, so the index has the clustered shape of real embeddings. Exact search
    costs the same whatever the vectors hold; the texts, tags and dates are what FTS and the
    filters work on, so those are realistic.
    """

    def __init__(self, dim: int, *, seed: int = 7, now: datetime = NOW) -> None:
        self.dim = dim
        self.now = now
        self._rng = np.random.default_rng(seed)
        self._centres = self._rng.standard_normal((256, dim)).astype(np.float32)

    def batch(self, n: int) -> tuple[list[NewMemory], np.ndarray, list[float]]:
        """The next ``n`` memories, their vectors and their initial stabilities."""
        rng = self._rng
        news: list[NewMemory] = []
        stabilities: list[float] = []
        ages = rng.uniform(0, 730 * 86400, n)
        for age in ages:
            templates = _EN_TEMPLATES if rng.random() < 0.6 else _JA_TEMPLATES
            template, tags = templates[int(rng.integers(len(templates)))]
            intensity = round(float(rng.random()), 2)
            news.append(NewMemory(
                content=_fill(template, rng), tags=tags,
                importance=round(float(rng.uniform(0.1, 1.0)), 2),
                emotion_intensity=intensity,
                created_at=self.now - timedelta(seconds=float(age))))
            stabilities.append(10.0 if intensity > 0.7 else 5.0 if intensity > 0.5 else 1.0)
        topics = rng.integers(len(self._centres), size=n)
        vectors = self._centres[topics] + 0.9 * rng.standard_normal((n, self.dim),
                                                                    dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return news, vectors.astype(np.float32), stabilities


# -- real texts ---------------------------------------------------------------------------------


def real_memory_texts(data: Path) -> list[str]:
    """Memory-style texts written by people: LoCoMo observations and the Japanese retrieval
    corpus, interleaved so any prefix mixes both languages. Empty if the data is missing."""
    english: list[str] = []
    locomo = data / "locomo"
    if locomo.is_dir():
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from locomo_data import load_conversations

        english = [o.text for c in load_conversations(locomo) for o in c.observations]
    japanese: list[str] = []
    ja_file = data / "retrieval_ja" / "dev.jsonl"
    if ja_file.is_file():
        for line in ja_file.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("type") == "memory":
                japanese.append(row["content"])
    out: list[str] = []
    step = max(1, len(english) // max(1, len(japanese)))
    for i, text in enumerate(japanese):
        out.extend(english[i * step : (i + 1) * step])
        out.append(text)
    out.extend(english[len(japanese) * step :])
    return list(dict.fromkeys(out))


# -- reports ------------------------------------------------------------------------------------


def md_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def write_results(out: Path, markdown: str, data: dict[str, Any]) -> tuple[Path, Path]:
    """Write ``<out>.md`` and ``<out>.json``; ``out`` is a path without extension."""
    out.parent.mkdir(parents=True, exist_ok=True)
    md_path, json_path = out.with_suffix(".md"), out.with_suffix(".json")
    md_path.write_text(markdown, encoding="utf-8")
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return md_path, json_path


def log(message: str) -> None:
    """Progress on stderr, so ``--json`` output on stdout stays clean."""
    print(f"[{time.strftime('%H:%M:%S')} load {load_average()[0]:.1f}] {message}",
          file=sys.stderr, flush=True)


def chunks(n: int, size: int) -> Iterator[int]:
    """Sizes of consecutive chunks covering ``n``."""
    while n > 0:
        yield min(size, n)
        n -= size
