"""The English cues of ``note_close`` a sentence may hold besides its frames (pure).

Ends said other ways than a verb right after the subject ("no longer", "can't … any more",
"…, no more X", "sold the X"), a partner named in a possessive and a couple's split, being
single and its end, and the rewrites that read "'s" as "has" or "is" ("Osric's left",
"Ludmila's down to three", "Perry's had to stop"). Patterns only; no I/O.
"""

from __future__ import annotations

import re

__all__ = [
    "CANNOT",
    "COUPLE_SPLIT",
    "NO_LONGER",
    "NO_MORE",
    "PARTNER",
    "PARTNERED",
    "PERFECT",
    "SINGLE",
    "SOLD",
    "rewrite",
]

# The user's kin or friend named at the sentence's head ("User's best friend Torvald lives …",
# "User's mum Isolde has …"): the sentence is about that person, said by name, as a note about
# them is ("Torvald has moved back …"). Someone's thing ("User's sister Uma's dog") is no one.
_NAMED_KIN = re.compile(
    r"^User['\u2019]s (?:[a-z\-]+ ){1,3}(?P<n>[A-Z][a-z\-]+)(?:, \d+,)?(?= [a-z])"
)
# The user's one-of-a-kind kin unnamed ("User's mum lives …", "User's dad, 83, still …"): one
# subject, the same in every note (a sister or a son may be one of several: not read).
_ONE_KIN = re.compile(
    r"^User['\u2019]s (?P<r>mum|mother|mom|dad|father|wife|husband|partner|boyfriend|girlfriend"
    r"|gran|grandma|grandmother|grandad|granddad|grandfather|nan)(?:, \d+,)?(?= [a-z])"
)
# Two people as one subject ("Orsola and Arno have moved", "Lennox and Lennox's wife Uma
# live"): what they do together is the first one's too (not a split: that is told of both).
_TWO = re.compile(
    r"^(?P<a>[A-Z][a-z\-]+) and (?:(?P=a)['\u2019]s (?:[a-z\-]+ ){1,2})?[A-Z][a-z\-]+"
    r"(?= (?!(?:have |had |finally |decided to |both )*(?:split|broke|separated|divorced"
    r"|called it quits|went their|go their))[a-z])"
)
_KIN_SAME = {
    "mother": "mum",
    "mom": "mum",
    "father": "dad",
    "granddad": "grandad",
    "grandma": "gran",
    "grandmother": "gran",
    "nan": "gran",
    "grandfather": "grandad",
}

