"""What the judge holds for one hidden suite: probes, their sites, the plan and the expectations.

A *probe* is a hidden test file compiled so that every assertion becomes an observation of
the values it would have checked, with the expected side removed (``languages/``). Each
observation point in the source is a *site*; the host keeps the site table, so how a value
is compared (exactly, or within a tolerance written in the test) is decided here and never
read from the sandbox. The *plan* is every hidden test id, in the order the trusted gold
run reported them; the *expectations* are the gold run's observations per planned test.

A ``JudgeKit`` is sealed with its instance; none of it enters the sandbox except the probe
files themselves, which hold no expected value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EXACT, APPROX = "exact", "approx"
KIT_FORMAT = 1


@dataclass(frozen=True)
class Site:
    """One observation point of a probe: where it is and how its values are compared."""

    id: int
    path: str
    line: int
    assertion: str
    rule: str = EXACT
    places: int | None = None
    delta: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "path": self.path, "line": self.line, "assertion": self.assertion,
                               "rule": self.rule}
        if self.places is not None:
            out["places"] = self.places
        if self.delta is not None:
            out["delta"] = self.delta
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Site:
        return cls(id=int(data["id"]), path=str(data["path"]), line=int(data["line"]),
                   assertion=str(data["assertion"]), rule=str(data.get("rule", EXACT)),
                   places=data.get("places"), delta=data.get("delta"))


@dataclass(frozen=True)
class ProbeSuite:
    """Compiled probes of one hidden suite (``files``: path -> probe source)."""

    language: str
    files: dict[str, str]
    sites: dict[int, Site]
    compiler: str

    def to_dict(self) -> dict[str, Any]:
        return {"language": self.language, "files": dict(sorted(self.files.items())),
                "sites": [s.to_dict() for _, s in sorted(self.sites.items())], "compiler": self.compiler}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ProbeSuite:
        sites = [Site.from_dict(s) for s in data["sites"]]
        return cls(language=str(data["language"]), files={str(k): str(v) for k, v in data["files"].items()},
                   sites={s.id: s for s in sites}, compiler=str(data["compiler"]))


@dataclass(frozen=True)
class Observation:
    site: int
    values: tuple[Any, ...]

    def to_list(self) -> list[Any]:
        return [self.site, list(self.values)]

    @classmethod
    def from_list(cls, data: list[Any]) -> Observation:
        return cls(site=int(data[0]), values=tuple(data[1]))


@dataclass(frozen=True)
class JudgeKit:
    """Probes + plan + expected observations of one instance (sealed at rest)."""

    suite: ProbeSuite
    plan: tuple[str, ...]
    expected: dict[str, tuple[Observation, ...]]
    fail_to_pass: tuple[str, ...] = ()
    notes: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"format": KIT_FORMAT, "suite": self.suite.to_dict(), "plan": list(self.plan),
                "expected": {test: [o.to_list() for o in obs] for test, obs in self.expected.items()},
                "fail_to_pass": list(self.fail_to_pass), "notes": self.notes}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JudgeKit:
        if data.get("format") != KIT_FORMAT:
            raise ValueError(f"unknown judge kit format {data.get('format')!r}")
        return cls(suite=ProbeSuite.from_dict(data["suite"]), plan=tuple(data["plan"]),
                   expected={t: tuple(Observation.from_list(o) for o in obs) for t, obs in data["expected"].items()},
                   fail_to_pass=tuple(data.get("fail_to_pass", ())), notes=dict(data.get("notes", {})))
