"""Which sentences of a turn are worth a note, and what kind of note (pure, offline).

Each sentence gets an informativeness score from surface cues: a first-person statement, names
and other capitalised words, numbers and dates, life events ("moved", "adopted", 引っ越した),
preferences ("love", 好き), profile facts ("I work as", 住んでいる) and hobbies, skills and
instruments ("I play the saxophone", 趣味, ピアノを弾く). Questions, greetings,
thanks and praise for the other speaker ("Wow, that's great!") carry no new fact and score 0.
A sentence that ends laughing ("lol", 笑) scores less: it is mostly a passing remark.
The weights are hand-set, not learned; bench/consolidate.py measures them.
No I/O, no clock; the caller passes thresholds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from omoide.engine.consolidate.interjections import is_vocative, strip_interjections
from omoide.engine.lang import (
    EN_MONTH_ABBREVIATIONS,
    EN_MONTHS,
    EN_WEEKDAYS,
    is_japanese,
    note_content_words,
    word_set,
    word_tokens,
)

__all__ = [
    "Cue",
    "SentenceScore",
    "carries_content",
    "is_question",
    "is_vocative",
    "kind_patterns",
    "mentions_speaker",
    "names_itself",
    "score_sentence",
    "score_turn",
    "strip_interjections",
]


class Cue:
    """Labels of the signals a sentence carried; they become the note's tags."""

    FIRST_PERSON = "first-person"
    ENTITY = "entity"
    TIME = "time"
    NUMBER = "number"
    LIFE_EVENT = "life-event"
    PREFERENCE = "preference"
    PROFILE = "profile"
    HOBBY = "hobby"
    PHOTO = "photo"  # a shared image's caption (event metadata), never a sentence of the text


@dataclass(frozen=True)
class SentenceScore:
    text: str  # the sentence with leading interjections and vocatives removed
    score: float  # 0 means "no new fact here"
    cues: frozenset[str]


# "Let's keep going!", "Can't wait for Friday!": encouragement and plans for the chat itself.
_SUGGESTION = re.compile(r"(?:let's|let us|can't wait|keep (?:it|up)|stay )\b", re.IGNORECASE)
_QUESTION_END = re.compile(r"[?？][\"'”’)」』）]*$|(?:ですか|ますか)[。]?$")

