"""``generate(draw)``: blueprint -> files, patches, canaries, oracle, history.

Pipeline (spec 003 steps 4-7): the template builds a blueprint for the draw; the
emitter lays modules out for the drawn structure and writes the scaffolding;
sites are rendered once per variant (shipped, gold, each alternative fix, each
canary "fix"); patches are diffs between variants; history replays the
blueprint's features with the *shipped* site text, so the faulty code arrives
with its feature and no commit ever holds the fixed region.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from challenges.engine.components.compose import compose as compose_components
from challenges.engine.context import BuildContext
from challenges.engine.draw import ENGINE_VERSION, Draw
from challenges.engine.emitters.base import Emitter, ProjectInfo, Release, ScaffoldState, get_emitter
from challenges.engine.errors import DrawError, TemplateError
from challenges.engine.fingerprint import build_fingerprint
from challenges.engine.history import MAIN, History, Snapshot, build_history, schedule
from challenges.engine.instance import CanaryRecord, FixRecord, GeneratedInstance, GoldRegion, HerringRecord
from challenges.engine.ir import Blueprint, Module
from challenges.engine.model import TemplateSpec, get_template
from challenges.engine.naming import LexiconView, Namer, generic_error, human, pascal
from challenges.engine.patches import unified_diff
from challenges.engine.prose import fix_articles
from challenges.engine.render import expand_to_lines, line_span, render
from challenges.engine.rewrite.registry import rewrite as rewrite_module
from challenges.engine.statement import compose
from challenges.engine.styles import CommitVoice, handle_of

MIN_COMMITS = 8
# Large projects carry one feature commit per composed component (see components/compose.py).
MAX_COMMITS = 64
RELEASE_PROBABILITY = 0.35
SPLIT_TESTS_PROBABILITY = 0.45
UNDOCUMENTED_MODULES = 2
CONTEXT_SEED_SALT = 0x5EED_C0DE
HISTORY_SEED_SALT = 0x0415_7021
VOICE_SEED_SALT = 0x0B0D_1E55
REWRITE_SEED_LABEL = b"code-rewrite"


def resolve_lexicon(key: str, lexicon: Any = None) -> LexiconView:
    if lexicon is not None:
        view = LexiconView.of(lexicon)
        if view.key != key:
            raise DrawError("lexicon_mismatch", f"draw wants lexicon {key!r}, got {view.key!r}", field="lexicon")
        return view
    from challenges.engine.lexicons import get_lexicon

    return LexiconView.of(get_lexicon(key))


@dataclass
class _Layout:
    emitter: Emitter
    info: ProjectInfo
    paths: dict[str, str]  # module key -> path
    modules: dict[str, Module]
    # Per-draw rewrite of the source modules (None: modules are emitted as rendered).
    rewrite_seed: bytes | None = None
    # Rewrites already planned in this build (see ``registry.rewrite``).
    rewrites: dict[tuple, tuple[str, ...]] = field(default_factory=dict)


def rewrite_seed(draw: Draw) -> bytes:
    """The seed of the draw's code rewrites, apart from every other use of the history seed."""
    return hashlib.blake2b(str(draw.history_seed).encode(), key=REWRITE_SEED_LABEL, digest_size=16).digest()


_REGION = "\x00region"


def _rewrite(lay: _Layout, text: str, protected: dict[str, tuple[int, int]]
             ) -> tuple[str, dict[str, tuple[int, int]]]:
    """``text`` rewritten by the language's planner outside the ``protected`` spans, with the spans moved."""
    assert lay.rewrite_seed is not None
    return rewrite_module(lay.emitter.language, text, protected, lay.rewrite_seed, lay.rewrites)


def _layout(bp: Blueprint, emitter: Emitter, info: ProjectInfo) -> _Layout:
    paths: dict[str, str] = {}
    modules: dict[str, Module] = {}
    for module in [*bp.modules, *bp.tests, *bp.oracle]:
        if module.key in modules:
            raise TemplateError("module_duplicate", f"module key {module.key!r} used twice", field="modules")
        path = emitter.module_path(module, info)
        if path in paths.values():
            raise TemplateError("path_duplicate", f"two modules map to {path}", field="modules")
        paths[module.key] = path
        modules[module.key] = module
    return _Layout(emitter, info, paths, modules)


