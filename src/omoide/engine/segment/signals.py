"""Text signals for offline episode segmentation (pure; helpers of ``boundaries``).

Three kinds of evidence that a new episode starts before a turn, each computed from the turns
alone, with no embedder, model or clock:

- discourse cues: greetings that (re)open a conversation ("Hey Sam! Long time no see",
  "久しぶり") and closings that end one ("Bye!", "Speak soon", "またね");
- cohesion: how similar the turns before a position are to the turns after it (TextTiling's
  block comparison, on passage embeddings instead of word counts), and how deep a valley in that
  curve is;
- topic keywords, to label a finished segment.

The cue lists are general English and Japanese conversation openers and closers, written for
any chat (never tuned to one data set's fixed phrases). No I/O, no randomness.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from omoide.engine.lang import CONVERSATION_FILLER, cjk_terms, english_words

__all__ = [
    "block_dissimilarity",
    "closing_cue",
    "depth_scores",
    "opening_cue",
    "robust_z",
    "topic_keywords",
    "topic_terms",
]


def _cues(*patterns: str) -> tuple[re.Pattern[str], ...]:
    """A list of cue patterns, compiled to match in any case."""
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


# A reunion cue says time has passed since the last talk; it opens an episode on its own.
_REUNION = _cues(
    r"\blong time no (see|talk|chat|hear|speak)\b",
    r"\b(good|great|nice|awesome|lovely) (to )?(see|hear from|talk to|catch up with|chat "
    r"with) you\b",
    r"\b(good|great|nice|awesome|lovely) to (see you|talk|chat|catch up|hear from you) again\b",
    r"\bhow (have|'ve|’ve) you been\b",
    r"\bsince (we|i) (last )?(talked|spoke|chatted|saw|caught up|messaged|met)\b",
    r"\bsince (the|our) last (chat|talk|call|time)\b",
    r"\b(haven't|have not|haven’t|havent) (talked|spoken|chatted|seen you|heard from you|"
    r"caught up)\b",
    r"\b(it's|it has|it’s|it) been (a while|ages|forever|a minute|so long|a few (days|weeks))",
    r"\bbeen (ages|forever|a while) since\b",
    r"久しぶり|ひさしぶり|元気(だった|にしてた|してた)|この前(話|会)|前回(話|会)",
)
# A salutation or an announcement opens a turn in many places mid-talk too ("Hey, that's
# cool", "guess what"): weak alone, but they add up.
_SALUTATION = _cues(
    r"^\W*(hey|hi|hello|hiya|howdy|yo|greetings|good (morning|afternoon|evening))\b",
    r"\bwhat('s|’s| is| has| have) (been )?(up|new|going on)\b|\banything new\b",
    r"\bhow('s|’s| is) (it going|everything|life|things)\b|\bhow are (you|ya|u)\b",
    r"\bhow('re|’re| are) (you|ya|u) (doin|doing)\b",
    r"\bhope (you're|you’re|you are|all is|everything('s|’s| is)) (doing )?(well|good|great|"
    r"ok|okay|alright|fine)\b",
    r"\b(guess what|you won't believe|you won’t believe|can you believe|big news)\b",
    r"\b(wanted|want) to (tell you|let you know|fill you in|share|update you)\b",
    r"^\W*(こんにちは|こんばんは|おはよう|やあ|ただいま|はじめまして)|聞いて(よ|ください)|報告",
)
_CLOSING = _cues(
    r"\b(bye|goodbye|bye-bye|good ?night|ttyl|cya)\b",
    r"\bsee (you|ya|u)( (later|soon|tomorrow|then|around|next time))?\s*([!.]|$)",
    r"\btake care\b|\btake it easy\b",
    r"\btalk (to you |with you )?(soon|later|tomorrow)\b|\bchat soon\b|\bspeak soon\b",
    r"\bcatch (you|ya) (later|soon)\b|\buntil next time\b",
    r"\bhave a (good|great|nice|lovely|wonderful) (day|night|evening|one|weekend)\b",
    r"\b(great|good|nice|fun|lovely) (talking|chatting|catching up)( to| with)?( you)?\b",
    r"\bit was (great|good|nice|fun|lovely) (talking|chatting|catching up)\b",
    r"\b(gotta|got to|have to|need to) (go|run|head out)\b|\b(i'll|i’ll|i will) let you go\b",
    r"\breach out any ?time\b",
    r"またね|じゃあね|おやすみ|さようなら|さよなら|バイバイ|また(明日|今度|後で|あとで|来週)",
    r"お疲れ様でした|失礼します",
)
_REUNION_WEIGHT = 0.6
_SALUTATION_WEIGHT = 0.3
_CLOSING_WEIGHT = 0.5


def opening_cue(text: str) -> float:
    """0..1: how strongly ``text`` reads as (re)opening a conversation."""
    reunion = any(p.search(text) for p in _REUNION)
    salutations = sum(1 for p in _SALUTATION if p.search(text))
    return min(1.0, _REUNION_WEIGHT * reunion + _SALUTATION_WEIGHT * salutations)


def closing_cue(text: str) -> float:
    """0..1: how strongly ``text`` reads as taking leave."""
    return min(1.0, _CLOSING_WEIGHT * sum(1 for p in _CLOSING if p.search(text)))


def block_dissimilarity(vectors: np.ndarray, width: int) -> np.ndarray:
    """d[i] = 1 - cos(mean of the ``width`` rows before i, mean of the ``width`` rows from i).

    d[0] is 0 (nothing before the first turn); blocks are cut short at either end.
    """
    n = len(vectors)
    out = np.zeros(n, dtype=np.float64)
    if n < 2:
        return out
    prefix = np.vstack(
        [np.zeros((1, vectors.shape[1])), np.cumsum(vectors, axis=0, dtype=np.float64)]
    )
    for i in range(1, n):
        left = prefix[i] - prefix[max(0, i - width)]
        right = prefix[min(n, i + width)] - prefix[i]
        denom = float(np.linalg.norm(left) * np.linalg.norm(right))
        out[i] = 1.0 - float(left @ right) / denom if denom > 0 else 0.0
    return out


def depth_scores(dissimilarity: np.ndarray) -> np.ndarray:
    """TextTiling depth, on a dissimilarity curve: how far position i rises above the lowest
    points reached by walking downhill from it to the left and to the right.

    A sharp, isolated peak scores high; a position on a long slope scores low. O(n).
    """
    n = len(dissimilarity)
    left = dissimilarity.copy()
    for i in range(2, n):
        if dissimilarity[i - 1] <= dissimilarity[i]:
            left[i] = left[i - 1]
    right = dissimilarity.copy()
    for i in range(n - 2, 0, -1):
        if dissimilarity[i + 1] <= dissimilarity[i]:
            right[i] = right[i + 1]
    out = (dissimilarity - left) + (dissimilarity - right)
    out[0] = 0.0
    return out


def robust_z(values: np.ndarray, *, min_count: int) -> np.ndarray:
    """(x - median) / (1.4826·MAD): a scale-free score, so the same cut-off works for embedders
    that spread cosine very differently (USE vs e5). All zeros when there are fewer than
    ``min_count`` values or no spread: too little evidence to call anything unusual."""
    if len(values) < min_count:
        return np.zeros(len(values))
    median = float(np.median(values))
    scale = 1.4826 * float(np.median(np.abs(values - median)))
    if scale <= 1e-9:
        return np.zeros(len(values))
    return (values - median) / scale


def topic_terms(texts: Sequence[str], *, exclude: frozenset[str]) -> list[str]:
    """Content words of ``texts`` in order (duplicates kept): Latin words of three or more
    letters minus stopwords and chat filler, and CJK content terms. ``exclude`` holds lowercase
    words to skip (speaker names, which every segment mentions)."""
    text = " ".join(texts)
    words = [w for w in english_words(text) if len(w) > 2 and not w.isdigit()]
    words = [w for w in words if w not in CONVERSATION_FILLER and w not in exclude]
    return words + [t for t in cjk_terms(text) if len(t) > 1 and t not in exclude]


def topic_keywords(segments: Sequence[Sequence[str]], k: int, *, limit: int = 3) -> list[str]:
    """Up to ``limit`` terms of ``segments[k]`` (each a list from :func:`topic_terms`) that are
    frequent there and rare in the other segments (tf·idf); first occurrence breaks ties."""
    counts = Counter(segments[k])
    spread = Counter(t for terms in segments for t in set(terms))  # own segment counted: -1
    size = len(segments)
    order = {term: pos for pos, term in enumerate(counts)}
    ranked = sorted(counts, key=lambda t: (-counts[t] * math.log(1.0 + size / spread[t]), order[t]))
    return ranked[:limit]