_FIRST_PERSON = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll)\b|\b(?:me|my|mine|myself|we|we're|we've|we'd|we'll|our|ours|us)\b",
    re.IGNORECASE,
)
_FIRST_PERSON_MENTION = re.compile(r"\bI\b|\bI['’]|\b(?:my|me|mine|myself)\b", re.IGNORECASE)
_SECOND_PERSON = re.compile(r"\b(?:you|your|you're|you've|yours|yourself)\b", re.IGNORECASE)
_MONTHS = "|".join(m.lower() for m in (*EN_MONTHS, *EN_MONTH_ABBREVIATIONS))
_WEEKDAYS = "|".join(EN_WEEKDAYS)
_TIME = re.compile(
    rf"\b(?:yesterday|today|tonight|tomorrow|ago|recently|lately|weekend|(?:last|next|this|"
    rf"past|coming)\s+(?:week|month|year|night|summer|winter|spring|fall|autumn|time|{_WEEKDAYS})"
    rf"|{_WEEKDAYS}|(?:in|on|since|until|by)\s+(?:{_MONTHS})|(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|hundred|thousand|dozen|first|second|third)\b",
    re.IGNORECASE,
)
_LIFE_EVENT = re.compile(
    r"\b(?:moved|moving|started|starting|adopted|adopting|married|marrying|engaged|graduated|"
    r"graduating|joined|quit|retired|hired|promoted|divorced|pregnant|born|bought|sold|visited|"
    r"travell?ed|went|took|began|finished|completed|won|lost|passed|failed|opened|launched|"
    r"signed up|volunteer(?:ed|ing)?|learned|learnt|made|built|painted|wrote|published|"
    r"got|received|met|planning|plan to|going to|decided|applied|enrolled|attended|ran|"
    r"competed|performed|played|organized|organised|created|started|tried|found|saw|read|"
    r"bake[ds]?|cooked|camping|hiking|trip|concert|class|course|job|school|workshop|event)\b",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"\b(?:(?:I|we|they|he|she|really|also|totally|truly|absolutely|do|don't|didn't|still|"
    r"always|kids|both)\s+(?:really\s+|absolutely\s+|just\s+)?(?:like|love|enjoy|hate|prefer|"
    r"adore|dislike)|loves|likes|enjoys|hates|prefers|adores|dislikes|favou?rite|fan of|"
    r"can't stand|passionate about|obsessed with|(?:I'm|I am|we're)\s+(?:really\s+|so\s+)?into|"
    r"big fan)\b",
    re.IGNORECASE,
)
_PROFILE = re.compile(
    r"\b(?:my name|call me|years old|live in|living in|lives in|grew up|born in|"
    r"(?:I'm|I am|come|originally) from|work as|work at|working as|job as|"
    r"I(?:'m| am) an? (?!bit\b|little\b|lot\b)\w+(?:er|or|ist|ian|ant|ent|ee)|"
    r"my (?:husband|wife|partner|boyfriend|girlfriend|son|daughter|kids|children|mom|mother|dad|"
    r"father|sister|brother|family|dog|cat|pet|job|birthday|career)|identify as|transgender|"
    r"single (?:parent|mom|mother|dad|father)|I'm single|degree|major in)\b",
    re.IGNORECASE,
)
# Evaluative words say how the speaker feels about what the other said, not what happened.
# Hobbies, skills and instruments: short ("I play the saxophone") but lasting facts.
_HOBBY = re.compile(
    r"\b(?:(?:I|we)\s+(?:\w+\s+)?(?:play|played|practi[cs]e|practi[cs]ed)\s+(?:the\s+)?\w+|"
    r"my hobb(?:y|ies)|hobby|(?:I|we)\s+(?:can|could)\s+(?:speak|play|cook|swim|code|program|"
    r"knit|sing|dance|draw|paint|sew|ski|surf|skate|climb|juggle|ride)|"
    r"(?:I'm|I am|I've been)\s+(?:\w+\s+)?(?:learning|taking (?:\w+\s+)?lessons|good at|"
    r"fluent in)|fluent in|I\s+(?:\w+\s+)?(?:speak|knit|crochet|sew|surf|ski|skate|climb|"
    r"collect|garden|juggle|sing in|play in)\b|(?:I'm|I am) (?:a|an) (?:amateur|hobby|"
    r"self-taught) \w+)",
    re.IGNORECASE,
)
_EVALUATIVE = word_set(
    """
    great amazing awesome cool nice wonderful fantastic incredible inspiring inspired inspire
    proud happy glad sorry excited exciting fun lovely beautiful sweet super impressive
    interesting good best stoked thrilled thankful grateful appreciate appreciated support
    supportive kind cute adorable powerful hear sounds sound seems looks look wish luck hope
    keep going means lot much thing things stuff way wow totally absolutely definitely special
    important true right agree feel feels felt sure maybe pretty bit tough hard life really
    always never ever thanks thank man girl guys buddy dude yeah
    """
)