def _render_module(
    bp: Blueprint, lay: _Layout, module: Module, snippets: dict[str, str], mark: tuple[str, ...] = ()
) -> tuple[str, dict[str, tuple[int, int]], tuple[tuple[int, int], ...]]:
    """One module's text, the spans of its ``mark``ed sites and every marked region, in order."""
    path = lay.paths[module.key]
    names = {**bp.names, **lay.emitter.module_names(path)}
    imports = lay.emitter.render_imports(module, lay.paths, lay.info)
    rewrite = lay.rewrite_seed is not None and not module.test
    # A rewritten module keeps every site (not only the marked ones) and every region as
    # they render, so all variants of the module differ only inside the sites.
    out = render(module.text, names, snippets, mark=tuple(snippets) if rewrite else mark, imports=imports)
    text = out.text.rstrip("\n") + "\n"
    regions = out.regions or ((out.region,) if out.region is not None else ())
    if not rewrite:
        return text, dict(out.spans), regions
    protected = {f"{i}\x00{site}": span for i, (site, span) in enumerate(out.occurrences)}
    last = {site: f"{i}\x00{site}" for i, (site, _) in enumerate(out.occurrences)}
    protected.update({f"{_REGION}{i}": region for i, region in enumerate(regions)})
    text, moved = _rewrite(lay, text, protected)
    site_spans = {site: moved[last[site]] for site in out.spans if site in mark}
    return text, site_spans, tuple(moved[f"{_REGION}{i}"] for i in range(len(regions)))


def _render_modules(
    bp: Blueprint, lay: _Layout, modules: list[Module], snippets: dict[str, str], mark: tuple[str, ...] = ()
) -> tuple[dict[str, str], dict[str, tuple[str, tuple[int, int]]], dict[str, tuple[int, int]]]:
    files: dict[str, str] = {}
    spans: dict[str, tuple[str, tuple[int, int]]] = {}
    regions: dict[str, tuple[int, int]] = {}
    for module in modules:
        path = lay.paths[module.key]
        text, site_spans, marked = _render_module(bp, lay, module, snippets, mark)
        files[path] = text
        for site, span in site_spans.items():
            spans[site] = (path, span)
        if marked:
            regions[path] = marked[-1]
    return files, spans, regions


def _check_blueprint(spec: TemplateSpec, draw: Draw, bp: Blueprint) -> None:
    def bad(field: str, message: str) -> TemplateError:
        return TemplateError("blueprint_invalid", f"{spec.slug}: {message}", field=field)

    if bp.bug.site not in bp.sites:
        raise bad("bug", f"bug site {bp.bug.site!r} is not a declared site")
    if bp.bug.site not in bp.bug.gold.snippets:
        raise bad("bug", "the gold fix must rewrite the bug site")
    if bp.bug.gold.snippets[bp.bug.site] == bp.sites[bp.bug.site]:
        raise bad("bug", "shipped and gold text of the bug site are identical")
    if bp.bug.faults and bp.bug.site not in bp.bug.faults:
        raise bad("bug", f"the bug site {bp.bug.site!r} must be one of its faults {list(bp.bug.faults)}")
    if len(set(bp.bug.fault_sites)) != len(bp.bug.faults or (bp.bug.site,)):
        raise bad("bug", "a fault site is listed twice")
    for site in bp.bug.fault_sites[1:]:
        if site not in bp.sites:
            raise bad("bug", f"fault site {site!r} is not a declared site")
        if site not in bp.bug.gold.snippets:
            raise bad("bug", f"the gold fix must rewrite the fault site {site!r}")
        if bp.bug.gold.snippets[site] == bp.sites[site]:
            raise bad("bug", f"shipped and gold text of the fault site {site!r} are identical")
    if len(bp.bug.alternatives) < 2:
        raise bad("bug", "at least two alternative fixes are required")
    if sorted(c.name for c in bp.canaries) != sorted(draw.canaries):
        raise bad("canaries", f"blueprint canaries {[c.name for c in bp.canaries]} != drawn {list(draw.canaries)}")
    if sorted(h.kind for h in bp.red_herrings) != sorted(draw.red_herrings):
        raise bad("red_herrings", "blueprint red herrings differ from the draw")
    for module in bp.modules:
        if module.test or module.hidden:
            raise bad("modules", f"{module.key} is a test module among sources")
    for module in [*bp.tests, *bp.oracle]:
        if not module.test:
            raise bad("tests", f"{module.key} must have test=True")
    for module in bp.oracle:
        if not module.hidden:
            raise bad("oracle", f"{module.key} must have hidden=True")
    if not bp.features:
        raise bad("features", "at least one history feature is required")
    feature_order = {f.key: i for i, f in enumerate(bp.features)}
    by_key = {m.key: m for m in [*bp.modules, *bp.tests, *bp.oracle]}
    for module in [*bp.modules, *bp.tests]:
        if module.feature not in feature_order:
            raise bad("features", f"{module.key} has unknown feature {module.feature!r}")
        for imp in module.imports:
            target = by_key.get(imp.module)
            if target is None or target.test:
                raise bad("imports", f"{module.key} imports unknown module {imp.module!r}")
            if feature_order[target.feature] > feature_order[module.feature]:
                raise bad("imports", f"{module.key} imports {imp.module} before it exists in history")


