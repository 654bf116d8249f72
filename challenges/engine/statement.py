"""The task statement of one instance: the bug as it reaches a maintainer.

``compose(symptom, tier=..., project=..., seed=..., time_base=...)`` turns a template's
``Symptom`` into a Markdown page in one of the forms real bugs arrive in (a support
ticket, an issue with a reproduction, an on-call alert quoting a log excerpt, a failing
nightly job, a customer complaint). Form and voice are drawn from the instance's seed;
precision follows the tier:

==== ============== ===========================================================
tier precision      what the statement gives
==== ============== ===========================================================
1    reproduction   exact steps, the values seen, expected and actual behaviour
2    reproduction   steps and expected/actual, fewer specifics
3    behaviour      what was done, what happened, what should have happened
4    symptom        what went wrong and why it hurts, perhaps a log line
5    symptom-only   the symptom alone, perhaps intermittent, perhaps with the
                    reporter's wrong first guess
==== ============== ===========================================================

Pure and deterministic: the same inputs give the same bytes, so the statement is
rebuilt from the sealed draw like every other part of the instance. It never names the
fix, the faulty function or any code identifier (the ``statement`` release gate checks).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from challenges.engine.ir import Symptom
from challenges.engine.prose import fix_articles

FORMS: tuple[str, ...] = ("support-ticket", "issue", "alert", "nightly-job", "complaint")
VOICES: tuple[str, ...] = ("terse", "polite", "frustrated", "formal")
PRECISION_BY_TIER: dict[int, str] = {
    1: "reproduction", 2: "reproduction", 3: "behaviour", 4: "symptom", 5: "symptom-only",
}
# Share of tier-5 statements that quote the reporter's (wrong) first theory.
GUESS_PROBABILITY = 0.5
STATEMENT_SEED_SALT = 0x57A7_E3E7

_REPORTERS = (
    "Amira", "Bruno", "Chen", "Dalia", "Emeka", "Freya", "Gustavo", "Hana", "Ivo", "Jonas", "Keiko", "Leila",
    "Mateus", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Samir", "Tove", "Uma", "Viktor", "Wen", "Yara",
)
_TEAMS = ("support", "operations", "finance", "customer success", "the platform team", "QA")

_GREETING = {"terse": "", "polite": "Hello,\n\n", "frustrated": "Hi,\n\n", "formal": "Dear maintainers,\n\n"}
_CLOSING = {
    "terse": "",
    "polite": "\n\nThanks a lot for looking into it.",
    "frustrated": "\n\nThis is the second time this week someone has asked me about it. Please have a look soon.",
    "formal": "\n\nWe would appreciate an estimate for a correction.",
}
_INTERMITTENT = (
    "It does not happen every time; we have not found a pattern yet.",
    "It only shows up now and then, mostly when things are busy.",
    "Retrying sometimes makes it go away, which makes it hard to pin down.",
)
_VAGUE_OPENERS = ("Something is off:", "We keep seeing this:", "Not sure where to start, but", "Reported again today:")


@dataclass(frozen=True)
class Statement:
    """A composed statement and the knobs it was drawn with (recorded per instance)."""

    text: str
    form: str
    voice: str
    precision: str
    intermittent: bool
    guess: bool

    def knobs(self) -> dict[str, object]:
        return {"statement_form": self.form, "statement_voice": self.voice,
                "statement_precision": self.precision, "statement_intermittent": self.intermittent,
                "statement_misleading_guess": self.guess}


def precision_for(tier: int) -> str:
    return PRECISION_BY_TIER[max(1, min(5, tier))]


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?:" else text + "."


def _paragraphs(*parts: str) -> str:
    return "\n\n".join(p for p in parts if p)


def _facts(symptom: Symptom, precision: str, rng: random.Random) -> dict[str, str]:
    """The prose blocks the precision allows, keyed by role."""
    out: dict[str, str] = {}
    if precision == "reproduction":
        out["action"] = _sentence(f"I tried to {symptom.action}")
        out["steps"] = "\n".join(f"{i}. {_sentence(step)}" for i, step in enumerate(symptom.steps, 1))
        out["observed"] = _sentence(symptom.observed)
        out["expected"] = _sentence(symptom.expected)
        out["example"] = _sentence(symptom.example)
    elif precision == "behaviour":
        out["action"] = _sentence(f"When we {symptom.action}, {symptom.observed}")
        out["expected"] = _sentence(symptom.expected)
        out["impact"] = _sentence(symptom.impact)
    elif precision == "symptom":
        out["observed"] = _sentence(symptom.vague or symptom.observed)
        out["impact"] = _sentence(symptom.impact)
    else:
        out["observed"] = f"{rng.choice(_VAGUE_OPENERS)} {symptom.vague or symptom.observed}".strip()
        out["observed"] = _sentence(out["observed"])
        out["impact"] = _sentence(symptom.impact)
    return out


def compose(symptom: Symptom, *, tier: int, project: str, seed: int, time_base: int) -> Statement:
    """The statement for one instance (deterministic in its arguments)."""
    rng = random.Random(seed ^ STATEMENT_SEED_SALT)
    form = rng.choice(FORMS)
    voice = rng.choice(VOICES)
    precision = precision_for(tier)
    intermittent = symptom.intermittent and precision in ("symptom", "symptom-only")
    guess = bool(symptom.guess) and precision == "symptom-only" and rng.random() < GUESS_PROBABILITY
    reporter = rng.choice(_REPORTERS)
    team = rng.choice(_TEAMS)
    # The report is dated a few weeks after the project's history starts.
    when = datetime.fromtimestamp(time_base, tz=UTC) + timedelta(days=rng.randint(60, 200),
                                                                 minutes=rng.randint(0, 24 * 60))
    facts = _facts(symptom, precision, rng)
    extra = []
    if intermittent:
        extra.append(rng.choice(_INTERMITTENT))
    if guess:
        extra.append(_sentence(f"My first thought was {symptom.guess}, but I have not been able to confirm it"))
    tail = " ".join(extra)
    log = symptom.log if precision != "reproduction" or form == "alert" else ""
    if precision == "symptom-only" and symptom.vague:
        # The reporter never isolated the trigger: the headline is the symptom itself.
        headline = symptom.vague.split(", ")[0] if len(symptom.vague) > 70 else symptom.vague
        symptom = replace(symptom, title=headline[0].upper() + headline[1:])
    render = _RENDERERS[form]
    text = render(symptom, facts, tail=tail, log=log, voice=voice, reporter=reporter, team=team,
                  project=project, when=when, rng=rng)
    return Statement(_fit_articles(text).rstrip() + "\n", form, voice, precision, intermittent, guess)


def _fit_articles(text: str) -> str:
    """Articles fitted to the lexicon words filled in ("an accession"); fenced blocks untouched."""
    parts = text.split("```")
    return "```".join(fix_articles(part) if i % 2 == 0 else part for i, part in enumerate(parts))


def _repro_blocks(facts: dict[str, str]) -> str:
    parts = []
    if facts.get("steps"):
        parts.append("### Steps to reproduce\n\n" + facts["steps"])
    if facts.get("expected"):
        parts.append("### Expected\n\n" + facts["expected"])
    if facts.get("observed"):
        parts.append("### Actual\n\n" + facts["observed"] + (" " + facts["example"] if facts.get("example") else ""))
    return _paragraphs(*parts)


def _prose(facts: dict[str, str]) -> str:
    order = ("action", "steps", "observed", "example", "expected", "impact")
    blocks = []
    for key in order:
        value = facts.get(key)
        if not value:
            continue
        if key == "expected" and "steps" in facts:
            value = "What I expected: " + value[0].lower() + value[1:]
        blocks.append(value)
    return _paragraphs(*blocks)


def _ticket(symptom, facts, *, tail, log, voice, reporter, team, project, when, rng) -> str:
    body = _paragraphs(_prose(facts), tail, f"The message we see:\n\n```\n{log}\n```" if log else "")
    sign = f"\n\n{reporter}" + (f", {team}" if voice != "terse" else "")
    number = rng.randint(1200, 9800)
    return (f"**Ticket #{number}: {symptom.title}**\n\n_Opened {when:%Y-%m-%d %H:%M} UTC by {reporter} ({team})_\n\n"
            f"{_GREETING[voice]}{body}{_CLOSING[voice]}{sign}")


def _issue(symptom, facts, *, tail, log, voice, reporter, team, project, when, rng) -> str:
    if "steps" in facts:
        body = _paragraphs(facts.get("action", ""), _repro_blocks(facts), tail)
    else:
        body = _paragraphs(_prose(facts), tail)
    if log:
        body = _paragraphs(body, f"Log output:\n\n```\n{log}\n```")
    env = f"`{project}` at the current main branch"
    return f"# {symptom.title}\n\n{body}\n\n**Seen on:** {env}"


def _alert(symptom, facts, *, tail, log, voice, reporter, team, project, when, rng) -> str:
    stamp = f"{when:%Y-%m-%dT%H:%M:%S}Z"
    excerpt = log or _sentence(symptom.observed)
    lines = [f"**[{rng.choice(('P2', 'P3'))}] {project}: {symptom.title}**", "",
             f"Fired {stamp}, acknowledged by {reporter} (on call).", "",
             "Log excerpt:", "", "```", f"{stamp} {rng.choice(('WARN', 'ERROR'))} {excerpt}", "```", "",
             "On-call notes:", "", _prose(facts)]
    if tail:
        lines += ["", tail]
    return "\n".join(lines)


def _nightly(symptom, facts, *, tail, log, voice, reporter, team, project, when, rng) -> str:
    run = rng.randint(140, 900)
    check = rng.choice(("end-to-end checks", "reconciliation job", "integration run", "smoke suite"))
    head = f"# Nightly {check} #{run} failed ({when:%Y-%m-%d})\n\nThe nightly {check} against `{project}` went red."
    detail = _prose(facts)
    if log:
        detail = _paragraphs(detail, f"From the job output:\n\n```\n{log}\n```")
    return _paragraphs(head, detail, tail, f"Filed by {reporter} ({team}).")


def _complaint(symptom, facts, *, tail, log, voice, reporter, team, project, when, rng) -> str:
    intro = rng.choice(("A customer wrote in", "Forwarding a complaint from a customer",
                        "Escalated from the help desk"))
    quoted = "\n".join("> " + line if line else ">" for line in _prose(facts).splitlines())
    note = f"{intro} on {when:%Y-%m-%d}:"
    after = f"Note from {team}: {tail}" if tail else ""
    return _paragraphs(f"# {symptom.title}", note, quoted, after, f"-- {reporter}")


_RENDERERS = {"support-ticket": _ticket, "issue": _issue, "alert": _alert, "nightly-job": _nightly,
              "complaint": _complaint}