_JA_FIRST_PERSON = re.compile(r"私(?![立服物用鉄的生])|僕|俺|わたし|あたし|自分")
# Japanese drops the subject when it is the speaker; a sentence is about someone else only when
# it names them as its subject ("妹は…", "田中さんが…", "彼は…").
# A bare kin or relation word is the speaker's own ("兄は大阪なので" is "my brother …": Japanese
# says "my" by not honouring them), as "my sister" is a first-person cue in English; a pronoun
# or a name with an honorific is someone else.
_JA_OTHER_SUBJECT = re.compile(
    r"(?:彼女?|先生|[\u3400-\u9fff\u30a0-\u30ff]{1,6}(?:さん|くん|君|ちゃん|様))(?:は|が|も)"
)
_JA_TIME = re.compile(
    r"昨日|今日|明日|昨夜|今朝|先週|今週|来週|先月|今月|来月|去年|昨年|今年|来年|週末|最近|"
    r"\d+\s*(?:年|月|日|時|歳|才)|[一二三四五六七八九十]+(?:年|月|日)"
)
_JA_LIFE_EVENT = re.compile(
    r"引っ越|始め|はじめ|結婚|卒業|入社|入学|転職|退職|就職|飼い始|生まれ|買っ|行っ|旅行|"
    r"合格|辞め|やめ|受け|参加|出会|付き合|別れ|作っ|習い|通い|登っ|観に|見に"
)
_JA_PREFERENCE = re.compile(r"好き|嫌い|苦手|ハマ|はまっ|お気に入り|推し|愛用|好み|興味")
_JA_PROFILE = re.compile(
    r"名前|呼んで|住んで|出身|歳|仕事|働いて|職業|誕生日|家族|妻|夫|彼氏|彼女|子供|娘|息子|"
    r"犬|猫|ペット|学生|会社員"
)
_JA_HOBBY = re.compile(
    r"趣味|特技|弾(?:い|け|く|き)|吹(?:い|け|く|き)|習(?:って|い|う)|得意|話せ|練習|集めて|"
    r"やって(?:いる|います|る)|始めた"
)
_JA_FILLER = re.compile(
    r"こんにちは|こんばんは|おはよう(?:ございます)?|ありがとう(?:ございます)?|よろしく|おやすみ|"
    r"またね|じゃあね|お疲れ(?:様)?|すごい|いいね|なるほど|そうなんだ|そうなんです|へえ|わかる|"
    r"そっか|うん|ええ|はい|いいなあ|いいな|素敵|楽しみ|ね|よ|な|！|!|。|、|\s"
)
_JA_CONTENT = re.compile(r"[\u30a0-\u30ff\u3400-\u9fff]|\d")
_JA_KATAKANA_WORD = re.compile(r"[\u30a1-\u30fa\u30fc]{2,}")
# A name given to someone or something ("名前はこむぎです", "ポチという名前", "ハナと名付けた"):
# a proper noun even in hiragana, which the kanji/katakana count would miss.
_JA_KANA_NAME = r"[\u3041-\u3096\u30a1-\u30fa\u30fc]{2,12}"
_JA_NAMED = re.compile(
    rf"名前は\s*「?(?P<a>{_JA_KANA_NAME})」?(?=です|だ|で|。|$)|"
    rf"「?(?P<b>{_JA_KANA_NAME})」?(?:という|って)名前|(?P<c>{_JA_KANA_NAME})と名付け"
)


def is_question(sentence: str) -> bool:
    """The sentence asks something ("…?", "…？", "…ですか")."""
    return bool(_QUESTION_END.search(sentence.strip()))


def score_sentence(sentence: str, participants: frozenset[str]) -> SentenceScore:
    """Informativeness of one sentence; ``participants`` are names used as vocatives."""
    text = strip_interjections(sentence, participants)
    if not text or _QUESTION_END.search(text):
        return SentenceScore(text, 0.0, frozenset())
    scored = _score_japanese(text) if is_japanese(text) else _score_english(text, participants)
    if _LAUGHING_END.search(text):
        return replace(scored, score=max(scored.score - _LAUGH_PENALTY, 0.0))
    return scored


# A sentence that ends laughing ("my knees are wrecked lol", 「左手が動かない笑」) is mostly a
# passing remark: it needs more to be kept (it still can be: "I got the job lol"). 0.8 on
# chats_a: three of 164 notes said nothing to keep, none lost; 0.4 dropped two.
_LAUGH_PENALTY = 0.8
_LAUGHING_END = re.compile(
    r"(?:\b(?:lol|lmao|haha+|hehe+)|笑|(?<=[\u3040-\u30ff\u3400-\u9fff])[wｗ]+|😂|🤣)"
    r"[\s.!。！…〜～]*$",
    re.IGNORECASE,
)


def _score_english(text: str, participants: frozenset[str]) -> SentenceScore:
    content = note_content_words(text)
    substantive = [w for w in content if w not in _EVALUATIVE]
    entities = _count_entities(text, participants)
    enough = len(substantive) + entities >= _words_needed(text)
    if not enough or _SUGGESTION.match(text):
        return SentenceScore(text, 0.0, frozenset())
    cues = _english_cues(text, participants)
    score = 0.3 * min(len(substantive), 8)
    score += sum(_CUE_WEIGHTS[c] for c in cues)
    score += 0.6 * min(entities, 3)
    if Cue.FIRST_PERSON not in cues and _SECOND_PERSON.search(text):
        score -= 0.8  # mostly about the listener: praise, advice, questions in disguise
    if len(content) - len(substantive) > len(substantive):
        score -= 0.5  # more reaction than content
    return SentenceScore(text, max(score, 0.0), cues)