# Optional history shapes (each drawn per project from the history seed).
BRANCH_PROBABILITY = 0.35
REVERT_PROBABILITY = 0.3
TYPO_PROBABILITY = 0.35
# A README word and the slip a hurried author makes in it.
TYPOS = (("configuration", "configuraton"), ("necessary", "neccessary"), ("separately", "seperately"),
         ("environment", "enviroment"), ("available", "availble"), ("receive", "recieve"),
         ("requires", "requries"), ("default", "defualt"), ("editable", "editible"), ("settings", "settigns"),
         ("whether", "wether"), ("until", "untill"))
# A requirement bump that was taken back (language -> path, before, after, subject, reason).
BUMPS = {
    "python": ("pyproject.toml", 'requires-python = ">=3.10"', 'requires-python = ">=3.11"',
               "Require Python 3.11", "The deployment image still runs Python 3.10."),
    "javascript": ("package.json", '"node": ">=18"', '"node": ">=20"',
                   "Require Node.js 20", "CI and one deployment still run Node.js 18."),
}


def _tweak_pattern(old: str) -> re.Pattern[str]:
    """``old`` as a whole word: never inside a path, a file name or a longer word."""
    return re.compile(r"(?<![\w/.-])" + re.escape(old) + r"(?![\w/-]|\.\w)")


def _apply_tweaks(files: dict[str, str], tweaks: tuple[tuple[str, str, str], ...]) -> dict[str, str]:
    for path, old, new in tweaks:
        if path in files:
            files[path] = _tweak_pattern(old).sub(new, files[path], count=1)
    return files


def _plan_history(
    bp: Blueprint, lay: _Layout, draw: Draw, shipped: dict[str, str], before: dict[str, str]
) -> tuple[History, str | None, str]:
    """Build the commit graph; returns (history, suspicious commit id, final version)."""
    for extras in (True, False):
        steps, voice = _plan_steps(bp, lay, draw, extras)
        if len(steps) <= MAX_COMMITS:
            break
    else:
        raise TemplateError("history_too_long", f"{len(steps)} commits (max {MAX_COMMITS})", field="features")
    merges = {i for i, st in enumerate(steps) if len(st["parents"] or ()) > 1}
    # The maintainer merges and cuts releases.
    maintained = merges | {i for i, st in enumerate(steps) if st["kind"] == "release"}
    follow: dict[int, int] = {}
    for i, st in enumerate(steps):
        if st["branch"] != MAIN and i and steps[i - 1]["branch"] == st["branch"]:
            follow[i] = follow.get(i - 1, i - 1)
    plan = schedule(len(steps), seed=draw.history_seed, time_base=draw.time_base, project=bp.package,
                    people=draw.people, merges=maintained, follow=follow)
    handles = {stamp.author.name: handle_of(stamp.author.name, random.Random(f"{draw.history_seed}:{stamp.author.name}"))
               for stamp in plan}
    for i, st in enumerate(steps):
        st["branch"] = st["branch"].replace("{handle}", handles[plan[i].author.name])
    # Merge messages name the branch author's forge handle; revert bodies the reverted id.
    for i, st in enumerate(steps):
        if i in merges:
            tip = st["parents"][1]
            author = plan[tip].author
            local = plan[tip].committer == plan[0].author
            st["message"] = voice.merge(steps[tip]["branch"], steps[tip]["subject"], handles[author.name], local)
    snapshots: list[Snapshot] = []
    suspicious: str | None = None
    version = "0.1.0"
    release_dates = {step["releases"][-1][0]: _date(plan[i].commit_time)
                     for i, step in enumerate(steps) if step["kind"] == "release"}
    for step in steps:
        rel_list = [Release(v, release_dates[v], tuple(entries)) for v, entries in step["releases"]]
        version = rel_list[-1].version if rel_list else "0.1.0"
        unreleased = tuple(step["pending"])
        snippets = dict(shipped) if step["herring"] else {**shipped, **before}
        feats = set(step["features"])
        mods = [m for m in bp.modules if m.feature in feats]
        mods += [m for m in bp.tests if m.feature in set(step["tests"])]
        files, _, _ = _render_modules(bp, lay, mods, snippets)
        if not step["docs"]:
            for path in step["undocumented"] & set(files):
                files[path] = _strip_leading_doc(files[path], lay.emitter.language)
        source_paths = tuple(lay.paths[m.key] for m in mods if not m.test)
        files.update(lay.emitter.scaffold(lay.info, ScaffoldState(
            version=version, releases=tuple(rel_list), unreleased=unreleased,
            source_paths=source_paths, docs_complete=step["docs"], settings=bp.settings)))
        _apply_tweaks(files, step["tweaks"])
        parents = tuple(step["parents"]) if step["parents"] is not None else None
        snapshots.append(Snapshot(step["message"], files, step["kind"], parents, step["branch"], step["refers_to"]))
    history = build_history(snapshots, plan[: len(snapshots)], seed=draw.history_seed)
    for record in history.commits:
        if record.kind == "herring":
            suspicious = record.id
    return history, suspicious, version


