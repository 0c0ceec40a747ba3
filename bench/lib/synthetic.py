"""A deterministic synthetic memory corpus for the latency and scale benchmarks.

Seeded, so two runs build the same texts and vectors; nothing here touches a data folder.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta

import numpy as np

from omoide.engine.lang import EN_MONTHS
from omoide.model import NewMemory

# The corpus's "now": every synthetic memory is created in the two years before it.
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


# -- synthetic corpus ---------------------------------------------------------------------------

_FIRST = (
    "Aiko",
    "Ben",
    "Chika",
    "Daniel",
    "Emi",
    "Farah",
    "Goro",
    "Hana",
    "Ivan",
    "Jun",
    "Kenta",
    "Lena",
    "Mio",
    "Nora",
    "Oscar",
    "Priya",
    "Ren",
    "Sara",
    "Taro",
    "Yuki",
)
_LAST = (
    "Sato",
    "Miller",
    "Tanaka",
    "Okafor",
    "Suzuki",
    "Garcia",
    "Ito",
    "Novak",
    "Kato",
    "Silva",
    "Mori",
    "Chen",
)
_PLACES = (
    "Tokyo",
    "Osaka",
    "Kyoto",
    "Sapporo",
    "Nagoya",
    "Fukuoka",
    "Kobe",
    "Nara",
    "Lisbon",
    "Berlin",
    "Seattle",
    "Toronto",
    "Hanoi",
    "Seoul",
    "Melbourne",
    "Kanazawa",
)
_FOODS = (
    "ramen",
    "sushi",
    "curry",
    "tacos",
    "pho",
    "okonomiyaki",
    "croissants",
    "dumplings",
    "green tea",
    "cold brew coffee",
    "cheesecake",
    "miso soup",
    "pizza",
    "falafel",
)
_HOBBIES = (
    "guitar",
    "bouldering",
    "watercolour painting",
    "chess",
    "running",
    "baking",
    "photography",
    "origami",
    "birdwatching",
    "piano",
    "pottery",
    "swimming",
)
_OBJECTS = (
    "bicycle",
    "camera",
    "laptop",
    "rice cooker",
    "backpack",
    "tent",
    "keyboard",
    "umbrella",
    "watch",
    "novel",
    "plant",
    "lamp",
)
_EVENTS = (
    "concert",
    "wedding",
    "job interview",
    "marathon",
    "dentist appointment",
    "family dinner",
    "hackathon",
    "school reunion",
    "art exhibition",
    "football match",
)
_FEELINGS = ("happy", "nervous", "proud", "tired", "relieved", "excited", "lonely", "grateful")
_RELATIONS = (
    "sister",
    "brother",
    "mother",
    "father",
    "cousin",
    "best friend",
    "colleague",
    "neighbour",
)
_JOBS = (
    "nurse",
    "software engineer",
    "teacher",
    "chef",
    "designer",
    "accountant",
    "photographer",
    "translator",
)

_JA_NAMES = (
    "らうらう",
    "ハル",
    "みさき",
    "ケンタ",
    "ゆい",
    "ソウタ",
    "あかり",
    "リョウ",
    "はるか",
    "タクミ",
    "さくら",
    "ダイキ",
)
_JA_PLACES = (
    "大阪",
    "京都",
    "札幌",
    "仙台",
    "名古屋",
    "横浜",
    "神戸",
    "福岡",
    "奈良",
    "金沢",
    "広島",
    "沖縄",
    "函館",
    "鎌倉",
)
_JA_FOODS = (
    "ラーメン",
    "寿司",
    "カレー",
    "抹茶",
    "たこ焼き",
    "うどん",
    "天ぷら",
    "焼き鳥",
    "コーヒー",
    "チーズケーキ",
    "味噌汁",
    "餃子",
)
_JA_HOBBIES = (
    "ギター",
    "ボルダリング",
    "水彩画",
    "将棋",
    "ランニング",
    "お菓子作り",
    "写真",
    "折り紙",
    "ピアノ",
    "陶芸",
    "水泳",
    "登山",
)
_JA_OBJECTS = (
    "自転車",
    "カメラ",
    "ノートパソコン",
    "炊飯器",
    "リュック",
    "テント",
    "腕時計",
    "小説",
    "観葉植物",
    "傘",
)
_JA_EVENTS = (
    "コンサート",
    "結婚式",
    "面接",
    "マラソン大会",
    "歯医者の予約",
    "家族の食事会",
    "同窓会",
    "展覧会",
    "花火大会",
    "誕生日会",
)
_JA_FEELINGS = (
    "嬉しい",
    "緊張した",
    "誇らしい",
    "疲れた",
    "ほっとした",
    "わくわくした",
    "寂しい",
    "感謝の",
)
_JA_PETS = ("猫", "犬", "うさぎ", "インコ", "金魚", "ハムスター")
_WEEKDAYS_JA = ("月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日")

# (template, tags). Slots are filled from the vocabularies above.
_EN_TEMPLATES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("{name} moved to {place} in {month} and started working as a {job}.", ("life", "work")),
    ("User loves {food} and often eats it at a small place near {place} station.", ("food",)),
    ("{name} will visit {place} next month to see the {event}.", ("travel", "plans")),
    (
        "User's {relation} {name} is learning {hobby} and practises every weekend.",
        ("family", "hobby"),
    ),
    ("User bought a new {object} for {num} dollars in {place}.", ("shopping",)),
    ("User felt {feeling} after the {event} with {name}.", ("feelings",)),
    ("{name}'s birthday is on {month} {day}; they like {food}.", ("birthday", "people")),
    ("User has been doing {hobby} for {num} years and wants to try it in {place}.", ("hobby",)),
    ("On a trip to {place}, User lost their {object} and felt {feeling}.", ("travel",)),
    ("User's {relation} works as a {job} in {place} and calls every Sunday.", ("family", "work")),
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
        name=f"{pick(_FIRST)} {pick(_LAST)}",
        place=pick(_PLACES),
        food=pick(_FOODS),
        hobby=pick(_HOBBIES),
        object=pick(_OBJECTS),
        event=pick(_EVENTS),
        feeling=pick(_FEELINGS),
        relation=pick(_RELATIONS),
        job=pick(_JOBS),
        month=pick(EN_MONTHS),
        jmonth=int(rng.integers(1, 13)),
        day=int(rng.integers(1, 29)),
        num=int(rng.integers(2, 90)),
        jname=pick(_JA_NAMES),
        jname2=pick(_JA_NAMES),
        jplace=pick(_JA_PLACES),
        jfood=pick(_JA_FOODS),
        jhobby=pick(_JA_HOBBIES),
        jobject=pick(_JA_OBJECTS),
        jevent=pick(_JA_EVENTS),
        jfeeling=pick(_JA_FEELINGS),
        jpet=pick(_JA_PETS),
        weekday=pick(_WEEKDAYS_JA),
    )


class SyntheticCorpus:
    """Deterministic persona-style memories: 60% English, 40% Japanese, two years of dates.

    Vectors are not embeddings of the texts: they are unit vectors drawn around 256 random
    "topic" centres, so the index has the clustered shape of real embeddings. Exact search
    costs the same whatever the vectors hold; the texts, tags and dates are what FTS and the
    filters work on, so those are realistic.
    """

    def __init__(
        self, dim: int, *, seed: int = 7, now: datetime = NOW, noise_seed: int | None = None
    ) -> None:
        self.dim = dim
        self.now = now
        self._rng = np.random.default_rng(seed)
        self._centres = self._rng.standard_normal((256, dim)).astype(np.float32)
        if noise_seed is not None:  # the same topics, other draws (in-distribution probes)
            self._rng = np.random.default_rng(noise_seed)

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
            news.append(
                NewMemory(
                    content=_fill(template, rng),
                    tags=tags,
                    importance=round(float(rng.uniform(0.1, 1.0)), 2),
                    emotion_intensity=intensity,
                    created_at=self.now - timedelta(seconds=float(age)),
                )
            )
            stabilities.append(10.0 if intensity > 0.7 else 5.0 if intensity > 0.5 else 1.0)
        topics = rng.integers(len(self._centres), size=n)
        vectors = self._centres[topics] + 0.9 * rng.standard_normal((n, self.dim), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return news, vectors.astype(np.float32), stabilities


def chunks(n: int, size: int) -> Iterator[int]:
    """Sizes of consecutive chunks covering ``n``."""
    while n > 0:
        yield min(size, n)
        n -= size
