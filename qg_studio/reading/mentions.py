"""Who a pronoun stands for: the latest compatible character mention before it, weighed
by where the pronoun sits (:mod:`binding`). Questions are read without the story beside
them, so "Why did he go?" must become "Why did the fisherman go?". Sections are parsed one
at a time; a section's pronouns go on from the characters on stage where the one before
ended (:mod:`qg_studio.reading.stage`).
"""

from __future__ import annotations

from qg_studio.reading.animacy import FEMALE
from qg_studio.reading.animacy import MALE
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.animacy import _gender
from qg_studio.reading.animacy import is_animate
from qg_studio.reading.animacy import made_a_person
from qg_studio.reading.animacy import personae
from qg_studio.reading.binding import brought_on_under
from qg_studio.reading.binding import called_since
from qg_studio.reading.binding import coarguments
from qg_studio.reading.binding import fall_back
from qg_studio.reading.binding import gender_named_before
from qg_studio.reading.binding import given_own
from qg_studio.reading.binding import kin_owner
from qg_studio.reading.binding import latest_of_its_noun
from qg_studio.reading.binding import listed_object
from qg_studio.reading.binding import persona_it
from qg_studio.reading.binding import subject_owner
from qg_studio.reading.binding import things_between
from qg_studio.reading.binding import twin_subject
from qg_studio.reading.binding import whole_group
from qg_studio.reading.binding import within
from qg_studio.reading.dialogue import all_speech
from qg_studio.reading.dialogue import is_vocative
from qg_studio.reading.dialogue import quoted_tokens
from qg_studio.reading.lexicon import BODY_PARTS
from qg_studio.reading.lexicon import NARRATOR
from qg_studio.reading.names import given_genders
from qg_studio.reading.names import name_by
from qg_studio.reading.names import named_characters
from qg_studio.reading.noun_phrases import MENTION_ROLES
from qg_studio.reading.noun_phrases import SUBJECT_ROLES
from qg_studio.reading.noun_phrases import Mention
from qg_studio.reading.noun_phrases import absent
from qg_studio.reading.noun_phrases import governor
from qg_studio.reading.noun_phrases import group_member
from qg_studio.reading.noun_phrases import head_noun
from qg_studio.reading.noun_phrases import holds_stage
from qg_studio.reading.noun_phrases import introduced
from qg_studio.reading.noun_phrases import name_word
from qg_studio.reading.noun_phrases import noun_mention_text
from qg_studio.reading.noun_phrases import own_thing
from qg_studio.reading.noun_phrases import pair_of
from qg_studio.reading.stage import Stage
from qg_studio.reading.stage import on_stage


