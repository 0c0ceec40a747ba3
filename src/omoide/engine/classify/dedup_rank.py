"""Dedup's rank rule: one post said with a grade on one side and without it, or with another
grade, on the other (pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: "is a line cook" / "is a senior
line cook", "a governor of" / "the chair of governors of", "a member of the board" / "head of
the board", 委員 / 委員長, 大工 / 大工の見習い keep the post and every other value and change
only its grade, so the cosine (0.97-0.99) and the aligned difference see one word; yet the
grade is the fact (seen in four writers' sets, rounds 9, 22, 23 and 24). ``dedup_degree``
reads four English prefixes (deputy, vice, assistant, acting) after the same word, for the
judge; this rule reads every grade and refuses the pair outright.

Outcome: ``rank_changed`` is True when a post is held by both texts and the grades said next to
it differ:

- English: a run of grade words (senior, junior, deputy, vice, assistant, associate, chief,
  head, lead, principal, higher, acting, trainee, probationary, interim, sous, co-) before a
  post word, or "chair / head of" a plural post ("chair of trustees" grades "trustee"). The
  last grade word of a run is itself the post when no word follows ("a junior assistant in" /
  "an assistant in"). A bare post against a graded one counts when the two stand after the
  same word or both after function words ("takes acting lessons" / "takes drama lessons",
  "an accounts assistant job" / "a job as an accounts assistant" are not read; "chair / head
  of" is read after any word), a grade after a capitalised word is part of a name ("Hillside
  Junior School"), and a verb of the grade on
  the other side is a paraphrase frame ("heads the team" / "is head of the team", "chairs" /
  "is chair of");
- Japanese: a grade before a post (副, 准, 準, 上級, 見習い, 主任, 筆頭, 首席: 副会長 /
  会長), a grade after it (長 not followed by a kanji, 代理, 補佐, 見習い, の見習い: 理事 /
  理事長, 課長代理 / 課長) on one side only, or one rank title (主任, 係長, 課長, 次長,
  部長 …) put for another with the rest of the text the same. 長男, 長野 and 副業 are not
  grades (長 before a kanji, a post of one character), and a 長 said on the other side in any
  form (町内会長 / 町内会の会長) is not read.

Deterministic and symmetric.
"""

from __future__ import annotations

import re

from omoide.engine.lang import FACT_TOPIC_STOPWORDS, is_japanese

__all__ = ["rank_changed"]

_EN_GRADES = frozenset(
    {
        "senior",
        "junior",
        "deputy",
        "vice",
        "assistant",
        "associate",
        "chief",
        "head",
        "lead",
        "principal",
        "higher",
        "acting",
        "trainee",
        "probationary",
        "interim",
        "sous",
        "co",
    }
)
_OF_GRADES = frozenset({"chair", "chairman", "chairwoman", "chairperson", "head"})
# The verb of a grade: "heads the team" / "is head of the team" is one fact.
_VERBS = {
    "head": r"head(?:s|ed|ing)",
    "lead": r"(?:leads|led|leading)",
    **{g: r"chair(?:s|ed|ing)" for g in _OF_GRADES - {"head"}},
}
_TOKEN = re.compile(r"[A-Za-z]+")

# Post -> the set of grade sets it is said with (frozenset() when bare).
_Posts = dict[str, set[frozenset[str]]]


def _post(word: str) -> str:
    return word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith("ss") else word


def _grade(tokens: list[re.Match[str]], i: int, text: str) -> bool:
    word = tokens[i].group().lower()
    if word not in _EN_GRADES:
        return False
    if word == "co" and text[tokens[i].end() : tokens[i].end() + 1] != "-":
        return False
    before = tokens[i - 1].group() if i else ""
    return not (
        i
        and before[0].isupper()
        and before != "I"
        and tokens[i].group()[0].isupper()
        and text[tokens[i - 1].end() : tokens[i].start()].strip() == ""
    )


