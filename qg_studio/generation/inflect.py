"""Verb forms for do-support and tense changes.

spaCy's rule lemmatizer is right for most verbs but stumbles on some irregular past
forms in old-fashioned prose ("slew", "bade", "wrought"), and questions need the
bare form after "did" and the past form in "Who ...?" questions, so irregulars are
listed here once.
"""

from __future__ import annotations

# lemma: (past, past participle)
IRREGULAR: dict[str, tuple[str, str]] = {
    "arise": ("arose", "arisen"),
    "awake": ("awoke", "awoken"),
    "be": ("was", "been"),
    "bear": ("bore", "borne"),
    "beat": ("beat", "beaten"),
    "become": ("became", "become"),
    "begin": ("began", "begun"),
    "behold": ("beheld", "beheld"),
    "bend": ("bent", "bent"),
    "bid": ("bade", "bidden"),
    "bind": ("bound", "bound"),
    "bite": ("bit", "bitten"),
    "bleed": ("bled", "bled"),
    "blow": ("blew", "blown"),
    "break": ("broke", "broken"),
    "breed": ("bred", "bred"),
    "bring": ("brought", "brought"),
    "build": ("built", "built"),
    "burn": ("burnt", "burnt"),
    "burst": ("burst", "burst"),
    "buy": ("bought", "bought"),
    "cast": ("cast", "cast"),
    "catch": ("caught", "caught"),
    "choose": ("chose", "chosen"),
    "cling": ("clung", "clung"),
    "come": ("came", "come"),
    "cost": ("cost", "cost"),
    "creep": ("crept", "crept"),
    "cut": ("cut", "cut"),
    "deal": ("dealt", "dealt"),
    "dig": ("dug", "dug"),
    "do": ("did", "done"),
    "draw": ("drew", "drawn"),
    "dream": ("dreamt", "dreamt"),
    "drink": ("drank", "drunk"),
    "drive": ("drove", "driven"),
    "dwell": ("dwelt", "dwelt"),
    "eat": ("ate", "eaten"),
    "fall": ("fell", "fallen"),
    "feed": ("fed", "fed"),
    "feel": ("felt", "felt"),
    "fight": ("fought", "fought"),
    "find": ("found", "found"),
    "flee": ("fled", "fled"),
    "fling": ("flung", "flung"),
    "fly": ("flew", "flown"),
    "forbid": ("forbade", "forbidden"),
    "forget": ("forgot", "forgotten"),
    "forgive": ("forgave", "forgiven"),
    "freeze": ("froze", "frozen"),
    "get": ("got", "got"),
    "give": ("gave", "given"),
    "go": ("went", "gone"),
    "grind": ("ground", "ground"),
    "grow": ("grew", "grown"),
    "hang": ("hung", "hung"),
    "have": ("had", "had"),
    "hear": ("heard", "heard"),
    "hide": ("hid", "hidden"),
    "hit": ("hit", "hit"),
    "hold": ("held", "held"),
    "hurt": ("hurt", "hurt"),
    "keep": ("kept", "kept"),
    "kneel": ("knelt", "knelt"),
    "know": ("knew", "known"),
    "lay": ("laid", "laid"),
    "lead": ("led", "led"),
    "leap": ("leapt", "leapt"),
    "learn": ("learnt", "learnt"),
    "leave": ("left", "left"),
    "lend": ("lent", "lent"),
    "let": ("let", "let"),
    "lie": ("lay", "lain"),
    "light": ("lit", "lit"),
    "lose": ("lost", "lost"),
    "make": ("made", "made"),
    "mean": ("meant", "meant"),
    "meet": ("met", "met"),
    "pay": ("paid", "paid"),
    "put": ("put", "put"),
    "quit": ("quit", "quit"),
    "read": ("read", "read"),
    "rend": ("rent", "rent"),
    "rid": ("rid", "rid"),
    "ride": ("rode", "ridden"),
    "ring": ("rang", "rung"),
    "rise": ("rose", "risen"),
    "run": ("ran", "run"),
    "say": ("said", "said"),
    "see": ("saw", "seen"),
    "seek": ("sought", "sought"),
    "sell": ("sold", "sold"),
    "send": ("sent", "sent"),
    "set": ("set", "set"),
    "sew": ("sewed", "sewn"),
    "shake": ("shook", "shaken"),
    "shine": ("shone", "shone"),
    "shoot": ("shot", "shot"),
    "show": ("showed", "shown"),
    "shut": ("shut", "shut"),
    "sing": ("sang", "sung"),
    "sink": ("sank", "sunk"),
    "sit": ("sat", "sat"),
    "slay": ("slew", "slain"),
    "sleep": ("slept", "slept"),
    "slide": ("slid", "slid"),
    "sling": ("slung", "slung"),
    "smite": ("smote", "smitten"),
    "speak": ("spoke", "spoken"),
    "speed": ("sped", "sped"),
    "spend": ("spent", "spent"),
    "spin": ("spun", "spun"),
    "spit": ("spat", "spat"),
    "split": ("split", "split"),
    "spread": ("spread", "spread"),
    "spring": ("sprang", "sprung"),
    "stand": ("stood", "stood"),
    "steal": ("stole", "stolen"),
    "stick": ("stuck", "stuck"),
    "sting": ("stung", "stung"),
    "stride": ("strode", "stridden"),
    "strike": ("struck", "struck"),
    "string": ("strung", "strung"),
    "strive": ("strove", "striven"),
    "swear": ("swore", "sworn"),
    "sweep": ("swept", "swept"),
    "swim": ("swam", "swum"),
    "swing": ("swung", "swung"),
    "take": ("took", "taken"),
    "teach": ("taught", "taught"),
    "tear": ("tore", "torn"),
    "tell": ("told", "told"),
    "think": ("thought", "thought"),
    "throw": ("threw", "thrown"),
    "tread": ("trod", "trodden"),
    "understand": ("understood", "understood"),
    "wake": ("woke", "woken"),
    "wear": ("wore", "worn"),
    "weave": ("wove", "woven"),
    "weep": ("wept", "wept"),
    "win": ("won", "won"),
    "wind": ("wound", "wound"),
    "wring": ("wrung", "wrung"),
    "write": ("wrote", "written"),
    "work": ("worked", "wrought"),
}