def _plan_steps(bp: Blueprint, lay: _Layout, draw: Draw, extras: bool) -> tuple[list[dict[str, Any]], CommitVoice]:
    """The ordered steps (one per commit) with the project state after each."""
    rng = random.Random(draw.history_seed ^ HISTORY_SEED_SALT)
    voice = CommitVoice.draw(random.Random(draw.history_seed ^ VOICE_SEED_SALT), bp.package)
    herring = next((h for h in bp.red_herrings if h.kind == "suspicious-commit"), None)
    steps: list[dict[str, Any]] = []
    # A few early modules first land without their module documentation, which the
    # documentation commit adds: files evolve instead of appearing fully formed.
    docs_at = len(bp.features) // 2
    early = {f.key for f in bp.features[: docs_at + 1]}
    bug_paths = {next((lay.paths[m.key] for m in bp.modules if "{{!" + site + "}}" in m.text), None)
                 for site in bp.bug.fault_sites}
    candidates = [m for m in bp.modules if m.feature in early and lay.paths[m.key] not in bug_paths
                  and _strip_leading_doc(m.text, lay.emitter.language) != m.text]
    undocumented = rng.sample(candidates, min(UNDOCUMENTED_MODULES, len(candidates)))
    state: dict[str, Any] = {"features": (), "tests": (), "docs": False, "herring": herring is None,
                             "releases": (), "pending": (), "tweaks": (),
                             "undocumented": frozenset(lay.paths[m.key] for m in undocumented)}
    main_tip = [0]
    bump = BUMPS.get(lay.emitter.language)
    revert_at = rng.randrange(1, len(bp.features)) if extras and bump and rng.random() < REVERT_PROBABILITY \
        and len(bp.features) > 1 else None
    readme = lay.emitter.scaffold(lay.info, ScaffoldState(version="0", settings=bp.settings))["README.md"]
    typos = [t for t in TYPOS if _tweak_pattern(t[0]).search(readme)]
    typo = rng.choice(typos) if extras and typos and rng.random() < TYPO_PROBABILITY else None
    typo_fix_at = rng.randrange(docs_at + 1, len(bp.features) + 1) if typo else None

    def push(kind: str, message: str, *, branch: str = MAIN, parents: list[int] | None = None,
             refers_to: int | None = None, subject: str = "", **changes: Any) -> int:
        state.update(changes)
        if parents is None:
            parents = [main_tip[0]] if steps and branch == MAIN else None
        steps.append({"kind": kind, "message": message, "branch": branch, "parents": parents,
                      "refers_to": refers_to, "subject": subject or (message.splitlines() or [""])[0], **state})
        index = len(steps) - 1
        if branch == MAIN:
            main_tip[0] = index
        return index

    def release() -> None:
        version = f"0.{len(state['releases']) + 1}.0"
        push("release", voice.release(version), releases=state["releases"] + ((version, state["pending"]),),
             pending=())

    steps.append({"kind": "scaffold", "message": voice.initial(), "branch": MAIN, "parents": None,
                  "refers_to": None, "subject": "", **state})
    for index, feature in enumerate(bp.features):
        tests_here = [m for m in bp.tests if m.feature == feature.key]
        split = bool(tests_here) and rng.random() < SPLIT_TESTS_PROBABILITY
        tests = state["tests"] if split else state["tests"] + (feature.key,)
        on_branch = extras and index > 0 and rng.random() < BRANCH_PROBABILITY and index != docs_at
        paths = tuple(lay.paths[m.key] for m in [*bp.modules, *bp.tests]
                      if m.feature == feature.key and (not split or not m.test))
        subject = voice.subject("feature", feature.message)
        body = voice.body("feature", feature.changelog, paths)
        branch = MAIN
        if on_branch:
            branch = voice.branch(feature.message, "{handle}", avoid=(draw.template,))
        first = push("feature", subject + (f"\n\n{body}" if body else ""), branch=branch,
                     parents=[main_tip[0]] if on_branch else None, subject=feature.message,
                     features=state["features"] + (feature.key,), tests=tests,
                     pending=state["pending"] + (feature.changelog,))
        last = first
        if split:
            stems = " and ".join(sorted({human(m.stem) for m in tests_here}))
            last = push("tests", voice.subject("tests", f"Add tests for {stems}"), branch=branch,
                        parents=[first] if on_branch else None, tests=state["tests"] + (feature.key,))
        if on_branch:
            push("merge", "", parents=[main_tip[0], last])
        if index == docs_at:
            names = " and ".join(sorted(human(m.stem) for m in undocumented))
            message = (f"Document the {names} module{'s' if len(undocumented) > 1 else ''} and expand the README"
                       if undocumented else "Expand README with usage and configuration notes")
            tweaks = state["tweaks"] + (("README.md", typo[0], typo[1]),) if typo else state["tweaks"]
            push("docs", voice.subject("docs", message), docs=True, tweaks=tweaks)
        if typo and index + 1 == typo_fix_at:
            push("fixup", voice.subject("fixup", "Fix a typo in the README"),
                 tweaks=tuple(t for t in state["tweaks"] if t[0] != "README.md"))
        if revert_at == index and bump:
            path, old, new, subject_text, reason = bump
            bumped = push("bump", voice.subject("bump", subject_text), tweaks=state["tweaks"] + ((path, old, new),))
            reverted = steps[bumped]["message"].splitlines()[0]
            push("revert", f'Revert "{reverted}"\n\nThis reverts commit {{ref}}.\n\n{reason}',
                 refers_to=bumped, tweaks=tuple(t for t in state["tweaks"] if t[0] != path))
        if 0 < index < len(bp.features) - 1 and rng.random() < RELEASE_PROBABILITY:
            release()
    if typo and typo_fix_at == len(bp.features) + 1:
        push("fixup", voice.subject("fixup", "Fix a typo in the README"),
             tweaks=tuple(t for t in state["tweaks"] if t[0] != "README.md"))
    if herring is not None:
        push("herring", voice.subject("herring", herring.message), herring=True)
    if state["pending"]:
        release()
    if state["tweaks"]:
        push("fixup", voice.subject("fixup", "Fix a typo in the README"), tweaks=())
    fillers = ("Tidy module docstrings", "Clarify configuration defaults in README", "Reword the README introduction")
    while len(steps) < MIN_COMMITS:
        # Short histories get the housekeeping a real project accumulates.
        at = len(steps) - 1
        steps.insert(at, {**steps[at - 1], "kind": "chore", "branch": MAIN, "refers_to": None,
                          "message": voice.subject("chore", fillers[len(steps) % len(fillers)])})
        for later in steps[at:]:
            if later["parents"] is not None:
                later["parents"] = [p + 1 if p >= at else p for p in later["parents"]]
        for later in steps[at + 1:]:
            if later["refers_to"] is not None and later["refers_to"] >= at:
                later["refers_to"] += 1
    for i, st in enumerate(steps):
        if st["parents"] is None and i:
            st["parents"] = [i - 1]
    return steps, voice