NO_LONGER = re.compile(r"^(?:is )?no longer (?P<rest>.+)|^does not (?P<neg>.+) any ?more\b")
# "can't climb any more": what one does, ended (named whole, as "no more").
CANNOT = re.compile(r"^(?:ca|can) ?not (?P<value>.+?) any ?more\b")
# "sold the oud": what one plays, runs or lives on, ended; the thing named whole and not the
# old clause's own verb ("paints" is not ended by "sold the painting").
SOLD = re.compile(r"^(?:sold|has sold|gave away|given away) (?P<value>(?:the|his|her|their) .+)")
# "…, no more X": an end said as a clause of its own (not "no more than"); it closes only what
# the old sentence names with every word of X.
NO_MORE = re.compile(r"^(?:so |and )?no more (?!than\b|of\b)(?P<value>.+)")
# "'s" before a past participle is "has" ("Osric's left the quarry"), not a possessive; "left"
# before a body part is the side.
HAS = re.compile(
    r"^(?P<s>[A-Z][\w\-]*(?: [A-Z][\w\-]*)?)['\u2019]s (?=(?:quit|left|given|gone|got|moved|been"
    r"|taken|stopped|packed|handed|started|signed|finished|stepped|stood|settled|sold|become"
    r"|switched|swapped|dropped|joined|retired|closed|shut|split)\b)"
    r"(?!left (?:arm|hand|leg|knee|foot|eye|ear|shoulder|side|wrist|ankle|hip|lung|kidney)\b)"
)
# "'s" before a verb in -ing with its object or place after ("Orsola's learning the zither") is
# "is"; not a noun in -ing ("Orsola's wedding ring", "Orsola's painting is lovely").
IS = re.compile(
    r"^(?P<s>[A-Z][\w\-]*(?: [A-Z][\w\-]*)?)['\u2019]s (?=(?:down|up) to\b"
    r"|[a-z]+ing (?:the|a|an|to|at|in|on|for|with|from|about|up|out|over|his|her"
    r"|their|some|two|three|four|five)\b)"
)
# "has had to stop X": the end done ("stopped X"), not a past retold.
HAD_TO = re.compile(
    r"(?:(?<=[a-z] )(?:has|have) |(?<=[a-z])['\u2019]s )had to (stop|quit|give up|close|shut"
    r"|sell)\b"
)
HAD_TO_DONE = {
    "stop": "stopped",
    "quit": "quit",
    "give up": "gave up",
    "close": "closed",
    "shut": "shut",
    "sell": "sold",
}
# A partner named in a possessive ("Ola's girlfriend Mia", "Ola's wife is called Mia", "Ola has
# a partner called Mia"): a role a break-up ends. Not "ex-" or "late": those are over already.
PARTNER_WORD = r"(?:girlfriend|boyfriend|partner|wife|husband|fianc[ée]e?)"
PARTNER = re.compile(
    rf"\b(?P<s>[A-Z][\w\-]*)(?:['\u2019]s| has an?) {PARTNER_WORD},? (?:is called |called "
    r"|named )?(?P<t>[A-Z][\w\-]*)"
)
# A couple's break-up said of both ("Ola and Mia split up").
COUPLE_SPLIT = re.compile(
    r"^(?P<s>[A-Z][\w\-]*) and (?P<t>[A-Z][\w\-]*) (?:have |had |finally |decided to )*"
    r"(?:split up|broke up|separated|divorced|called it quits|(?:went|go) their separate ways)\b"
)
# Single, and its end: a partner now (not "seeing a doctor").
SINGLE = re.compile(r"^(?:is|been|has been) (?:still |happily |very )?single\b")
PARTNERED = re.compile(
    r"^(?:been|is|are) (?:seeing|dating|going out with)"  # not a bare "seeing" ("…, and seeing
    # the students progress" is a clause of something else)
    r"(?! (?:an?|the|his|her|their) (?:doctor|therapist|physio\w*|specialist|counsell?or"
    r"|consultant|dentist|gp|nurse|psycholog\w+|psychiatrist)\b| (?:friends|family|a lot)\b)"
    r"|^(?:got|is|are|been) (?:engaged|married)\b"
    rf"|^(?:got )?an? (?:new )?{PARTNER_WORD}\b"
)

PERFECT = re.compile(
    r"^(?:has|have) (?!been\b|got\b)(?:[a-z]+(?:ed|en|ne|wn)|lent|sent|spent|built|bought"
    r"|brought|caught|taught|sold|told|held|kept|left|lost|made|met|paid|put|set|shut|won|done"
    r"|had|heard|found)\b"
)


def rewrite(raw: str) -> str:
    """The sentence with "'s" read as "has" or "is" where a participle or "down to" follows,
    and "had to stop" after "has" as the end done ("stopped")."""
    raw = _NAMED_KIN.sub(r"\g<n>", raw)
    raw = _TWO.sub(r"\g<a>", raw)
    raw = _ONE_KIN.sub(lambda m: f"User-{_KIN_SAME.get(m.group('r'), m.group('r'))}", raw)
    raw = HAS.sub(r"\g<s> has ", raw)
    raw = IS.sub(r"\g<s> is ", raw)
    return HAD_TO.sub(
        lambda m: ("" if m.group(0)[0] == "h" else " ") + HAD_TO_DONE[m.group(1)], raw
    )