# Past and participle forms back to the lemma; a form shared by two verbs ("lay",
# "found", "wound") keeps the more common reading.
_FROM_FORM: dict[str, str] = {}
for _lemma, (_past, _part) in IRREGULAR.items():
    for _form in (_part, _past):
        _FROM_FORM.setdefault(_form, _lemma)
for _form, _lemma in {
    "lay": "lie",
    "found": "find",
    "wound": "wind",
    "ground": "grind",
    "were": "be",
    "wrought": "work",
    "saw": "see",
    "left": "leave",
    "lit": "light",
    "rent": "rend",
}.items():
    _FROM_FORM[_form] = _lemma

_VOWELS = "aeiou"


def lemma_of(form: str, spacy_lemma: str | None = None) -> str:
    """The bare form of a verb form, trusting the irregular table over spaCy."""
    low = form.lower()
    if low in _FROM_FORM:
        return _FROM_FORM[low]
    if low in ("is", "am", "are", "was", "were", "been", "being"):
        return "be"
    if low in ("has", "had", "having"):
        return "have"
    if low in ("does", "did", "done"):
        return "do"
    if spacy_lemma and spacy_lemma.isalpha():
        return spacy_lemma.lower()
    return _strip_suffix(low)


def _strip_suffix(low: str) -> str:
    if low.endswith("ied"):
        return low[:-3] + "y"
    if low.endswith("ed") and len(low) > 4:
        stem = low[:-2]
        if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
            return stem[:-1]
        return stem if not stem.endswith(("v", "c", "at", "ur")) else stem + "e"
    return low


def past_of(lemma: str) -> str:
    lemma = lemma.lower()
    if lemma in IRREGULAR:
        return IRREGULAR[lemma][0]
    if lemma.endswith("e"):
        return lemma + "d"
    if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in _VOWELS:
        return lemma[:-1] + "ied"
    if (
        len(lemma) >= 3
        and lemma[-1] not in _VOWELS + "wxy"
        and lemma[-2] in _VOWELS
        and lemma[-3] not in _VOWELS
        and len(lemma) <= 4
    ):
        return lemma + lemma[-1] + "ed"
    return lemma + "ed"


def third_person_of(lemma: str) -> str:
    lemma = lemma.lower()
    special = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if lemma in special:
        return special[lemma]
    if lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        return lemma + "es"
    if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in _VOWELS:
        return lemma[:-1] + "ies"
    return lemma + "s"


def do_support(tag: str, plural_subject: bool = False) -> str:
    """The form of "do" that carries the tense of a verb with Penn tag ``tag``."""
    if tag == "VBZ":
        return "does"
    if tag == "VBP":
        return "do"
    return "did"