_CUE_WEIGHTS = {
    Cue.FIRST_PERSON: 1.0,
    Cue.ENTITY: 0.0,  # counted per entity instead
    Cue.TIME: 1.0,
    Cue.NUMBER: 0.5,
    Cue.LIFE_EVENT: 1.0,
    Cue.PREFERENCE: 0.8,
    Cue.PROFILE: 0.8,
    Cue.HOBBY: 1.0,
    Cue.PHOTO: 0.0,
}


def _words_needed(text: str) -> int:
    """How many content words and names a sentence needs to be a fact: a hobby or skill is one
    even in three words ("I play saxophone"), and so is the speaker's own home, work, study or
    family said in two ("I work at a bakery.", "I quit my job."), and what they love or hate
    ("I really hate olives."); anything else needs three."""
    if _HOBBY.search(text):
        return 1
    if (_PROFILE.search(text) or _PREFERENCE.search(text)) and _FIRST_PERSON.search(text):
        return 2
    return 3


def _english_cues(text: str, participants: frozenset[str]) -> frozenset[str]:
    found = {
        Cue.FIRST_PERSON: _FIRST_PERSON.search(text),
        Cue.TIME: _TIME.search(text),
        Cue.NUMBER: _NUMBER.search(text),
        Cue.LIFE_EVENT: _LIFE_EVENT.search(text),
        Cue.PREFERENCE: _PREFERENCE.search(text),
        Cue.PROFILE: _PROFILE.search(text) and _FIRST_PERSON.search(text),
        Cue.HOBBY: _HOBBY.search(text),
        Cue.ENTITY: _count_entities(text, participants) > 0,
    }
    return frozenset(cue for cue, hit in found.items() if hit)


def _count_entities(text: str, participants: frozenset[str]) -> int:
    """Capitalised words that are not the sentence's first word, "I", or a participant."""
    tokens = word_tokens(text)
    shouting = sum(1 for t in tokens if len(t) > 1 and t.isupper()) > 2
    seen = {
        token
        for token in tokens[1:]
        if token[:1].isupper()
        and not token.startswith("I'")
        and token not in {"I", "OK", "OMG", "LOL"}
        and not (shouting and token.isupper())
        and not is_vocative(token.removesuffix("'s"), participants)
    }
    return len(seen)


def _score_japanese(text: str) -> SentenceScore:
    residue = _JA_FILLER.sub("", text)
    names = [next(g for g in m.groups() if g) for m in _JA_NAMED.finditer(text)]
    content = len(_JA_CONTENT.findall(residue)) + sum(
        len(n) for n in names if not _JA_KATAKANA_WORD.fullmatch(n)
    )
    if content < 3:
        return SentenceScore(text, 0.0, frozenset())
    found = {
        Cue.FIRST_PERSON: _JA_FIRST_PERSON.search(text) or not _JA_OTHER_SUBJECT.search(text),
        Cue.TIME: _JA_TIME.search(text),
        Cue.NUMBER: re.search(r"\d|[一二三四五六七八九十百千万]", text),
        Cue.LIFE_EVENT: _JA_LIFE_EVENT.search(text),
        Cue.PREFERENCE: _JA_PREFERENCE.search(text),
        Cue.PROFILE: _JA_PROFILE.search(text),
        Cue.HOBBY: _JA_HOBBY.search(text),
        Cue.ENTITY: _JA_KATAKANA_WORD.search(text) or names,
    }
    cues = frozenset(cue for cue, hit in found.items() if hit)
    entities = set(_JA_KATAKANA_WORD.findall(text)) | set(names)
    score = 0.3 * min(content / 2, 8) + sum(_CUE_WEIGHTS[c] for c in cues)
    score += 0.6 * min(len(entities), 3)
    return SentenceScore(text, score, cues)


# How the speaker feels right now ("tired.", 眠い) and hedges around it ("fine though lol"):
# a passing state, not something to keep.
_MOOD = word_set(
    """
    tired busy exhausted sleepy bored nervous stressed anxious worried sad upset sick ill
    hungry full excited relieved terrified scared okay ok-ish ish alright fine meh though
    lol lmao haha god
    """
)
_JA_MOOD = re.compile(r"眠|疲れ|暇|忙し|緊張|不安|元気|大丈夫|まあまあ|微妙")