_PY_DOC = re.compile(r'\A"""[\s\S]*?"""\n(?:[ \t]*\n)*')
_JS_DOC = re.compile(r"\A('use strict';\n\n)/\*[\s\S]*?\*/\n(?:[ \t]*\n)*")


def _strip_leading_doc(text: str, language: str) -> str:
    """``text`` without its module docstring (Python) or leading block comment (JavaScript)."""
    if language == "python":
        return _PY_DOC.sub("", text, count=1)
    return _JS_DOC.sub(r"\1", text, count=1)


def _date(ts: int) -> str:
    return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%d")


def _fit_prose(bp: Blueprint) -> Blueprint:
    """The blueprint's prose (summary, README sections, history messages) with its articles
    fitted to the lexicon words the template put after them ("an appointment")."""
    return dataclasses.replace(
        bp, summary=fix_articles(bp.summary),
        readme_sections=[(title, fix_articles(body)) for title, body in bp.readme_sections],
        features=[dataclasses.replace(f, message=fix_articles(f.message), changelog=fix_articles(f.changelog))
                  for f in bp.features])


ERROR_ROLES = ("not_found", "conflict", "invalid", "exhausted", "unavailable")


def _misfit_error_roles(lex: LexiconView, sources: dict[str, str]) -> list[str]:
    from challenges.engine.realism import error_fit_problems

    by_name = {pascal(lex.error(role)): role for role in ERROR_ROLES}
    roles = []
    for name, role in by_name.items():
        if error_fit_problems(sources, (name,)):
            roles.append(role)
    return roles


