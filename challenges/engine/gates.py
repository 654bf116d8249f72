"""Release gates of a generated instance (pure; runs code only through ``challenges.sandbox``).

Gates (issue 4, "Release gates"):
- ``history``: no commit holds the gold-fixed region; the bug is organic (the gold
  patch only edits existing source files); no staging markers in the workspace.
- ``oracle`` (1): the hidden suite compiles into probes; two runs of them on the gold
  code agree (the expectation table); judged against it, the shipped code fails
  (>= 1 fail-to-pass) and passes (>= 1 pass-to-pass) tests, every alternative fix
  passes completely, and a constant-guessing forger (``challenges.judge.release.
  guessable``) cannot pass every fail-to-pass test (nor more than
  ``forgeable_f2p_share`` of them); the guessable ones are listed for staff. A bug
  with several cooperating faults must also fail a hidden test under each partial
  fix (one fault cured, the others shipped); every fault has its own gold region,
  and the history, mutation, hints and statement gates cover each of them.
- ``canaries`` (2): every canary's guard passes on shipped code and fails once the
  canary's naive "fix" is applied on top of the gold fix (its observations change).
- ``mutation`` (3): mutants of the gold-fixed region; a mutant is killed when its
  observations differ from the gold code's; at least ``mutation_threshold`` must
  be; survivors are listed.
- ``visible`` (4): the visible suite passes on the shipped code except exactly the
  designated red-herring failures, and passes completely with the gold fix.
- ``statement``: the task statement exists and leaks nothing (fact tokens, catalogue
  terms, word runs of the gold patch, from tier 4 the faulty region's identifiers).
- ``hints``: from tier 3, no comment, docstring or README sentence near the faulty code
  restates the invariant the bug breaks (the template's ``Bug.invariant`` phrases).
- ``static`` (5): Python compiles and passes a neutral, config-free ruff run;
  JavaScript passes ``node --check``; every recorded patch applies strictly and
  the fixes reproduce exactly the files the other gates validated.
- ``realism``: what would make the project recognisable as generated, checked
  mechanically (``challenges.engine.realism``): grammar of its prose, error names that
  fit what they are raised for, warnings logged on every call, settings no code reads,
  contributor names other projects already use (``used_names``/``used_surnames``), and
  commit, reflog and file times in order.

Every test run gets its own temporary workspace; runs are spread over
``GateConfig.workers`` threads (the sandbox runs one process per run). Hidden-suite
runs are judged outside the sandbox by ``challenges.judge``; only the visible suite,
which runs nothing but our own code, keeps ordinary pass/fail verdicts.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from challenges.engine.emitters.base import get_emitter
from challenges.engine.instance import GeneratedInstance
from challenges.engine.patches import PatchError, apply_patch, changed_paths
from challenges.judge import (
    CompileError,
    JudgeKit,
    Judgement,
    KitError,
    ProbeSuite,
    RunStatus,
    compile_suite,
    expectations_from_runs,
    guessable,
    judge,
)
from challenges.judge.release import with_fail_to_pass

MARKERS = re.compile(r"\b(BUG|FIXME|XXX|HACK|TODO)\b")
STAGING_WORDS = ("canary", "red herring", "oracle", "gold patch", "injected")


@dataclass(frozen=True)
class GateConfig:
    mutation_threshold: float = 0.90
    max_mutants: int = 60
    workers: int = 2
    # Generated suites finish in well under a second; a mutant that loops forever
    # must not hold a worker for the sandbox's default 30 s.
    wall_seconds: float = 10.0
    cpu_seconds: int = 8
    history_context_lines: int = 1
    # Largest share of fail-to-pass tests a constant-guessing forger may pass. Whatever it
    # is, at least one must defeat the forger: a run is solved only if every test passes.
    forgeable_f2p_share: float = 1.0
    # From this tier on no visible test may fail because of the bug: the statement is the symptom.
    silent_visible_tier: int = 3
    # From this tier on the hint audit refuses comments restating the broken invariant ...
    hint_tier: int = 3
    # ... within this many lines of the faulty region.
    hint_window_lines: int = 12
    # From this tier on the statement may not name any identifier of the faulty region.
    statement_identifier_tier: int = 4
    # Length of the word runs the statement may not share with the gold patch.
    statement_ngram: int = 3


@dataclass
class GateResult:
    name: str
    passed: bool
    reasons: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class GateReport:
    results: list[GateResult]
    seconds: float = 0.0
    runs: int = 0
    # The sealed judge kit (probes, plan, gold expectations) when every gate passed.
    kit: JudgeKit | None = None

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    def gate(self, name: str) -> GateResult:
        return next(r for r in self.results if r.name == name)

    @property
    def failures(self) -> list[str]:
        return [f"{r.name}: {reason}" for r in self.results if not r.passed for reason in r.reasons]

    def summary(self) -> str:
        lines = [f"{'PASS' if self.passed else 'FAIL'} in {self.seconds:.2f}s ({self.runs} sandbox runs)"]
        for r in self.results:
            lines.append(f"  {r.name:<9} {'pass' if r.passed else 'FAIL'}  {'; '.join(r.reasons)}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "seconds": round(self.seconds, 3), "runs": self.runs,
                "gates": [asdict(r) for r in self.results]}


@dataclass(frozen=True)
class _Job:
    key: str
    overrides: Mapping[str, str]
    tests: tuple[str, ...]
    probe: bool  # True: the hidden suite's probes; False: ordinary tests (the visible suite)


@dataclass(frozen=True)
class _RegionMutant:
    id: str
    operator: str
    description: str
    path: str
    source: str


@dataclass(frozen=True)
class _Outcome:
    verdicts: dict[str, str]
    error: str | None
    events: list[Any] = field(default_factory=list)
    status: RunStatus = field(default_factory=RunStatus)


def _matches(test_id: str, name: str) -> bool:
    return test_id.endswith("::" + name) or test_id.endswith(" > " + name)


def _write(root: Path, files: Mapping[str, str]) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def _runner(instance: GeneratedInstance, suite: ProbeSuite | None, allow_unsafe: bool,
            limits: Any) -> Callable[[_Job], _Outcome]:
    from challenges.judge.observe import observe
    from challenges.sandbox import SandboxInputError, run_tests

    def run(job: _Job) -> _Outcome:
        with tempfile.TemporaryDirectory(prefix="ws-") as tmp:
            root = Path(tmp)
            _write(root, instance.files)
            if job.probe:
                assert suite is not None
                _write(root, suite.files)
            _write(root, job.overrides)
            try:
                if job.probe:
                    observed = observe(root, suite=suite, limits=limits, allow_unsafe=allow_unsafe)
                    return _Outcome({}, None, observed.events, observed.status)
                result = run_tests(root, language=instance.language, test_paths=list(job.tests),
                                   limits=limits, allow_unsafe=allow_unsafe)
            except SandboxInputError as exc:
                # A malformed instance (say, a test path that is not there) fails its gates;
                # SandboxUnavailable still propagates: that is the host's problem, not the instance's.
                return _Outcome({}, f"{job.key}: {exc}")
            return _Outcome(dict(result.verdicts), result.error)

    return run


def _history_gate(instance: GeneratedInstance, config: GateConfig) -> GateResult:
    reasons: list[str] = []
    region = instance.gold_region
    ctx = config.history_context_lines
    for fault in instance.regions:
        lines = instance.gold.files[fault.path].splitlines()
        first, last = fault.lines
        window = "\n".join(lines[max(0, first - 1 - ctx): min(len(lines), last + ctx)])
        leaks = sorted({(commit[:10], path) for commit, path, text in instance.history.iter_blobs()
                        if window in text})
        if leaks:
            where = "" if len(instance.regions) == 1 else f" ({fault.path} lines {first}-{last})"
            reasons.append(f"the gold-fixed region{where} appears in history: {leaks[:3]}")
    for path, text in instance.gold.files.items():
        for commit, blob_path, blob in instance.history.iter_blobs():
            if blob_path == path and blob == text:
                reasons.append(f"commit {commit[:10]} holds the fixed {path}")
                break
    # Lines a fix adds that the shipped file lacks must not surface in any earlier
    # version of that file either, whatever their surroundings were then.
    for label, fix in [("gold", instance.gold), *[(a.label, a) for a in instance.alternatives]]:
        for path in fix.files:
            shipped_lines = {line.strip() for line in instance.files.get(path, "").splitlines()}
            added = {line[1:].strip() for line in fix.patch.splitlines()
                     if line.startswith("+") and not line.startswith("+++")}
            added = {line for line in added if line and line not in shipped_lines}
            for commit, blob_path, blob in instance.history.iter_blobs():
                if blob_path != path or not added:
                    continue
                found = added & {line.strip() for line in blob.splitlines()}
                if found:
                    reasons.append(f"commit {commit[:10]} contains a line of the {label} fix: {sorted(found)[0]!r}")
                    break
    sources = set(instance.source_paths)
    for label, patch in [("gold", instance.gold.patch), *[(a.label, a.patch) for a in instance.alternatives]]:
        for path in changed_paths(patch):
            if path not in instance.files:
                reasons.append(f"{label} fix touches {path}, which the workspace lacks (bolt-on)")
            elif path not in sources:
                reasons.append(f"{label} fix edits {path}, which is not a source module")
    for path in dict.fromkeys(r.path for r in instance.regions):
        if not [c for c in instance.history.commits if path in c.changed]:
            reasons.append(f"{path} never arrives in history")
    for path, text in instance.files.items():
        hit = MARKERS.search(text)
        if hit:
            reasons.append(f"{path} carries the marker {hit.group(0)!r}")
        low = text.lower()
        for word in (instance.template, instance.template.replace("-", "_"), *STAGING_WORDS):
            if word in low:
                reasons.append(f"{path} mentions {word!r}")
    for commit in instance.history.commits:
        low = commit.message.lower()
        if instance.template in low or any(w in low for w in STAGING_WORDS):
            reasons.append(f"commit {commit.id[:10]} message betrays staging")
    return GateResult("history", not reasons, reasons,
                      {"commits": len(instance.history.commits), "region_lines": list(region.lines)})


def validate(
    instance: GeneratedInstance,
    *,
    allow_unsafe: bool = False,
    config: GateConfig | None = None,
    runner: Callable[[_Job], _Outcome] | None = None,
    used_names: Collection[str] = (),
    used_surnames: Collection[str] = (),
) -> GateReport:
    """Run every release gate; never raises for a failing gate (reasons are recorded).

    The hidden suite is compiled into probes and judged outside the sandbox: the gold
    code's observations (two runs, which must agree) become the expectation table, and
    every other variant (shipped, alternative fixes, canary fixes, mutants) is judged
    against it by ``challenges.judge``. The visible suite runs only our own code and keeps
    ordinary verdicts. A passing report carries the judge kit to seal with the instance.
    """
    cfg = config or GateConfig()
    started = time.perf_counter()
    suite: ProbeSuite | None = None
    compile_error: str | None = None
    try:
        suite = compile_suite(instance.language, {p: instance.oracle_files[p] for p in instance.oracle_tests
                                                  if p in instance.oracle_files})
        missing = [p for p in instance.oracle_tests if p not in instance.oracle_files]
        if missing:
            compile_error = f"hidden test files are not there: {missing[:3]}"
    except CompileError as exc:
        compile_error = f"the hidden suite cannot be compiled into probes: {exc}"
    if runner is None:
        from challenges.sandbox import Limits

        runner = _runner(instance, suite, allow_unsafe,
                         Limits(cpu_seconds=cfg.cpu_seconds, wall_seconds=cfg.wall_seconds))
    run = runner
    visible = tuple(instance.visible_tests)
    gold = instance.gold.files

    jobs: list[_Job] = [_Job("visible-shipped", {}, visible, False), _Job("visible-gold", gold, visible, False)]
    mutant_list: list[Any] = []
    mutant_error: str | None = None
    if suite is not None and compile_error is None:
        jobs += [_Job("gold", gold, (), True), _Job("gold-again", gold, (), True), _Job("shipped", {}, (), True)]
        jobs += [_Job(f"alt:{a.label}", a.files, (), True) for a in instance.alternatives]
        if instance.masking is not None:
            jobs.append(_Job("masking", instance.masking.files, (), True))
        jobs += [_Job(f"partial:{p.label}", p.files, (), True) for p in instance.partial_fixes]
        jobs += [_Job(f"canary:{c.name}", {**gold, **c.files}, (), True) for c in instance.canaries]

        from challenges.sandbox import SandboxInputError
        from challenges.sandbox import mutants as make_mutants

        # Several faults share the mutant budget; their mutants are told apart by region.
        regions = instance.regions
        share = -(-cfg.max_mutants // len(regions))
        try:
            for index, region in enumerate(regions):
                made = make_mutants(gold[region.path], language=instance.language,
                                    region=(region.start, region.end))[:share]
                prefix = "" if len(regions) == 1 else f"r{index}."
                mutant_list += [_RegionMutant(f"{prefix}{m.id}", m.operator, m.description, region.path, m.source)
                                for m in made]
            mutant_list = mutant_list[: cfg.max_mutants]
        except (SandboxInputError, KeyError) as exc:
            mutant_error = f"mutants could not be made: {exc}"
        jobs += [_Job(f"mutant:{m.id}", {**gold, m.path: m.source}, (), True) for m in mutant_list]

    static_result: list[GateResult] = []

    def static() -> None:
        static_result.append(_static_gate(instance))

    with ThreadPoolExecutor(max(1, cfg.workers)) as pool:
        static_future = pool.submit(static)
        outcomes = dict(zip([j.key for j in jobs], pool.map(run, jobs), strict=True))
        static_future.result()

    kit, judged, kit_reasons = _judge_all(suite, compile_error, outcomes)
    results = [
        _history_gate(instance, cfg),
        _oracle_gate(instance, kit, judged, kit_reasons, cfg),
        _canary_gate(instance, kit, judged),
        _mutation_gate(mutant_list, judged, cfg, mutant_error or (kit_reasons[0] if kit_reasons else None)),
        _visible_gate(instance, outcomes, cfg),
        static_result[0],
        realism_gate(instance, used_names=used_names, used_surnames=used_surnames),
        statement_gate(instance, cfg),
        hint_gate(instance, cfg),
    ]
    report = GateReport(results, time.perf_counter() - started, len(jobs))
    report.kit = kit if report.passed else None
    return report


def realism_gate(instance: GeneratedInstance, *, used_names: Collection[str] = (),
                 used_surnames: Collection[str] = ()) -> GateResult:
    from challenges.engine.realism import check

    reasons, counts = check(instance, used_names=used_names, used_surnames=used_surnames)
    return GateResult("realism", not reasons, reasons, {"problems": counts})


def _judge_all(suite: ProbeSuite | None, compile_error: str | None,
               outcomes: dict[str, _Outcome]) -> tuple[JudgeKit | None, dict[str, Judgement], list[str]]:
    """The kit from the two gold runs, and every other probe run judged against it."""
    if suite is None or compile_error:
        return None, {}, [compile_error or "the hidden suite has no probes"]
    for key in ("gold", "gold-again"):
        if outcomes[key].error:
            return None, {}, [f"oracle run on {key} code failed: {outcomes[key].error}"]
    try:
        kit = expectations_from_runs(suite, (outcomes["gold"].events, outcomes["gold"].status.stopped),
                                     (outcomes["gold-again"].events, outcomes["gold-again"].status.stopped))
    except KitError as exc:
        return None, {}, exc.reasons
    judged: dict[str, Judgement] = {}
    for key, outcome in outcomes.items():
        if key in ("gold", "gold-again") or key.startswith("visible-"):
            continue
        if outcome.error:
            judged[key] = Judgement((), stopped=outcome.error)
        else:
            judged[key] = judge(kit, outcome.events, outcome.status)
    kit = with_fail_to_pass(kit, judged["shipped"])
    return kit, judged, []


def _oracle_gate(instance: GeneratedInstance, kit: JudgeKit | None, judged: dict[str, Judgement],
                 kit_reasons: list[str], cfg: GateConfig) -> GateResult:
    if kit is None:
        return GateResult("oracle", False, kit_reasons or ["no judge kit"], {"fail_to_pass": [], "pass_to_pass": []})
    reasons: list[str] = []
    shipped = judged["shipped"]
    if shipped.stopped:
        reasons.append(f"oracle run on shipped code was stopped: {shipped.stopped}")
    f2p = sorted(kit.fail_to_pass)
    p2p = sorted(t.test for t in shipped.tests if t.passed)
    if not f2p:
        reasons.append("no fail-to-pass test: the oracle does not detect the bug")
    if not p2p:
        reasons.append("no pass-to-pass test")
    for alt in instance.alternatives:
        outcome = judged[f"alt:{alt.label}"]
        if not outcome.solved:
            bad = outcome.failing() or [outcome.stopped or "no test"]
            reasons.append(f"oracle rejects the alternative fix {alt.label!r}: {bad[:5]} (overfitted oracle?)")
    masking = judged.get("masking")
    if instance.masking is not None and masking is not None and masking.solved:
        reasons.append(f"the hidden tests accept the shallow fix {instance.masking.label!r}, which only masks "
                       "the symptom")
    partial_rejected: dict[str, bool] = {}
    for partial in instance.partial_fixes:
        outcome = judged.get(f"partial:{partial.label}")
        if outcome is None:
            continue
        partial_rejected[partial.label] = not outcome.solved
        if outcome.solved:
            reasons.append(f"the hidden tests accept the partial fix {partial.label!r} (one fault cured, the "
                           "others left as shipped): every fault alone must leave a hidden test failing")
    forgeable = guessable(kit, f2p)
    if f2p and len(forgeable) == len(f2p):
        reasons.append("every fail-to-pass test can be passed by a constant-guessing forger (e.g. "
                       f"{sorted(forgeable.items())[0]}): the verdict could be forged without the fix")
    elif f2p and len(forgeable) / len(f2p) > cfg.forgeable_f2p_share:
        reasons.append(f"{len(forgeable)} of {len(f2p)} fail-to-pass tests can be passed by a constant-guessing "
                       f"forger (allowed share {cfg.forgeable_f2p_share:.2f}): {sorted(forgeable)[:3]}")
    return GateResult("oracle", not reasons, reasons,
                      {"fail_to_pass": f2p, "pass_to_pass": p2p, "plan": len(kit.plan),
                       "masking_rejected": (not masking.solved) if masking is not None else None,
                       **({"partial_rejected": partial_rejected} if instance.partial_fixes else {}),
                       "sites": len(kit.suite.sites), "forgeable": forgeable})


def _canary_gate(instance: GeneratedInstance, kit: JudgeKit | None, judged: dict[str, Judgement]) -> GateResult:
    reasons: list[str] = []
    details: dict[str, Any] = {}
    low, high = (2, 3) if instance.tier >= 4 else ((1, 3) if instance.tier == 3 else (0, 3))
    if not low <= len(instance.canaries) <= high:
        reasons.append(f"tier {instance.tier} needs {low}-{high} canaries, has {len(instance.canaries)}")
    if kit is None:
        if instance.canaries:
            reasons.append("canary guards cannot be judged without a judge kit")
        return GateResult("canaries", not reasons, reasons, details)
    for canary in instance.canaries:
        ids = [t for t in kit.plan if _matches(t, canary.guard)]
        if not ids:
            reasons.append(f"canary {canary.name!r} has no guard test {canary.guard!r} in the oracle")
            continue
        shipped = judged["shipped"].verdicts()
        fixed = judged[f"canary:{canary.name}"].verdicts()
        states = {"shipped": [shipped.get(t) for t in ids], "gold": ["passed" for _ in ids],
                  f"canary:{canary.name}": [fixed.get(t) for t in ids]}
        details[canary.name] = {"guard": ids, **states}
        if any(v != "passed" for v in states["shipped"]):
            reasons.append(f"guard of {canary.name!r} does not pass on shipped and gold code")
        if all(v == "passed" for v in states[f"canary:{canary.name}"]):
            reasons.append(f"guard of {canary.name!r} still passes after the canary 'fix'")
    return GateResult("canaries", not reasons, reasons, details)


def _mutation_gate(
    mutant_list: list[Any], judged: dict[str, Judgement], cfg: GateConfig, error: str | None = None
) -> GateResult:
    if error is not None:
        return GateResult("mutation", False, [error], {"score": 0.0, "mutants": len(mutant_list), "survivors": []})
    if not mutant_list:
        return GateResult("mutation", False, ["no mutants could be made from the gold region"],
                          {"score": 0.0, "mutants": 0, "survivors": []})
    survivors = []
    for m in mutant_list:
        # A mutant is killed when its observations differ from the gold code's.
        if judged[f"mutant:{m.id}"].solved:
            survivors.append({"id": m.id, "operator": m.operator, "description": m.description})
    score = 1 - len(survivors) / len(mutant_list)
    reasons = [] if score >= cfg.mutation_threshold else [
        f"mutation score {score:.2f} < {cfg.mutation_threshold:.2f}; survivors: "
        + ", ".join(s["description"] for s in survivors[:5])]
    return GateResult("mutation", not reasons, reasons,
                      {"score": round(score, 4), "mutants": len(mutant_list), "survivors": survivors})


def _failing(outcome: _Outcome) -> list[str]:
    return sorted(t for t, v in outcome.verdicts.items() if v not in ("passed", "skipped"))


def _visible_gate(instance: GeneratedInstance, outcomes: dict[str, _Outcome],
                  cfg: GateConfig | None = None) -> GateResult:
    cfg = cfg or GateConfig()
    reasons: list[str] = []
    shipped, gold = outcomes["visible-shipped"], outcomes["visible-gold"]
    if shipped.error:
        reasons.append(f"visible suite run failed: {shipped.error}")
    failing = _failing(shipped)
    expected = instance.expected_visible_failures
    unexpected = [t for t in failing if not any(_matches(t, name) for name in expected)]
    missing = [name for name in expected if not any(_matches(t, name) for t in failing)]
    if unexpected:
        reasons.append(f"visible tests fail on shipped code: {unexpected[:5]}")
    if missing:
        reasons.append(f"red-herring tests expected to fail pass instead: {missing}")
    if _failing(gold):
        reasons.append(f"visible tests fail after the gold fix: {_failing(gold)[:5]}")
    on_bug = [t for t in failing if t not in _failing(gold)]
    if instance.tier >= cfg.silent_visible_tier and on_bug:
        reasons.append(f"tier {instance.tier}: visible tests fail because of the bug ({on_bug[:3]}); from tier "
                       f"{cfg.silent_visible_tier} the statement alone must describe the symptom")
    if not shipped.verdicts:
        reasons.append("the visible suite reported no tests")
    return GateResult("visible", not reasons, reasons,
                      {"tests": len(shipped.verdicts), "failing_on_shipped": failing, "failing_on_bug": on_bug})


def statement_gate(instance: GeneratedInstance, cfg: GateConfig) -> GateResult:
    """The statement gate alone (no sandbox): also used to backfill stored instances."""
    from challenges.audit.statement import statement_findings
    from challenges.engine.model import get_template

    spec = get_template(instance.template).spec
    region = "\n".join(instance.region_text(r) for r in instance.regions)
    terms = [spec.slug, spec.title, spec.family, spec.bug_class, spec.bug_type, spec.solution_approach,
             *spec.canaries, *spec.red_herrings]
    reasons = statement_findings(
        instance.statement, gold_patch=instance.gold.patch, region=region, language=instance.language,
        tier=instance.tier, fact_phrases=[phrase for phrase, _ in instance.fact_tokens], terms=terms,
        identifier_tier=cfg.statement_identifier_tier, ngram=cfg.statement_ngram,
    )
    return GateResult("statement", not reasons, reasons,
                      {"chars": len(instance.statement), "sha256": instance.statement_sha256,
                       **{k: v for k, v in instance.difficulty.items() if k.startswith("statement_")}})


def hint_gate(instance: GeneratedInstance, cfg: GateConfig) -> GateResult:
    from challenges.audit.statement import hint_findings

    if instance.tier < cfg.hint_tier:
        return GateResult("hints", True, [], {"checked": False, "phrases": len(instance.invariant)})
    readme = next((text for p, text in instance.files.items() if p.lower().startswith("readme")), "")
    reasons: list[str] = []
    for region in instance.regions:
        for reason in hint_findings(invariant=instance.invariant, bug_path=region.path,
                                    bug_text=instance.files[region.path], lines=region.lines,
                                    language=instance.language, readme=readme, window=cfg.hint_window_lines):
            if reason not in reasons:
                reasons.append(reason)
    return GateResult("hints", not reasons, reasons, {"checked": True, "phrases": len(instance.invariant)})


def _static_gate(instance: GeneratedInstance) -> GateResult:
    emitter = get_emitter(instance.language)
    with tempfile.TemporaryDirectory(prefix="lint-") as tmp:
        root = Path(tmp)
        _write(root, instance.files)
        _write(root, instance.oracle_files)
        paths = [p for p in [*instance.files, *instance.oracle_files] if p.endswith(emitter.source_ext)]
        problems = emitter.lint(root, paths)
    reasons = [f"{p.path}: {p.message}" for p in problems[:10]]
    # The recorded patches are what agents' honest twins and staff apply: each must
    # apply strictly to the workspace and, for fixes, yield exactly the checked files.
    for fix in [instance.gold, *instance.alternatives, *instance.partial_fixes]:
        try:
            if apply_patch(instance.files, fix.patch) != fix.files:
                reasons.append(f"the {fix.label} patch does not reproduce the validated files")
        except PatchError as exc:
            reasons.append(f"the {fix.label} patch does not apply: {exc}")
    for canary in instance.canaries:
        try:
            apply_patch(instance.files, canary.patch)
        except PatchError as exc:
            reasons.append(f"the patch of canary {canary.name!r} does not apply: {exc}")
    return GateResult("static", not reasons, reasons, {"files": len(paths)})