def carries_content(sentence: str, participants: frozenset[str]) -> bool:
    """Whether a sentence says something besides greetings, reactions and how the speaker
    feels: "September.", "Four days.", 「経理。」 do; "haha", "tired.", 「うん。」, 「眠い」 do
    not. A short piece like these scores 0 alone, yet answers the question it follows."""
    text = strip_interjections(sentence, participants)
    if not text or _QUESTION_END.search(text):
        return False
    if is_japanese(text):
        residue = _JA_MOOD.sub("", _JA_FILLER.sub("", text))
        return len(_JA_CONTENT.findall(residue)) >= 2
    return any(w not in _EVALUATIVE and w not in _MOOD for w in note_content_words(text))


# A sentence that opens with its own subject: a pronoun, a demonstrative or a possessive.
_OPENING_SUBJECT = re.compile(
    r"^(?:I|I['’]\w+|me|my|we|we['’]\w+|our|you|your|he|she|they|it|it['’]s|its|his|her|their|"
    r"this|that|that['’]s|these|those|there|there['’]s|here)\b",
    re.IGNORECASE,
)


# A Japanese sentence that ends in a predicate (a verb, an adjective, です/ます, a past
# tense), with the sentence-final particles and marks casual speech adds after it.
_JA_PREDICATE_END = re.compile(
    r"(?:[たるいうくすつぬぶむぐてだ]|ない|ます|です)"
    r"(?:んだ|のだ|の|よね|よ|ね|な|なあ|わ|さ|けど|けどね|から|し)?[。．！!？?…〜～ー笑wｗ\s]*$"
)


# … but not the particles of amount and extent that end a noun phrase (「週に三回くらい」).
_JA_PIECE_END = re.compile(
    r"(?:くらい|ぐらい|ほう|だけ|まで|ばかり|ばっか|など|とか)"
    r"[。．！!？?…〜～ー笑wｗ\s]*$"
)


def names_itself(sentence: str) -> bool:
    """Whether a sentence stands as a statement of its own: in English, it opens with a
    subject ("She moved …", "That's why …"; "every Monday, 45 minutes" and "mostly walking
    dogs" do not). Japanese leaves the subject out as a rule, so there it is a predicate at
    the end (「柴犬を飼っています。」, 「ピアノ教室やめちゃった」); a noun or a particle there is a
    piece whose topic the question set (「仙台。」, 「大手の」, 「来週から」)."""
    if is_japanese(sentence):
        text = sentence.strip()
        return bool(_JA_PREDICATE_END.search(text)) and not _JA_PIECE_END.search(text)
    return bool(_OPENING_SUBJECT.match(sentence.strip()))


def mentions_speaker(sentences: list[str]) -> bool:
    """Whether the sentences speak of the speaker ("I", "my", "we"): a note of them names
    the speaker once "I" becomes their name."""
    return any(_FIRST_PERSON.search(s) or _JA_FIRST_PERSON.search(s) for s in sentences)


def score_turn(chosen: list[SentenceScore], text: str) -> float:
    """A turn's worth as a note: its best sentence, a little for each further chosen sentence,
    how often the speaker talks about themselves, and its length (long turns tend to carry
    more facts). 0 when nothing was chosen."""
    if not chosen:
        return 0.0
    ranked = sorted((s.score for s in chosen), reverse=True)
    self_mentions = len(_FIRST_PERSON_MENTION.findall(text)) + len(_JA_FIRST_PERSON.findall(text))
    # A Japanese character carries about as much as 2.5 English ones.
    length = len(text) * (2.5 if is_japanese(text) else 1.0)
    extra = 0.3 * sum(ranked[1:]) + 0.2 * min(self_mentions, 5)
    return ranked[0] + extra + 0.5 * min(length, 400) / 100


def kind_patterns(japanese: bool) -> dict[str, re.Pattern[str]]:
    """What names a preference, a profile fact or a life event, per language
    (:mod:`omoide.engine.consolidate.kinds` reads the kind of a note with them)."""
    if japanese:
        return {
            Cue.PREFERENCE: _JA_PREFERENCE,
            Cue.PROFILE: _JA_PROFILE,
            Cue.LIFE_EVENT: _JA_LIFE_EVENT,
        }
    return {Cue.PREFERENCE: _PREFERENCE, Cue.PROFILE: _PROFILE, Cue.LIFE_EVENT: _LIFE_EVENT}
