"""The signals a sentence carries, in English and Japanese (pure, offline): a first-person
statement, names and other capitalised words, numbers and dates, life events ("moved",
"adopted", 引っ越した), preferences ("love", 好き), profile facts ("I work as", 住んでいる) and
hobbies, skills and instruments ("I play the saxophone", 趣味, ピアノを弾く), as patterns and
word lists; the words that carry no fact (evaluative words, Japanese filler); a question's end.
Sentence scoring (``rules``) and a sentence's shape (``statements``) read them; a note's kind
(``kinds``) reads :func:`kind_patterns`.
"""

from __future__ import annotations

import re

from omoide.engine.lang import EN_MONTH_ABBREVIATIONS, EN_MONTHS, EN_WEEKDAYS, word_set

__all__ = [
    "EN_FIRST_PERSON",
    "EN_HOBBY",
    "EN_LIFE_EVENT",
    "EN_NUMBER",
    "EN_PREFERENCE",
    "EN_PROFILE",
    "EN_TIME",
    "EVALUATIVE",
    "JA_CONTENT",
    "JA_FILLER",
    "JA_FIRST_PERSON",
    "JA_HOBBY",
    "JA_KATAKANA_WORD",
    "JA_LIFE_EVENT",
    "JA_NAMED",
    "JA_OTHER_SUBJECT",
    "JA_PREFERENCE",
    "JA_PROFILE",
    "JA_TIME",
    "QUESTION_END",
    "Cue",
    "kind_patterns",
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


QUESTION_END = re.compile(r"[?？][\"'”’)」』）]*$|(?:ですか|ますか)[。]?$")

EN_FIRST_PERSON = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll)\b|\b(?:me|my|mine|myself|we|we're|we've|we'd|we'll|our|ours|us)\b",
    re.IGNORECASE,
)
_MONTHS = "|".join(m.lower() for m in (*EN_MONTHS, *EN_MONTH_ABBREVIATIONS))
_WEEKDAYS = "|".join(EN_WEEKDAYS)
EN_TIME = re.compile(
    rf"\b(?:yesterday|today|tonight|tomorrow|ago|recently|lately|weekend|(?:last|next|this|"
    rf"past|coming)\s+(?:week|month|year|night|summer|winter|spring|fall|autumn|time|{_WEEKDAYS})"
    rf"|{_WEEKDAYS}|(?:in|on|since|until|by)\s+(?:{_MONTHS})|(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
EN_NUMBER = re.compile(
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|hundred|thousand|dozen|first|second|third)\b",
    re.IGNORECASE,
)
EN_LIFE_EVENT = re.compile(
    r"\b(?:moved|moving|started|starting|adopted|adopting|married|marrying|engaged|graduated|"
    r"graduating|joined|quit|retired|hired|promoted|divorced|pregnant|born|bought|sold|visited|"
    r"travell?ed|went|took|began|finished|completed|won|lost|passed|failed|opened|launched|"
    r"signed up|volunteer(?:ed|ing)?|learned|learnt|made|built|painted|wrote|published|"
    r"got|received|met|planning|plan to|going to|decided|applied|enrolled|attended|ran|"
    r"competed|performed|played|organized|organised|created|started|tried|found|saw|read|"
    r"bake[ds]?|cooked|camping|hiking|trip|concert|class|course|job|school|workshop|event)\b",
    re.IGNORECASE,
)
EN_PREFERENCE = re.compile(
    r"\b(?:(?:I|we|they|he|she|really|also|totally|truly|absolutely|do|don't|didn't|still|"
    r"always|kids|both)\s+(?:really\s+|absolutely\s+|just\s+)?(?:like|love|enjoy|hate|prefer|"
    r"adore|dislike)|loves|likes|enjoys|hates|prefers|adores|dislikes|favou?rite|fan of|"
    r"can't stand|passionate about|obsessed with|(?:I'm|I am|we're)\s+(?:really\s+|so\s+)?into|"
    r"big fan)\b",
    re.IGNORECASE,
)
EN_PROFILE = re.compile(
    r"\b(?:my name|call me|years old|live in|living in|lives in|grew up|born in|"
    r"(?:I'm|I am|come|originally) from|work as|work at|working as|job as|"
    r"I(?:'m| am) an? (?!bit\b|little\b|lot\b)\w+(?:er|or|ist|ian|ant|ent|ee)|"
    r"my (?:husband|wife|partner|boyfriend|girlfriend|son|daughter|kids|children|mom|mother|dad|"
    r"father|sister|brother|family|dog|cat|pet|job|birthday|career)|identify as|transgender|"
    r"single (?:parent|mom|mother|dad|father)|I'm single|degree|major in)\b",
    re.IGNORECASE,
)
# Hobbies, skills and instruments: short ("I play the saxophone") but lasting facts.
EN_HOBBY = re.compile(
    r"\b(?:(?:I|we)\s+(?:\w+\s+)?(?:play|played|practi[cs]e|practi[cs]ed)\s+(?:the\s+)?\w+|"
    r"my hobb(?:y|ies)|hobby|(?:I|we)\s+(?:can|could)\s+(?:speak|play|cook|swim|code|program|"
    r"knit|sing|dance|draw|paint|sew|ski|surf|skate|climb|juggle|ride)|"
    r"(?:I'm|I am|I've been)\s+(?:\w+\s+)?(?:learning|taking (?:\w+\s+)?lessons|good at|"
    r"fluent in)|fluent in|I\s+(?:\w+\s+)?(?:speak|knit|crochet|sew|surf|ski|skate|climb|"
    r"collect|garden|juggle|sing in|play in)\b|(?:I'm|I am) (?:a|an) (?:amateur|hobby|"
    r"self-taught) \w+)",
    re.IGNORECASE,
)
# Evaluative words say how the speaker feels about what the other said, not what happened.
EVALUATIVE = word_set(
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

JA_FIRST_PERSON = re.compile(r"私(?![立服物用鉄的生])|僕|俺|わたし|あたし|自分")
# Japanese drops the subject when it is the speaker; a sentence is about someone else only when
# it names them as its subject ("妹は…", "田中さんが…", "彼は…").
# A bare kin or relation word is the speaker's own ("兄は大阪なので" is "my brother …": Japanese
# says "my" by not honouring them), as "my sister" is a first-person cue in English; a pronoun
# or a name with an honorific is someone else.
JA_OTHER_SUBJECT = re.compile(
    r"(?:彼女?|先生|[\u3400-\u9fff\u30a0-\u30ff]{1,6}(?:さん|くん|君|ちゃん|様))(?:は|が|も)"
)
JA_TIME = re.compile(
    r"昨日|今日|明日|昨夜|今朝|先週|今週|来週|先月|今月|来月|去年|昨年|今年|来年|週末|最近|"
    r"\d+\s*(?:年|月|日|時|歳|才)|[一二三四五六七八九十]+(?:年|月|日)"
)
JA_LIFE_EVENT = re.compile(
    r"引っ越|始め|はじめ|結婚|卒業|入社|入学|転職|退職|就職|飼い始|生まれ|買っ|行っ|旅行|"
    r"合格|辞め|やめ|受け|参加|出会|付き合|別れ|作っ|習い|通い|登っ|観に|見に"
)
JA_PREFERENCE = re.compile(r"好き|嫌い|苦手|ハマ|はまっ|お気に入り|推し|愛用|好み|興味")
JA_PROFILE = re.compile(
    r"名前|呼んで|住んで|出身|歳|仕事|働いて|職業|誕生日|家族|妻|夫|彼氏|彼女|子供|娘|息子|"
    r"犬|猫|ペット|学生|会社員"
)
JA_HOBBY = re.compile(
    r"趣味|特技|弾(?:い|け|く|き)|吹(?:い|け|く|き)|習(?:って|い|う)|得意|話せ|練習|集めて|"
    r"やって(?:いる|います|る)|始めた"
)
JA_FILLER = re.compile(
    r"こんにちは|こんばんは|おはよう(?:ございます)?|ありがとう(?:ございます)?|よろしく|おやすみ|"
    r"またね|じゃあね|お疲れ(?:様)?|すごい|いいね|なるほど|そうなんだ|そうなんです|へえ|わかる|"
    r"そっか|うん|ええ|はい|いいなあ|いいな|素敵|楽しみ|ね|よ|な|！|!|。|、|\s"
)
JA_CONTENT = re.compile(r"[\u30a0-\u30ff\u3400-\u9fff]|\d")
JA_KATAKANA_WORD = re.compile(r"[\u30a1-\u30fa\u30fc]{2,}")
# A name given to someone or something ("名前はこむぎです", "ポチという名前", "ハナと名付けた"):
# a proper noun even in hiragana, which the kanji/katakana count would miss.
_JA_KANA_NAME = r"[\u3041-\u3096\u30a1-\u30fa\u30fc]{2,12}"
JA_NAMED = re.compile(
    rf"名前は\s*「?(?P<a>{_JA_KANA_NAME})」?(?=です|だ|で|。|$)|"
    rf"「?(?P<b>{_JA_KANA_NAME})」?(?:という|って)名前|(?P<c>{_JA_KANA_NAME})と名付け"
)


def kind_patterns(japanese: bool) -> dict[str, re.Pattern[str]]:
    """What names a preference, a profile fact or a life event, per language
    (:mod:`omoide.engine.consolidate.kinds` reads the kind of a note with them)."""
    if japanese:
        return {
            Cue.PREFERENCE: JA_PREFERENCE,
            Cue.PROFILE: JA_PROFILE,
            Cue.LIFE_EVENT: JA_LIFE_EVENT,
        }
    return {Cue.PREFERENCE: EN_PREFERENCE, Cue.PROFILE: EN_PROFILE, Cue.LIFE_EVENT: EN_LIFE_EVENT}
