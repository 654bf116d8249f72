"""How one project's people write: commit messages, branch names and merge messages.

Real repositories differ in voice: some write imperative subjects with a body, some
follow Conventional Commits, some prefix a ticket key, some write terse lower-case
notes or past tense.  A ``CommitVoice`` is drawn per project (from the history seed)
and turns the history plan's neutral subjects into that voice, adds bodies where that
voice would, and names branches and merges.  Pure and deterministic from its RNG.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from challenges.engine.naming import kebab, words

VOICES = ("imperative", "conventional", "ticketed", "terse", "past")
# Share of feature commits that carry a body, per voice.
BODY_SHARE = {"imperative": 0.6, "conventional": 0.45, "ticketed": 0.35, "terse": 0.05, "past": 0.3}
MERGE_STYLES = ("pull-request", "local-branch")
BRANCH_STYLES = ("feature/{slug}", "{handle}/{slug}", "{slug}", "feat/{slug}")

_IRREGULAR = {"read": "read", "give": "gave", "make": "made", "keep": "kept", "split": "split", "run": "ran",
              "write": "wrote", "let": "let", "set": "set", "put": "put", "build": "built", "send": "sent",
              "take": "took", "hold": "held", "begin": "began"}
_DOUBLE = re.compile(r"^[^aeiou]*[aeiou][bdgmnprt]$")
_AND_VERBS = ("expand", "add", "update", "document", "remove", "rename", "read", "wire", "track", "export",
              "confirm", "release", "cancel", "reschedule", "list", "flush", "close", "complete", "fail", "claim",
              "submit", "validate", "refund", "charge")
_STOP = {"the", "a", "an", "and", "with", "of", "for", "to", "in", "on", "from", "per", "by", "at", "its"}


def past_tense(verb: str) -> str:
    """English past tense of one verb (keeps the capitalisation of the first letter)."""
    low = verb.lower()
    if low in _IRREGULAR:
        out = _IRREGULAR[low]
    elif low.endswith("e"):
        out = low + "d"
    elif low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        out = low[:-1] + "ied"
    elif _DOUBLE.match(low) and len(low) <= 4:
        out = low + low[-1] + "ed"
    else:
        out = low + "ed"
    return out.capitalize() if verb[:1].isupper() else out


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:1].isupper() and not text[1:2].isupper() else text


def slug_of(subject: str, limit: int = 4, avoid: tuple[str, ...] = ()) -> str:
    """A branch-name slug from a subject: its content words after the leading verb.

    A slug that would spell one of ``avoid`` (kebab-case names that must not appear
    in the repository, such as the archetype's catalogue slug) loses those words.
    """
    content = [w for w in words(subject)[1:] if w not in _STOP and not w.isdigit()]
    slug = kebab(*(content[:limit] or words(subject)[:2]))
    for name in avoid:
        if name and name in slug:
            banned = set(name.split("-"))
            slug = kebab(*([w for w in content if w not in banned][:limit] or ["update"]))
    return slug


@dataclass
class CommitVoice:
    """One project's way of writing commit messages."""

    rng: random.Random
    project: str
    voice: str = ""
    merge_style: str = ""
    branch_style: str = ""
    ticket_key: str = ""
    _ticket: int = 0
    _pr: int = 0
    _used_slugs: set[str] = field(default_factory=set)

    @classmethod
    def draw(cls, rng: random.Random, project: str) -> CommitVoice:
        voice = cls(rng, project, rng.choice(VOICES), rng.choice(MERGE_STYLES), rng.choice(BRANCH_STYLES))
        letters = "".join(w[0] for w in words(project)) if len(words(project)) > 1 else project[:3]
        voice.ticket_key = (letters[:4] or "APP").upper()
        voice._ticket = rng.randint(3, 40)
        voice._pr = rng.randint(1, 12)
        return voice

    # -- subjects --------------------------------------------------------
    def _ticketed(self, subject: str) -> str:
        self._ticket += self.rng.randint(1, 4)
        return f"{self.ticket_key}-{self._ticket} {subject}" if self.rng.random() < 0.5 else \
            f"{self.ticket_key}-{self._ticket}: {subject}"

    def _scope(self, subject: str) -> str:
        content = [w for w in words(subject)[1:] if w not in _STOP and w not in ("tests", "test")]
        return content[0] if content else ""

    def subject(self, kind: str, subject: str) -> str:
        """``subject`` (an imperative sentence) in this project's voice for a commit of ``kind``."""
        if self.voice == "imperative":
            return subject
        if self.voice == "past":
            first, _, rest = subject.partition(" ")
            verb, tail = re.match(r"([A-Za-z]+)(.*)", first).groups() if first[:1].isalpha() else (first, "")
            text = f"{past_tense(verb)}{tail} {rest}".strip()
            # A leading run of verbs ("Place, confirm and release holds") all change tense;
            # so does a second clause ("... and expand the README").
            pos = len(past_tense(verb))
            chain = re.compile(r"(,? (?:and )?)(" + "|".join(_AND_VERBS) + r")\b")
            while (m := chain.match(text, pos)) is not None:
                text = text[:m.start(2)] + past_tense(m.group(2)) + text[m.end(2):]
                pos = m.start(2) + len(past_tense(m.group(2)))
            return re.sub(r"\band (expand|add|update|document) the\b",
                          lambda m: f"and {past_tense(m.group(1))} the", text)
        if self.voice == "terse":
            text = _lower_first(subject)
            return re.sub(r"^(add|update|document) the ", r"\1 ", text)
        if self.voice == "ticketed":
            return self._ticketed(subject) if kind in ("feature", "tests", "herring") else subject
        # conventional
        prefix = {"feature": "feat", "tests": "test", "docs": "docs", "herring": "fix", "chore": "chore",
                  "fixup": "docs", "bump": "build", "revert": "revert"}.get(kind, "chore")
        scope = self._scope(subject) if kind in ("feature", "tests") and self.rng.random() < 0.6 else ""
        return f"{prefix}({scope}): {_lower_first(subject)}" if scope else f"{prefix}: {_lower_first(subject)}"

    def initial(self) -> str:
        return {"imperative": self.rng.choice(("Initial project layout", "Initial commit", "Set up the project")),
                "past": self.rng.choice(("Initial import", "Created project skeleton")),
                "terse": self.rng.choice(("init", "initial commit", "skeleton")),
                "ticketed": self.rng.choice(("Initial commit", "Project skeleton")),
                "conventional": "chore: initial commit"}[self.voice]

    def release(self, version: str) -> str:
        return {"imperative": self.rng.choice((f"Release {version}", f"Bump version to {version}")),
                "past": f"Version {version}",
                "terse": self.rng.choice((f"v{version}", f"bump to {version}")),
                "ticketed": f"Release {version}",
                "conventional": f"chore(release): {version}"}[self.voice]

    def body(self, kind: str, changelog: str, paths: tuple[str, ...]) -> str:
        """A body for a feature commit, or "" (voices differ in how often they write one)."""
        if kind != "feature" or self.rng.random() >= BODY_SHARE[self.voice]:
            return ""
        shape = self.rng.randrange(3)
        note = changelog.strip().rstrip(".")
        if shape == 0 or not paths:
            text = f"{note}." if note else ""
        elif shape == 1:
            text = "\n".join(f"- {p}" for p in paths[:6])
            if note:
                text = f"{note}.\n\n{text}"
        else:
            files = ", ".join(f"`{p.rsplit('/', 1)[-1]}`" for p in paths[:3])
            text = f"{note}.\n\nTouches {files}." if note else f"Touches {files}."
        if self.voice == "conventional" and self.rng.random() < 0.4:
            self._pr += 1
            text += f"\n\nRefs: #{self._pr}"
        return text

    # -- branches and merges ----------------------------------------------
    def branch(self, subject: str, handle: str, avoid: tuple[str, ...] = ()) -> str:
        slug = slug_of(subject, avoid=avoid)
        while slug in self._used_slugs:
            slug += "-2"
        self._used_slugs.add(slug)
        if self.voice == "ticketed":
            return f"{self.ticket_key}-{self._ticket}-{slug}"
        return self.branch_style.format(slug=slug, handle=handle)

    def merge(self, branch: str, subject: str, handle: str, local: bool) -> str:
        """The merge commit's message: a forge pull request, or ``git merge --no-ff``."""
        if self.merge_style == "pull-request":
            self._pr += self.rng.randint(1, 3)
            name = branch if "/" in branch else f"{handle}/{branch}"
            return f"Merge pull request #{self._pr} from {name}\n\n{subject}"
        return f"Merge branch '{branch}'" if local else f"Merge remote-tracking branch 'origin/{branch}'"


def handle_of(name: str, rng: random.Random) -> str:
    """A forge user name for a person (``mlindqvist``, ``mara-l``...)."""
    parts = [w for w in words(name) if w]
    first, last = (parts[0], parts[-1]) if parts else ("dev", "user")
    return rng.choice((f"{first[0]}{last}", f"{first}-{last[0]}", f"{first}{last[:3]}", first + last))