def _en_posts(text: str) -> tuple[_Posts, dict[str, str], dict[str, str]]:
    """Each post word with its grade sets, the word before each graded run and the word
    before each bare post (the first of each)."""
    tokens = list(_TOKEN.finditer(text))
    words = [t.group().lower() for t in tokens]
    posts: _Posts = {}
    graded: dict[str, str] = {}
    bare: dict[str, str] = {}
    i = 0
    while i < len(words):
        start = i
        while (
            i < len(words) and _grade(tokens, i, text) and words[i + 1 : i + 2] != ["of"]
        ):  # "head of governors": below
            i += 1
        grades = words[start:i]
        if (
            i + 2 < len(words)
            and words[i] in _OF_GRADES
            and words[i + 1] == "of"
            and words[i + 2] not in FACT_TOPIC_STOPWORDS
            and words[i + 2].endswith("s")
        ):
            grades, i = [*grades, words[i]], i + 2  # "chair of trustees", "head of governors"
        if i < len(words) and words[i] not in FACT_TOPIC_STOPWORDS and words[i] not in _EN_GRADES:
            post = _post(words[i])
        elif grades and not (i < len(words) and words[i] in _EN_GRADES):
            post, grades = grades[-1], grades[:-1]  # "a junior assistant in"
        else:
            i += 1
            continue
        posts.setdefault(post, set()).add(frozenset(grades))
        if grades:
            graded.setdefault(post, words[start - 1] if start else "")
        else:
            bare.setdefault(post, words[start - 1] if start else "")
        i += 1
    return posts, graded, bare


# A bare post said after one of these (or after the word before the grade) is the same post.
_OPENERS = FACT_TOPIC_STOPWORDS | {"is", "was", "be", "been", "s", ""}


def _en_changed(first: str, second: str) -> bool:
    a, b = _en_posts(first), _en_posts(second)
    for (x, graded_x, _), (y, _, bare_y), other in ((a, b, second), (b, a, first)):
        verbs = {g for g, v in _VERBS.items() if re.search(rf"\b{v}\b", other, re.I)}
        for post in x.keys() & y.keys():
            grades = {g - verbs for g in x[post]} - {frozenset()} - y[post]
            if not grades:
                continue
            if y[post] == {frozenset()} and not any(g & _OF_GRADES for g in grades):
                mine, theirs = graded_x.get(post), bare_y.get(post)
                if mine != theirs and (mine not in _OPENERS or theirs not in _OPENERS):
                    continue  # "acting lessons" / "drama lessons", "accounts assistant job"
            return True
    return False


_RUN = r"[\u4e00-\u9fff\u30a1-\u30fa\u30fc]"
_JA_PREFIX = re.compile(rf"(副|准|準|上級|見習い|主任|筆頭|首席)({_RUN}{{2,}})")
_JA_SUFFIX = re.compile(
    rf"({_RUN}{{2,}}?)(長(?!{_RUN})|代理|補佐)"
    r"|([^\s、。,.]{2,3}?)の?(見習い)"
)
_JA_TITLES = (
    "主任",
    "係長",
    "課長代理",
    "課長補佐",
    "課長",
    "次長",
    "部長",
    "本部長",
    "室長",
    "所長",
    "店長",
    "支店長",
    "社長",
    "副社長",
    "専務",
    "常務",
    "会長",
    "副会長",
    "理事長",
    "委員長",
    "校長",
    "教頭",
)


def _ja_graded(x: str, y: str) -> bool:
    for m in _JA_PREFIX.finditer(x):
        grade, run = m.groups()
        heads = [run[:n] for n in range(len(run), 1, -1)]
        if any(
            h in y and not re.search(rf"{re.escape(grade)}{re.escape(h)}", y) and grade not in y
            for h in heads
        ):
            return True
    for m in _JA_SUFFIX.finditer(x):
        run, grade = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        mark = grade
        tails = [run[n:] for n in range(len(run) - 1)]
        if mark not in y and any(t in y for t in tails):
            return True
    return any(
        t in x and u != t and x.replace(t, u, 1) == y for t in _JA_TITLES for u in _JA_TITLES
    )


def rank_changed(first: str, second: str) -> bool:
    """True when a post both texts hold is said with different grades (module docstring)."""
    if is_japanese(first) and is_japanese(second):
        return _ja_graded(first, second) or _ja_graded(second, first)
    if is_japanese(first) or is_japanese(second):
        return False
    return _en_changed(first, second)