def generate(draw: Draw, *, lexicon: Any = None, rewrite: bool = True) -> GeneratedInstance:
    """Build the instance recorded by ``draw`` (deterministic: same draw, same bytes).

    ``rewrite=False`` leaves out the per-draw rewrites: for looking at a template's own code
    (the intake gate's samples), never for an instance that is released or rebuilt.
    """
    template = get_template(draw.template)
    spec = template.spec
    if draw.engine_version != ENGINE_VERSION or draw.template_version != spec.version:
        raise DrawError(
            "draw_version_mismatch",
            f"draw made by engine {draw.engine_version} / template {draw.template_version}; this is engine "
            f"{ENGINE_VERSION} / template {spec.version}: it cannot be rebuilt byte for byte",
            field="template_version",
        )
    if draw.language not in spec.languages:
        raise DrawError("language_unsupported", f"{spec.slug} does not support {draw.language}", field="language")
    emitter = get_emitter(draw.language)
    lex = resolve_lexicon(draw.lexicon_key, lexicon)
    namer = Namer(draw.language)
    ctx = BuildContext(draw, lex, namer, random.Random(draw.history_seed ^ CONTEXT_SEED_SALT))
    bp = _fit_prose(compose_components(template.build(ctx), ctx, spec.tier))
    _check_blueprint(spec, draw, bp)
    info = ProjectInfo(
        name=bp.package, summary=bp.summary, domain=lex.domain, structure=draw.structure,
        domain_dir=namer.file(lex.noun("entity", plural=True)), settings=bp.settings,
        readme_sections=tuple(bp.readme_sections), readme_usage=bp.readme_usage, style_seed=draw.history_seed,
    )
    lay = _layout(bp, emitter, info)

    shipped_sites = dict(bp.sites)
    for herring in bp.red_herrings:
        shipped_sites.update(herring.snippets)
    gold_sites = {**shipped_sites, **bp.bug.gold.snippets}

    visible_modules = [*bp.modules, *bp.tests]
    shipped, _, _ = _render_modules(bp, lay, visible_modules, shipped_sites)
    misfits = _misfit_error_roles(lex, {lay.paths[m.key]: shipped[lay.paths[m.key]] for m in bp.modules})
    if misfits:
        # A domain-specific error name raised for something it does not name (an
        # "InvalidTaxCode" for a bad setting) becomes the generic name for its role.
        return generate(draw, lexicon=lex.with_errors({role: generic_error(role, draw.history_seed)
                                                       for role in misfits}), rewrite=rewrite)
    # The error-name check above reads the modules as rendered (rewrites keep every raise
    # and its message); from here on the source modules are rewritten per draw.
    lay.rewrite_seed = rewrite_seed(draw) if rewrite else None
    shipped, _, _ = _render_modules(bp, lay, visible_modules, shipped_sites)
    source_paths = [lay.paths[m.key] for m in bp.modules]
    shipped.update(emitter.scaffold(info, ScaffoldState(version="0", source_paths=tuple(source_paths),
                                                        settings=bp.settings)))
    oracle, _, _ = _render_modules(bp, lay, bp.oracle, gold_sites)

    def variant(sites: dict[str, str], mark: tuple[str, ...] = ()) -> tuple[dict[str, str], dict, dict]:
        files, spans, regions = _render_modules(bp, lay, bp.modules, sites, mark)
        return {p: t for p, t in files.items() if shipped.get(p) != t}, spans, regions

    faults = bp.bug.fault_sites
    gold_changed, gold_spans, gold_regions = variant(gold_sites, faults)
    gold_rendered, _, _ = _render_modules(bp, lay, bp.modules, gold_sites)
    fault_regions: tuple[GoldRegion, ...] = ()
    if len(faults) > 1:
        fault_regions = _fault_regions(bp, lay, gold_sites, gold_rendered, gold_spans, faults)
        gold_region = fault_regions[0]
    else:
        bug_path, bug_span = gold_spans[bp.bug.site]
        region = gold_regions.get(bug_path) or expand_to_lines(gold_rendered[bug_path], bug_span)
        if region[1] <= region[0]:
            raise TemplateError("region_empty", "gold region is empty: mark it with {{[}} {{]}}", field="bug")
        gold_region = GoldRegion(bug_path, region[0], region[1], line_span(gold_rendered[bug_path], region))

    def fix_record(label: str, description: str, changed: dict[str, str]) -> FixRecord:
        if not changed:
            raise TemplateError("fix_empty", f"fix {label!r} changes nothing", field="bug")
        return FixRecord(label, description, unified_diff({p: shipped[p] for p in changed}, changed), changed)

    gold = fix_record("gold", bp.bug.gold.description or bp.bug.summary, gold_changed)
    alternatives = []
    for alt in bp.bug.alternatives:
        changed, _, _ = variant({**shipped_sites, **alt.snippets})
        if changed == gold_changed:
            raise TemplateError("fix_same_as_gold", f"alternative {alt.label!r} equals the gold fix", field="bug")
        alternatives.append(fix_record(alt.label, alt.description, changed))
    # Each fault cured alone, the others left as shipped: the oracle gate requires that
    # every one of these still fails a hidden test.
    partial_fixes = []
    if len(faults) > 1:
        for site in faults:
            changed, _, _ = variant({**shipped_sites, site: bp.bug.gold.snippets[site]})
            partial_fixes.append(fix_record(f"{site} only", f"The gold text at {site} alone; every other "
                                            "fault as shipped.", changed))

    _, shipped_spans, _ = variant(shipped_sites, tuple(c.site for c in bp.canaries))
    canaries = []
    for canary in bp.canaries:
        path, span = shipped_spans[canary.site]
        naive_shipped, _, _ = variant({**shipped_sites, canary.site: canary.naive_fix})
        naive_gold, _, _ = _render_modules(bp, lay, bp.modules, {**gold_sites, canary.site: canary.naive_fix})
        if not naive_shipped:
            raise TemplateError("canary_noop", f"canary {canary.name!r} fix changes nothing", field="canaries")
        canaries.append(CanaryRecord(
            canary.name, path, line_span(shipped[path], span), canary.description,
            unified_diff({p: shipped[p] for p in naive_shipped}, naive_shipped), canary.guard,
            {p: t for p, t in naive_gold.items() if shipped.get(p) != t},
        ))

    before: dict[str, str] = {}
    for herring in bp.red_herrings:
        before.update(herring.history_before)
    history, suspicious, version = _plan_history(bp, lay, draw, shipped_sites, before)
    final_files = {path: history.objects[blob].as_raw_string().decode("utf-8")
                   for path, blob in history.trees[-1].items()}
    final_scaffold = emitter.scaffold(info, ScaffoldState(version=version, source_paths=tuple(source_paths),
                                                          settings=bp.settings))
    for path in final_scaffold:
        shipped[path] = final_files[path]
    if final_files != shipped:
        diff = sorted(set(final_files) ^ set(shipped)) or [p for p in shipped if final_files.get(p) != shipped[p]]
        raise TemplateError("history_inconsistent", f"history HEAD differs from the workspace: {diff[:5]}",
                            field="features")

    herrings = []
    expected_failures: list[str] = []
    for herring in bp.red_herrings:
        paths: set[str] = set()
        for site in [*herring.snippets, *herring.history_before]:
            for module in bp.modules:
                if "{{!" + site + "}}" in module.text:
                    paths.add(lay.paths[module.key])
        expected_failures.extend(herring.failing_tests)
        herrings.append(HerringRecord(
            herring.kind, herring.description, tuple(sorted(paths)), herring.failing_tests,
            suspicious if herring.kind == "suspicious-commit" else None,
        ))
    masking = None
    if bp.bug.masking is not None:
        changed, _, _ = variant({**shipped_sites, **bp.bug.masking.snippets})
        if changed == gold_changed:
            raise TemplateError("masking_same_as_gold", "the masking fix equals the gold fix", field="bug")
        masking = fix_record(bp.bug.masking.label, bp.bug.masking.description, changed)
    statement = None
    if bp.bug.symptom is not None:
        statement = compose(bp.bug.symptom, tier=spec.tier, project=bp.package, seed=draw.history_seed,
                            time_base=draw.time_base)
    source_lines = sum(1 for p in source_paths for line in shipped[p].splitlines() if line.strip())
    difficulty: dict[str, Any] = {
        "tier": spec.tier, "bug_level": draw.bug_level, "structure": draw.structure,
        "source_files": len(source_paths), "source_lines": source_lines,
        "visible_failures_on_bug": len(expected_failures), "masking_fix": masking is not None,
        "canaries": len(canaries), "red_herrings": len(herrings), "faults": len(faults),
        **(statement.knobs() if statement is not None else {"statement_form": None}),
    }
    key_paths = {m.key: lay.paths[m.key] for m in [*bp.modules, *bp.tests]}
    facts = [(render(p, bp.names, {}).text, tuple(key_paths.get(a, a) for a in anchors))
             for p, anchors in bp.fact_tokens]
    return GeneratedInstance(
        draw=draw, template=spec.slug, family=spec.family, tier=spec.tier, language=draw.language,
        files=dict(sorted(shipped.items())), history=history, oracle_files=oracle,
        visible_tests=[lay.paths[m.key] for m in bp.tests], oracle_tests=[lay.paths[m.key] for m in bp.oracle],
        gold=gold, alternatives=alternatives, canaries=canaries, red_herrings=herrings,
        expected_visible_failures=expected_failures, gold_region=gold_region,
        fingerprint=build_fingerprint(spec, draw, bp, lex.domain, emitter.tech_stack),
        fact_tokens=facts, source_paths=source_paths, bug_summary=bp.bug.summary,
        history_before=before, lexicon=lex.to_dict(),
        statement=statement.text if statement is not None else "",
        difficulty=difficulty, masking=masking, invariant=tuple(bp.bug.invariant),
        fault_regions=fault_regions, partial_fixes=partial_fixes,
    )


def _fault_regions(bp: Blueprint, lay: _Layout, gold_sites: dict[str, str], gold_rendered: dict[str, str],
                   gold_spans: dict[str, tuple[str, tuple[int, int]]],
                   faults: tuple[str, ...]) -> tuple[GoldRegion, ...]:
    """One gold region per fault, in fault order: the marked region ({{[}} {{]}}) of the
    fault's module that holds the fault's site, else the lines of its gold snippet.  Two
    faults inside one marked region share it."""
    regions: list[GoldRegion] = []
    for site in faults:
        path, span = gold_spans[site]
        module = next(m for m in bp.modules if lay.paths[m.key] == path)
        _, _, marked = _render_module(bp, lay, module, gold_sites)
        region = next((r for r in marked if r[0] <= span[0] and span[1] <= r[1]), None)
        if region is None:
            region = expand_to_lines(gold_rendered[path], span)
        if region[1] <= region[0]:
            raise TemplateError("region_empty", f"the gold region of fault {site!r} is empty: mark it with "
                                "{{[}} {{]}}", field="bug")
        record = GoldRegion(path, region[0], region[1], line_span(gold_rendered[path], region))
        if record not in regions:
            regions.append(record)
    return tuple(regions)
