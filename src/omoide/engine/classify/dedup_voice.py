"""Dedup's notation across an English pair: a passive clause read in the active voice where
the other text says it actively with the same verb (pure).

A part of ``dedup_notation.pair_notation`` (see its docstring). Trigger: one text says "X is
led by Y" / "X was raised by Y" and the other "Y leads X" / "Y raised X". Why: read word by
word, the two differ in three places (the auxiliary, the verb's form, "by" and the order of the
parts), which the judge weighed as a changed statement. Outcome: the passive clause rewritten
as "Y <the other text's verb> X" (the rest of the clause after the agent kept in place), only
when the other text holds the same verb in the active voice at the same tense (is / are ↔
present, was / were ↔ past, has / have been ↔ has / have + participle). Who does what to whom
is kept, so "X was bitten by Y" against "X bit Y" becomes two texts whose parts traded places,
which the trade rule refuses. Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["active_voice", "irregular_base"]

# Common irregular verbs: base, past, past participle (general English).
_IRREGULAR: tuple[tuple[str, str, str], ...] = (
    ("be", "was", "been"),
    ("beat", "beat", "beaten"),
    ("become", "became", "become"),
    ("begin", "began", "begun"),
    ("bite", "bit", "bitten"),
    ("blow", "blew", "blown"),
    ("break", "broke", "broken"),
    ("bring", "brought", "brought"),
    ("build", "built", "built"),
    ("buy", "bought", "bought"),
    ("catch", "caught", "caught"),
    ("choose", "chose", "chosen"),
    ("cut", "cut", "cut"),
    ("deal", "dealt", "dealt"),
    ("do", "did", "done"),
    ("draw", "drew", "drawn"),
    ("drive", "drove", "driven"),
    ("eat", "ate", "eaten"),
    ("feed", "fed", "fed"),
    ("find", "found", "found"),
    ("forget", "forgot", "forgotten"),
    ("forgive", "forgave", "forgiven"),
    ("freeze", "froze", "frozen"),
    ("give", "gave", "given"),
    ("grow", "grew", "grown"),
    ("hang", "hung", "hung"),
    ("have", "had", "had"),
    ("hear", "heard", "heard"),
    ("hide", "hid", "hidden"),
    ("hit", "hit", "hit"),
    ("hold", "held", "held"),
    ("hurt", "hurt", "hurt"),
    ("keep", "kept", "kept"),
    ("know", "knew", "known"),
    ("lay", "laid", "laid"),
    ("lead", "led", "led"),
    ("leave", "left", "left"),
    ("lend", "lent", "lent"),
    ("let", "let", "let"),
    ("lose", "lost", "lost"),
    ("make", "made", "made"),
    ("mean", "meant", "meant"),
    ("meet", "met", "met"),
    ("oversee", "oversaw", "overseen"),
    ("pay", "paid", "paid"),
    ("put", "put", "put"),
    ("read", "read", "read"),
    ("ride", "rode", "ridden"),
    ("ring", "rang", "rung"),
    ("run", "ran", "run"),
    ("say", "said", "said"),
    ("see", "saw", "seen"),
    ("sell", "sold", "sold"),
    ("send", "sent", "sent"),
    ("set", "set", "set"),
    ("shake", "shook", "shaken"),
    ("shoot", "shot", "shot"),
    ("show", "showed", "shown"),
    ("shut", "shut", "shut"),
    ("sing", "sang", "sung"),
    ("speak", "spoke", "spoken"),
    ("spend", "spent", "spent"),
    ("split", "split", "split"),
    ("spread", "spread", "spread"),
    ("steal", "stole", "stolen"),
    ("sting", "stung", "stung"),
    ("strike", "struck", "struck"),
    ("take", "took", "taken"),
    ("teach", "taught", "taught"),
    ("tear", "tore", "torn"),
    ("tell", "told", "told"),
    ("think", "thought", "thought"),
    ("throw", "threw", "thrown"),
    ("understand", "understood", "understood"),
    ("undertake", "undertook", "undertaken"),
    ("upset", "upset", "upset"),
    ("wake", "woke", "woken"),
    ("wear", "wore", "worn"),
    ("win", "won", "won"),
    ("write", "wrote", "written"),
)
_BY_PARTICIPLE = {pp: (base, past) for base, past, pp in _IRREGULAR}
_BY_FORM = {form: base for base, past, pp in _IRREGULAR for form in (past, pp) if form != base}


def irregular_base(form: str) -> str | None:
    """The base of an irregular English past or past participle (sang, sung: sing), or None."""
    return _BY_FORM.get(form)


_DETERMINERS = frozenset(
    {"a", "an", "the", "my", "his", "her", "their", "our", "its", "this", "that"}
)
_AUX_TENSE = {
    "is": "present",
    "are": "present",
    "am": "present",
    "was": "past",
    "were": "past",
    "has been": "perfect",
    "have been": "perfect",
}
# A passive with its agent: "<aux> <participle> by".
_PASSIVE = re.compile(
    r"\b(is|are|am|was|were|has been|have been)\s+([a-z]+)\s+by\s+", re.IGNORECASE
)
# Where a clause starts before the passive's subject, and where the agent ends.
_CLAUSE_START = re.compile(
    r"[,;:(—–]\s*|\b(?:and|but|so|because|while|which|that|who|said|says)\s+", re.IGNORECASE
)
_AGENT_END = re.compile(
    r"\s*[,;:.!?()—–]|\s+(?:in|on|at|during|since|for|from|to|every|each|last|this|next|until|"
    r"till|after|before|with|because|so|and|but|while|when|who|which|that|as|once|twice|"
    r"more|less)\b",
    re.IGNORECASE,
)


def _regular_bases(participle: str) -> list[str]:
    """The bases a regular participle may come from (worked: work; raised: raise; planned:
    plan; carried: carry)."""
    if not participle.endswith("ed") or len(participle) < 5:
        return []
    stem = participle[:-2]
    bases = [stem, participle[:-1]]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        bases.append(stem[:-1])
    if stem.endswith("i"):
        bases.append(stem[:-1] + "y")
    return bases


def _present(base: str) -> set[str]:
    forms = {base, base + "s", base + "es"}
    if base.endswith("y"):
        forms.add(base[:-1] + "ies")
    return forms


def _active_forms(participle: str, tense: str) -> set[str]:
    """The active forms of the participle's verb at ``tense`` (perfect: the participle, read
    after has / have)."""
    lowered = participle.lower()
    if lowered in _BY_PARTICIPLE:
        base, past = _BY_PARTICIPLE[lowered]
        bases = [base]
    else:
        bases, past = _regular_bases(lowered), lowered
    if not bases:
        return set()
    if tense == "present":
        return set().union(*(_present(b) for b in bases))
    if tense == "past":
        return {past}
    return {lowered}


def _active_verb(other: str, participle: str, tense: str) -> str | None:
    """How ``other`` writes the participle's verb in the active voice at ``tense`` (the verb,
    or "has" / "have" and the participle), when it does; never a passive of it."""
    forms = _active_forms(participle, tense)
    if not forms:
        return None
    alternatives = "|".join(sorted(map(re.escape, forms), key=len, reverse=True))
    if tense == "perfect":
        pattern = rf"\b(?:has|have)\s+(?:{alternatives})\b"
    else:
        pattern = (
            rf"(?<!\bis )(?<!\bare )(?<!\bam )(?<!\bwas )(?<!\bwere )(?<!\bbeen )"
            rf"(?<!\bbe )\b(?:{alternatives})\b"
        )
    found = re.search(pattern, other, re.IGNORECASE)
    if found is None or re.search(rf"\b{re.escape(participle)}\s+by\b", other, re.IGNORECASE):
        return None
    return found.group()


def active_voice(first: str, second: str) -> str:
    """``second`` with a passive clause "X <aux> <participle> by Y" written "Y <verb> X" where
    ``first`` holds the verb in the active voice at the same tense (see the module
    docstring); ``second`` unchanged otherwise."""
    for match in _PASSIVE.finditer(second):
        tense = _AUX_TENSE[re.sub(r"\s+", " ", match.group(1).lower())]
        verb = _active_verb(first, match.group(2), tense)
        if verb is None:
            continue
        starts = [m.end() for m in _CLAUSE_START.finditer(second, 0, match.start())]
        start = starts[-1] if starts else 0
        subject = second[start : match.start()].strip()
        end = _AGENT_END.search(second, match.end())
        agent_end = end.start() if end else len(second)
        agent = second[match.end() : agent_end].strip()
        if not subject or not agent:
            continue
        head = subject.split()[0]
        if (
            start == 0
            and head[0].isupper()
            and (
                head.lower() in _DETERMINERS or re.search(rf"\b{re.escape(head.lower())}\b", first)
            )
        ):
            subject = subject[0].lower() + subject[1:]  # capitalised only to open the text
        lead = second[:start]
        return f"{lead}{agent} {verb} {subject}{second[agent_end:]}"
    return second