class Resolver:
    """Pronoun → character mention, for one parsed section.

    Mentions are read in text order; each resolved pronoun becomes a mention of the
    character it stands for, so a chain of "she ... she" keeps pointing at one
    character. A subject pronoun prefers the latest subject (the character holding the
    stage) over a later object: "The owl listened. She gave Mira a wick, and she ...".
    """

    def __init__(self, doc, quoted: set[int] | None = None, before: Stage | None = None):
        self.doc = doc
        before = before or Stage()
        self.quoted = quoted_tokens(doc) if quoted is None else quoted
        self._resolved: dict[int, str] = {}
        self._pronoun: dict[str, str] = {}  # mention → the subject pronoun the text uses
        self._plural: set[str] = set()  # mentions of more than one: "they"
        # A fable's animals have no gender until the text gives one ("the Heron ... she");
        # once it has, "he" can no longer mean her.
        names, alias = named_characters(doc)  # "a badger named Bramble": one character
        self._gender: dict[str, str] = {**given_genders(alias), **dict(before.genders)}
        self._pronoun.update(before.pronouns)
        # (mention, was a subject); the section before's cast first, at indices below 0.
        mentions: list[tuple[Mention, bool]] = [
            (Mention(c.text, c.gender, c.plural, k - len(before.characters), c.owned), c.subject)
            for k, c in enumerate(before.characters)
        ]
        # The first sentence's "sentence before" is the last one of the section before.
        self._first_window = -sum(c.last_sentence for c in before.characters)
        self.names = names | before.names
        self.personae = personae(doc) | before.personae
        self._alias = {**dict(before.aliases), **alias}
        self._verb_args: dict[int, set[int]] = {}
        for token in doc:
            if token.pos_ in ("NOUN", "PROPN", "PRON"):
                self._verb_args.setdefault(governor(token), set()).add(token.i)
        chunk_at = {c.root.i: c for c in doc.noun_chunks}
        for token in doc:
            # "n": a thing made a person, "The little Cloud … It drifted away"
            kind = PRONOUNS.get(token.lower_) or ("n" if token.lower_ == "it" else None)
            if kind is not None:
                if token.i in self.quoted:
                    continue  # speech: "he" there may be anyone the speaker means
                found = (
                    persona_it(token, mentions, self.personae)
                    if kind == "n"
                    else self._said_again(mentions, kind, token)
                    or self._reflexive(mentions, token)
                    or kin_owner(token, mentions)
                    or whole_group(mentions, token)
                    or self._pick(mentions, kind, token)
                )
                if found is not None:
                    if kind in "mf" and not found.gender:
                        self._learn(mentions, found.text, kind)
                    self._resolved[token.i] = found.text
                    if token.dep_ in SUBJECT_ROLES and kind != "n":
                        self._pronoun.setdefault(found.text, token.lower_)
                    if token.dep_ in SUBJECT_ROLES or token.dep_ in ("dobj", "pobj"):
                        mentions.append(
                            (
                                Mention(found.text, found.gender, found.plural, token.i),
                                holds_stage(token),
                            )
                        )
                continue
            chunk = chunk_at.get(token.i)
            named = self.name_of(token)
            one = group_member(doc, mentions, token)
            if one is not None:
                mentions.append((one, holds_stage(token)))
                continue
            if chunk is not None and any(
                t.lower_ in ("no", "never", "not") and t.i < token.i for t in chunk
            ):
                continue  # "they kept no dog", "never a bird was seen": nobody to stand for
            if absent(token):
                continue
            # "Kofi's stomach turned cold. He ran back": whose stomach holds the stage, and
            # one whose heart or face it is, is someone.
            owns_subject = (
                token.dep_ == "poss"
                and token.pos_ in ("NOUN", "PROPN")
                and token.head.dep_ in SUBJECT_ROLES
                # a verb's own subject, not "with the lion's tail chipped"
                and token.head.head.dep_ in ("ROOT", "conj", "ccomp", "advcl")
                and not self.is_character(token.head)
            )
            # "a storm tore three feathers from the Peacock's tail. He hid": whose thing a
            # deed was done to is on stage too, behind the one who did it.
            # Only where no one does it: "who mended his uncle's nets" is the boy's deed.
            owns_object = (
                token.dep_ == "poss"
                and token.head.dep_ in ("dobj", "pobj")
                and self.is_character(token)
                and not any(
                    c.dep_ in SUBJECT_ROLES and (c.pos_ == "PRON" or self.is_character(c))
                    for c in doc[governor(token)].children
                )
            )
            # "the Squirrel's nest tumbled. All his leaves flew away": one whose thing it is.
            owner = owns_object or (
                owns_subject
                and (token.head.lemma_.lower() in BODY_PARTS or self.is_character(token))
            )
            if (
                named is None
                and not owner
                and (chunk is None or token.pos_ == "PRON" or not self.is_character(token))
            ):
                continue
            # "He knocked on Ola's gate": a name said as whose is someone a later "her"
            # may mean, though not one who holds the stage.
            named_owner = named is not None and token.dep_ == "poss"
            if (
                token.dep_ not in MENTION_ROLES
                and not (owns_subject or owns_object or named_owner or introduced(token))
            ) or is_vocative(token, self.quoted):
                continue
            if token.dep_ == "pobj" and token.head.lower_ in ("like", "as"):
                continue  # "rose like a flying bird", "sweet as a bird": a likeness
            text = noun_mention_text(token, chunk, named)
            if not text:
                continue
            if owns_subject or owns_object:  # "the old miller … the miller's heart": one miller
                text = latest_of_its_noun(text, mentions)
            # A name the story gave is one someone, whatever tag its final "s" earns
            # ("Tomas cut too quickly" tagged as a plural made "them", his shoes, Tomas).
            plural = (
                token.tag_ in ("NNS", "NNPS") and named is None
            ) or token.lemma_.lower() == "people"
            if plural:
                self._plural.add(text)
            gender = (
                _gender(token)
                or self._gender.get(text, "")
                or self._gender.get(name_word(text) or text, "")
                or gender_named_before(text, mentions)
            )
            # "her kite", "Noor's kite": a character's thing, until the story tells its sex.
            owned = any(
                t.dep_ == "poss" and t.pos_ in ("PRON", "PROPN") and t.i != token.i
                for t in chunk or [token]
            )
            mentions.append(
                (
                    Mention(text, gender, plural, token.i, owned and not gender),
                    holds_stage(token) or owns_subject,
                )
            )
            mentions.extend((pair, True) for pair in pair_of(token, mentions))
        self._mentions = mentions

    def stage(self) -> Stage:
        """The characters on stage where this section ends, latest last, for the next."""
        return Stage(
            characters=on_stage(self._mentions, self.doc, self.quoted),
            genders=tuple(sorted(self._gender.items())),
            pronouns=tuple(sorted(self._pronoun.items())),
            names=frozenset(self.names),
            personae=frozenset(self.personae),
            aliases=tuple(sorted(self._alias.items())),
        )

    def is_character(self, token) -> bool:
        """An animate noun, or a thing this story made a person ("the River")."""
        return is_animate(token) or made_a_person(token, self.personae)

    @property
    def aliases(self) -> dict[str, str]:
        """The nouns the story gave names to: ``{"cat": "Smudge"}`` ("a cat called Smudge")."""
        return dict(self._alias)

    def name_of(self, token) -> str | None:
        """The character's name when ``token`` is it, or a noun it was given to."""
        return name_by(token, self.names, self._alias)

    def _said_again(self, mentions, kind: str, token) -> Mention | None:
        """ "Her brother Sami watched her work": a "her" said again in one sentence is whom the
        first stood for, unless the first is the same verb's subject ("He hit him")."""
        if kind not in "mf" or token.lower_.endswith(("self", "selves")):
            return None
        verb = governor(token)
        earlier = [
            t
            for t in token.sent
            if t.i < token.i
            and PRONOUNS.get(t.lower_) == kind
            and t.i in self._resolved
            and not (t.dep_ in SUBJECT_ROLES and governor(t) == verb)
        ]
        if token.dep_ in SUBJECT_ROLES:  # "he watched the king …, and he wished": the first he
            earlier = [t for t in earlier if t.dep_ in SUBJECT_ROLES] or earlier
        if not earlier:
            return None
        text = self._resolved[earlier[-1].i]
        subject = next(
            (
                m
                for m, _ in mentions
                if m.index in self._verb_args.get(verb, set())
                and m.index < token.i
                and self.doc[m.index].dep_ in SUBJECT_ROLES
            ),
            None,
        )
        if subject is not None and subject.gender == kind:
            return None  # the subject is told to be a she too: the usual reading stands
        return next((m for m, _ in reversed(mentions) if m.text == text and m.gender == kind), None)

    def _reflexive(self, mentions, token) -> Mention | None:
        """ "Pip rolled herself into a ball", "She was proud of her beak": a reflexive, and
        a possessive whose gender fits, stand for their own verb's subject."""
        kind = PRONOUNS[token.lower_]
        if not token.lower_.endswith(("self", "selves")) and token.dep_ != "poss":
            return None
        verb = token.doc[governor(token)]
        # "Marta slipped and hurt her knee": a second verb's subject is the first one's.
        while verb.dep_ == "conj" and not any(c.dep_ in SUBJECT_ROLES for c in verb.children):
            verb = verb.head
        subjects = {c.i for c in verb.children if c.dep_ in SUBJECT_ROLES and c.i < token.i}
        found = next((m for m, _ in reversed(mentions) if m.index in subjects), None)
        if found is None or token.dep_ != "poss":
            return found
        # "Pip knocked at his door" is not Pip's door while another may be a he; with no one
        # else about, "A Fox crept out of his den" is the Fox's den.
        if kind == "p":
            return found if found.plural else None
        if found.plural or found.gender not in ("", kind):
            return None
        if found.gender == kind:
            return found
        floor = self._previous_sentence_start(token)
        other = any(
            m.index >= floor and m.text != found.text and not m.plural and m.gender in ("", kind)
            for m, _ in mentions
        )
        return None if other else found

    def _learn(self, mentions, text: str, kind: str) -> None:
        # "Old Bronwen ... she" tells that "Bronwen" is a she too: one name, said two ways.
        name = name_word(text)
        self._gender[text] = kind
        if name:
            self._gender.setdefault(name, kind)
        for mention, _ in mentions:
            if mention.text == text or (name and name_word(mention.text) == name):
                mention.gender = mention.gender or kind

    def gender_of(self, mention: str) -> str:
        """ "m", "f" or "" as the text has shown it (a pronoun) or the noun says."""
        return self._gender.get(mention, "")

    def _pick(self, mentions, kind: str, token) -> Mention | None:
        reflexive = token.lower_.endswith(("self", "selves"))
        owning = token.dep_ == "poss" and own_thing(token.head)
        same_verb = coarguments(self.doc, token, mentions, self._verb_args, self.name_of)

        def fits(m: Mention) -> bool:
            # "The Crow laughed at her": her is not the Crow (a non-reflexive pronoun
            # never means a character named by its own verb, by any of its names), nor
            # "her dried fish" him.
            if not reflexive and not owning and m.text in same_verb:
                return False
            if kind == "p":
                return m.plural
            if (m.owned and not m.gender) or listed_object(self.doc, m.index):
                return False  # not the horse of "dragged it with his horse", nor one of a list
            return not m.plural and m.gender in ("", kind)

        twin = twin_subject(token)
        if twin is not None:
            return next((m for m, _ in mentions if m.index == twin.i and fits(m)), None)
        owner = subject_owner(self.doc, mentions, token, fits) or given_own(
            self.doc, mentions, token, fits
        )
        if owner is not None:
            return owner
        if (
            kind == "p"
            and token.dep_ in ("dobj", "pobj")
            and things_between(self.doc, self.quoted, mentions, token, fits)
        ):
            return None
        # "He had a wife and a dog. One winter his wife died": a subject's owner, like a
        # subject, is the one holding the stage, not the dog named last.
        if token.dep_ in SUBJECT_ROLES or (
            token.dep_ == "poss" and token.head.dep_ in SUBJECT_ROLES
        ):
            # Within this sentence and the one before, the latest subject wins; not one a
            # speech names ('"There is a rude boy in the canyon," he said').
            floor = self._previous_sentence_start(token)
            told = self.quoted if token.i not in self.quoted else set()
            window = [m for m, s in mentions if s and fits(m) and floor <= m.index not in told]
            called = called_since(self.doc, mentions, window, floor, fits, kind)
            if called is not None:
                return called
            # "The Kingfisher had waited. When the mud settled, the fish came back, and she
            # caught three": a "she" joined on after a subject the story has named before
            # but never called anything is the she on stage. Not one said within that
            # subject's own clause ("The smallest Hare was so frightened that he ran"),
            # nor after one just come in ("the duck waddled in, and she laid an egg"),
            # unless in a clause hung on the she's own (:func:`brought_on_under`).
            known = [m for m in window if m.gender == kind]
            last = window[-1] if window else None
            if (
                kind in "mf"
                and known
                and last.gender == ""
                and (
                    # "Felix was sad, but he …": a name is a he
                    last.text.startswith("the ")
                    and any(m.text == last.text and m.index < last.index for m, _ in mentions)
                    and not within(self.doc, token, last)
                    or brought_on_under(self.doc, known[-1], last)
                )
            ):
                return known[-1]
            if window:
                return window[-1]
            # "One had a snail in it. At last he found …": no one on stage, a "he" goes on
            # from the one called "he", not from a creature named since and never called so.
            latest = next((m for m, _ in reversed(mentions) if fits(m)), None)
            said = {m.text for m, _ in mentions if self._pronoun.get(m.text) == token.lower_}
            given = [m for m, s in mentions if s and fits(m) and m.text in said]
            if latest and not latest.gender and given and given[-1].index < latest.index:
                return given[-1]
            # No one this section names fits yet: the one who held the stage before it
            # ("The ferryman rowed the goat over. A storm came. | He tied up his boat").
            if not any(m.index >= 0 and fits(m) for m, _ in mentions):
                held = [m for m, subj in mentions if subj and fits(m)]
                if held:
                    return held[-1]
            # Narration that goes on after a speech ('"Watch me," called the Otter to
            # her. "You will learn something." He dove and chased the fish'): the one who
            # held the stage before it, not a thing or creature the speech named.
            held = [m for m, subj in mentions if subj and fits(m) and m.index not in self.quoted]
            if (
                held
                and token.sent.start
                and all_speech(self.doc[token.sent.start - 1].sent, self.quoted)
            ):
                return held[-1]
        # "… a bucket of crabs!" ¶ … "Their engines were cold": what a speech named is no
        # one the narration points back to past the sentence after it.
        heard = set() if token.i in self.quoted else self.quoted
        floor = self._previous_sentence_start(token)
        near = [m for m, _ in mentions if m.index >= floor or m.index not in heard]
        fitting = [m for m in near if fits(m) and (m.index >= floor or not m.pair)]
        return fall_back(mentions, fitting, token, floor)

    def _previous_sentence_start(self, token) -> int:
        start = token.sent.start
        return self._first_window if start == 0 else self.doc[start - 1].sent.start

    def resolve(self, token) -> str | None:
        """The mention a third-person pronoun most likely stands for; "the narrator" for
        "I" or "my" outside quotation marks."""
        if token.lower_ in NARRATOR and token.i not in self.quoted:
            return "the narrator"
        return self._resolved.get(token.i)

    def pronoun_for(self, mention: str) -> str | None:
        """The subject pronoun ("he", "she", "they") the story uses for a character."""
        found = self._pronoun.get(mention)
        if not found and mention not in self._gender:
            # "the Fox" of "a sharp-eyed Fox … saw him": one character by its head noun,
            # when all its names agree.
            head = head_noun(mention)
            said = {p for m, p in self._pronoun.items() if head_noun(m) == head}
            sexes = {g for m, g in self._gender.items() if head_noun(m) == head and g}
            if len(said) == 1:
                found = said.pop()
            elif not said and len(sexes) == 1:
                return {"m": "he", "f": "she"}[sexes.pop()]
        if found:  # as a subject says it, though the parser took "her" for one
            return {"m": "he", "f": "she", "p": "they"}[PRONOUNS[found]]
        if mention in self._plural:
            return "they"
        # "poking his nose": the text has told the Mole is a he, though no "he" stood for him.
        told = {"m": "he", "f": "she"}.get(self._gender.get(mention, ""))
        if told:
            return told
        head = head_noun(mention)
        if head in MALE:
            return "he"
        if head in FEMALE:
            return "she"
        return None
