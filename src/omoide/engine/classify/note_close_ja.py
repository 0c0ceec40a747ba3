"""The Japanese reader of ``note_close``: what each sentence surely says of its subject (pure).

The subject is the sentence's topic (悠斗は、…), or the note's when a sentence has none or only a
time as topic (今は、最近は); a state is a frame of ``one_slot`` said in the present (住んでいる,
勤めてる, not 住んでいた); an end is an ending verb done (辞めた, やめて, から引っ越した, と別れた),
not asked for or planned (やめてほしい, 辞める予定). No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.note_claim import SINGLE, Claim, second, spanned, wide
from omoide.engine.classify.note_count import ja_counts
from omoide.engine.classify.one_slot import JA_STATE_FRAMES

__all__ = ["ja_claims", "ja_sentences"]

_JA_NOUN = r"[\u3400-\u9fff\u30a0-\u30ffA-Za-z0-9々ー・]+"
_JA_VALUE = rf"(?P<value>{_JA_NOUN}(?:の{_JA_NOUN})*)"
_JA_SUBJECT = re.compile(
    r"^(?P<s>[^、。はがをにでのと\s「」]{1,10}?)(?:さん|ちゃん|くん|君)?(?:は、?|、)"
)
_JA_TIME_AS_TOPIC = re.compile(rf"{lex.JA_NOW_TOPIC}は")
_JA_TIME_TOPIC = re.compile(
    rf"^(?:{lex.JA_NOW_TOPIC}|[^、。]{{1,4}}から|毎[朝晩日週月年]|週末"
    r"|土日|休日|[今昨明先来翌][日週月年朝晩夜]|[月火水木金土日]曜日?|朝|夜"
    r"|夕方|夜勤|普段)$"
)
_JA_SECOND = re.compile(
    r"掛け持ち|副業|も(?:働|住|勤|通|付)|週末|土日|時々|ときどき|たまに|休みの日"
)
_JA_UNSURE = re.compile(
    r"予定|つもり|たい(?!へん)|かも|かな|なら|たら(?!しい)|れば|ようと|ようか|検討|考えて|迷って"
    r"|夢|昔|以前|前は|当時|頃|ころ|時代|まで"
    r"|将来|いつか|来年|来月|来週|再来|もし|って言|と言|みたい|年前|\d{4}年|[〇一二三四五六七八九]{4}年"
    r"|？|\?"
)
# A past event told (選ばれた, 終えたんだ, 行ったらしい): the sentence's last predicate in the past.
_JA_PAST = re.compile(
    r"(?:た|だった|でした|ました)(?:んだ|んです|の|のよ|んだって|って|らしい|よ"
    r"|ね|わ|そう|みたい|なあ|な)*[。！!～〜笑wｗ\s]*$"
)
_JA_PRESENT = re.compile(r"^(?:る|いる|います|ます|て|いて|おり|、|。|$|だ|で|です|なん|な)")
_JA_STATE = {
    kind: re.compile(rf"{_JA_VALUE}(?P<frame>{JA_STATE_FRAMES[kind]})(?P<after>.{{0,3}})")
    for kind in ("home", "work", "partner")
}
_JA_STATE["study"] = re.compile(rf"{_JA_VALUE}(?P<frame>に在学|に在籍|の学生)(?P<after>.{{0,3}})")
# A home said with whom between (実家で両親と暮らしてる, シェアハウスで五人で暮らしてる) or as
# living alone (札幌で一人暮らしをしてる).
_JA_HOME_WITH = re.compile(
    rf"{_JA_VALUE}[でに](?:[^、。をにで]{{1,8}}?[とで])?(?:一緒に)?(?:暮らして|住んで|一人暮らしをして"
    r"|ひとり暮らしをして)(?P<after>.{0,3})"
)
# What the subject runs (和菓子屋をやってる, カフェを経営してる): a closed shop (店を閉めた)
# ends it.
_JA_BUSINESS = re.compile(rf"{_JA_VALUE}を(?:やって|経営して|営んで)(?:る|いる|います|て、|てて)")
_SHOP = "<shop>"
# A shop closed for the night, not for good (閉めてから, 閉めた後, 毎晩).
_JA_DAILY = re.compile(r"毎日|毎晩|毎朝|いつも|夜|閉店後|閉めて(?:から|帰)|閉めた(?:後|あと)")
# A home said as a noun (実家暮らしで, 寮暮らし): a state like に住んでいる.
_JA_HOME_NOUN = re.compile(rf"{_JA_VALUE}暮らし(?:で|だ|です|なん|、|。|$)")
_JA_ROLE = re.compile(rf"{_JA_VALUE}(?:として働いて|をして)(?:る|いる|います|て、)")
# Done, not asked for or meant: やめて, not やめてほしい / やめておく / やめてみる.
_JA_DONE = r"(?:た|て(?!ほし|欲し|くれ|もら|おく|おこ|とく|みる|みよ)|ちゃ|じゃ)"
_JA_END = (
    (
        "any",
        "",
        re.compile(
            rf"{_JA_VALUE}(?:の仕事)?[をは]?(?:辞め|やめ|退会し|退部し|引退し|退職し|退社し"
            rf"|クビになっ){_JA_DONE}"
        ),
    ),
    # a business closed for good (カフェを閉めた, 店をたたんだ): what the subject runs ends
    ("any", "closed", re.compile(rf"{_JA_VALUE}を(?:閉め|たたん|畳ん|閉店し|廃業し){_JA_DONE}")),
    # sold or given up for good (バイクを売って, 一戸建てを手放した; not 保険を売っている, a
    # trade): what one rides, plays or lives in, named whole
    (
        "any",
        "sold",
        re.compile(
            rf"{_JA_VALUE}を(?:全部|すべて)?(?:売っ|売り払っ|手放し)(?!てい|てる|てま){_JA_DONE}"
        ),
    ),
    ("left", "", re.compile(rf"{_JA_VALUE}(?:の仕事)?[をは]?(?:卒業し|中退し|退学し){_JA_DONE}")),
    ("home", "", re.compile(rf"{_JA_VALUE}から(?:引っ越し|引越し|転居し){_JA_DONE}")),
    # leaving a place ends a home only when the sentence says where one lives now (東京を出て
    # alone is as often a trip)
    (
        "home",
        "",
        re.compile(
            rf"{_JA_VALUE}を(?:出|離れ){_JA_DONE}"
            r"(?=.*(?:暮らし|住ん|住み|引っ越|引越|ルームシェア))"
        ),
    ),
    ("partner", "", re.compile(rf"{_JA_VALUE}と(?:別れ|離婚し){_JA_DONE}")),
)
_JA_START = (
    ("home", "", re.compile(rf"{_JA_VALUE}に(?:引っ越し|引越し|転居し|移住し|移り住ん){_JA_DONE}")),
    (
        "work",
        "",
        re.compile(
            rf"{_JA_VALUE}(?:に|へ)(?:異動|転職|就職|入社|転勤)(?:し|になっ)"
            rf"{_JA_DONE}"
        ),
    ),
)
# "もう X はしてない": an end of what the clause names, every noun of it named in the old
# memory (a one-kanji noun never is: もう夜は飲まない narrows, it does not end).
_JA_NO_MORE = re.compile(
    r"(?P<said>[^、。]*もう[^、。]*?)(?:てない|ていない|てません|てへん|しない"
    r"|しません|らない|わない|かない|まない|ばない|たない|さない|れない|ない)"
)
_JA_NO_MORE_NOUN = re.compile(
    r"([\u3400-\u9fff々]+|[\u30a0-\u30ffー]{2,}|[A-Za-z]{2,})"
    r"(?=[をがはにでともへや])"
)
_JA_NOT_NAMED = frozenset({"全然", "全く", "絶対", "今", "最近", "今は"})
# Single, and its end: married, engaged or going out with someone now.
_JA_SINGLE = re.compile(r"^(?:ずっと|まだ|今も|いまも)?独身(?:で|だ|です|なん|、|。|$)")
_JA_PARTNERED = re.compile(
    rf"(?:結婚し|婚約し|入籍し|付き合い(?:始め|だし|出し)){_JA_DONE}|と付き合って(?:る|いる|います)"
)
_JA_VALUE_STOP = frozenset(
    {
        "会社",
        "仕事",
        "職場",
        "店",
        "家",
        "部屋",
        "近く",
        "今",
        "新しい",
        "マンション",
        "アパート",
        "ところ",
        "所",
    }
)
_JA_NOT_A_VALUE = re.compile(
    r"一緒|みんな|家族|[一二三四五六七八九十何数\d]+人|ひとり|夫婦|親子|自分"
)
_JA_RUN = re.compile(r"[\u3400-\u9fff々]+|[\u30a0-\u30ffー・]+|[A-Za-z0-9]+")


def _ja_value(
    value: str, *, name: bool = False, lone: bool = False, span: bool = False
) -> frozenset[str]:
    """The value's units: each kanji run's bigrams, each katakana or Latin run whole; a single
    kanji or letter only when the value is a person's ``name`` (健) or a home that is ``lone``
    (寮, 店の寮: the one run that names something). A whole sentence's ``span`` drops its
    with-whom words and keeps the rest."""
    units: set[str] = set()
    if span:
        value = _JA_NOT_A_VALUE.sub("、", value)
    elif _JA_NOT_A_VALUE.search(value):
        return frozenset()  # with whom or how many, not where (家族と一緒に, 五人で)
    runs = [run for run in _JA_RUN.findall(value) if run not in _JA_VALUE_STOP]
    for run in runs:
        if len(run) == 1:
            if name or (lone and len(runs) == 1):
                units.add(run)  # else one kanji or letter alone (朝, 家) names nothing surely
        elif re.fullmatch(r"[\u3400-\u9fff々]+", run):
            units.update(run[i : i + 2] for i in range(len(run) - 1))
        else:
            units.add(run)
    return frozenset(units)


# The user's kin or friend at the head: by name (ユーザーの友達の梢は → 梢, as a note about them
# says), or one-of-a-kind kin unnamed, each said one way (ユーザーのお母さんは → ユーザーの母).
_JA_ONE_KIN = {
    "母": "母",
    "母親": "母",
    "お母さん": "母",
    "父": "父",
    "父親": "父",
    "お父さん": "父",
    "夫": "夫",
    "旦那": "夫",
    "旦那さん": "夫",
    "主人": "夫",
    "ご主人": "夫",
    "妻": "妻",
    "奥さん": "妻",
    "嫁": "妻",
    "祖母": "祖母",
    "おばあちゃん": "祖母",
    "祖父": "祖父",
    "おじいちゃん": "祖父",
}
_JA_KIN = re.compile(
    "^ユーザーの(?:(?:"
    + "|".join((*lex.JA_PERSONS, *lex.JA_CHAIN_PERSONS, "猫", "犬", "愛犬", "愛猫"))
    + ")の(?P<name>[^、。はがをにでのと\\s「」]{1,8}?)"
    "(?:さん|ちゃん|くん|君)?|(?P<kin>"
    + "|".join(sorted(_JA_ONE_KIN, key=len, reverse=True))
    + "))(?:は、?|、)"
)


def _kin(m: re.Match[str]) -> str | None:
    """The subject a head match names: a name, one kin said one way, or the topic."""
    if "kin" not in m.groupdict():
        return m.group("s")
    if m.group("kin"):
        return "ユーザーの" + _JA_ONE_KIN[m.group("kin")]
    name = m.group("name")
    return None if name in lex.JA_PERSONS or name in lex.JA_CHAIN_PERSONS else name


def ja_sentences(text: str) -> list[tuple[str | None, str]]:
    """Each sentence's subject (its topic, else the note's so far; None when unknown) and the
    rest of it."""
    out: list[tuple[str | None, str]] = []
    last: str | None = None
    for sentence in re.split(r"(?<=[。！!])", text):
        sentence = sentence.strip()
        m = _JA_KIN.match(sentence) or _JA_SUBJECT.match(sentence)
        topic = _kin(m) if m else None
        if topic is None or _JA_TIME_TOPIC.match(topic):
            subject, body = last, sentence  # no topic of its own: the note's subject goes on
        else:
            subject, body = topic, sentence[m.end() :] if m else sentence
        last = subject
        out.append((subject, body))
    return out


def ja_claims(text: str) -> list[Claim]:
    out: list[Claim] = []
    for subject, body in ja_sentences(text):
        if subject is None:
            continue
        if _JA_SINGLE.match(body) and not _JA_UNSURE.search(body.split("、")[0]):
            out.append(Claim(subject, "partner", "", SINGLE, "role", cue="single"))
        if not body or _JA_UNSURE.search(body):
            continue
        span = _ja_value(body, span=True)
        found = [spanned(c, span) for c in _ja_sentence(subject, body)]
        if not _JA_SECOND.search(body):
            found += [c for clause in body.split("、") for c in ja_counts(subject, clause)]
        out += [second(c) if _JA_SECOND.search(body) else wide(c) for c in found]
    return out


def _ja_sentence(subject: str, body: str) -> list[Claim]:
    out = []
    states = [(kind, m) for kind, pattern in _JA_STATE.items() for m in pattern.finditer(body)]
    states += [("home", m) for m in _JA_HOME_WITH.finditer(body)]
    for kind, m in states:
        if _JA_PRESENT.match(m.group("after")) and _own(body, m.start()):
            frame = "as" if m.groupdict().get("frame") == "として働いて" else "at"
            out += _ja_states(subject, kind, frame, m.group("value"))
    for m in _JA_HOME_NOUN.finditer(body):
        if _own(body, m.start()):
            out += _ja_states(subject, "home", "at", m.group("value"))
    for m in _JA_BUSINESS.finditer(body):
        if _own(body, m.start()):
            value = _ja_value(m.group("value")) | {_SHOP}
            out.append(Claim(subject, "work", "run", value, "role"))
    for m in _JA_ROLE.finditer(body):
        if _own(body, m.start()):
            out.append(Claim(subject, "work", "role", _ja_value(m.group("value")), "role"))
    if not _JA_PAST.search(body) and not any(p.search(body) for _, _, p in _JA_END):
        out.append(Claim(subject, "activity", "", _ja_value(body, span=True), "activity"))
    for shape, table in (("end", _JA_END), ("state", _JA_START)):
        for kind, cue, pattern in table:
            for m in pattern.finditer(body):
                if not _own(body, m.start()) or (cue == "closed" and _JA_DAILY.search(body)):
                    continue
                frame = "" if shape == "end" else "at"
                if shape == "state" and kind == "work" and "の" in m.group("value"):
                    # 立川の消防署に異動した: another of the same kind of place (its head said)
                    out += _ja_states(subject, kind, frame, m.group("value"))[1:]
                    continue
                if "異動" in m.group(0):
                    frame = "within"  # a section of the same employer: not another employer
                value = _ja_value(m.group("value"), name=kind == "partner", lone=kind == "home")
                if cue == "closed" and m.group("value").endswith("店"):
                    value |= {_SHOP}  # the shop: the one the subject runs
                verb = m.group(0)[len(m.group("value")) :].lstrip("をはのにから仕事")[:2]
                out.append(Claim(subject, kind, frame, value, shape, cue=cue or verb))
    for m in _JA_NO_MORE.finditer(body):
        nouns = frozenset(_JA_NO_MORE_NOUN.findall(m.group("said"))) - _JA_NOT_NAMED
        if nouns and _own(body, m.start()):
            value = frozenset(u for n in nouns for u in (_ja_value(n) or {n}))
            out.append(Claim(subject, "any", "", value, "end", cue="no more"))
    if _JA_PARTNERED.search(body) and _own(body, _JA_PARTNERED.search(body).start()):
        out.append(Claim(subject, "partner", "", SINGLE, "end", cue="single"))
    return out


def _ja_states(subject: str, kind: str, frame: str, said: str) -> list[Claim]:
    """A state's claim; and when its value is "A の B", B's A alone too, in a frame of its own
    (八王子の消防署 → 立川の消防署: the same kind of place, elsewhere)."""
    value = _ja_value(said, name=kind == "partner", lone=kind == "home")
    out = [Claim(subject, kind, frame, value, "state")]
    head, _, what = said.rpartition("の")
    if head and what and not re.search(r"の", what):
        out.append(Claim(subject, kind, f"{frame}:{what}", _ja_value(head), "state"))
    return out


def _own(body: str, start: int) -> bool:
    """Whether the clause before the value names no other subject (が / は; a time as topic,
    今は or 最近は, is none)."""
    return not re.search(r"[がは]", _JA_TIME_AS_TOPIC.sub("", body[:start].split("、")[-1]))
