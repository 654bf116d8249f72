from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from challenges.engine import Draw, generate
from challenges.engine.gates import MARKERS
from challenges.engine.generate import MAX_COMMITS, MIN_COMMITS
from tests.unit.engine.conftest import BY_KEY, make_instance

GIT = shutil.which("git") or "git"  # .ci/run installs git and patch
PATCH = shutil.which("patch") or "patch"


def _isolated_env(tmp_path: Path) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull, "LC_ALL": "C"}


def test_rebuilding_from_the_recorded_draw_reproduces_every_byte(py_instance):
    again = generate(Draw.from_json(py_instance.draw.to_json()), lexicon=BY_KEY[py_instance.draw.lexicon_key])
    assert again.files == py_instance.files
    assert [c.id for c in again.history.commits] == [c.id for c in py_instance.history.commits]
    assert again.history.bundle() == py_instance.history.bundle()
    assert again.oracle_files == py_instance.oracle_files
    assert again.gold.patch == py_instance.gold.patch
    assert [a.patch for a in again.alternatives] == [a.patch for a in py_instance.alternatives]
    assert [c.patch for c in again.canaries] == [c.patch for c in py_instance.canaries]
    assert again.fingerprint == py_instance.fingerprint
    assert again.gold_region == py_instance.gold_region
    assert again.digest() == py_instance.digest()


def test_digest_changes_with_any_byte(py_instance):
    import dataclasses

    path = py_instance.source_paths[0]
    changed = dataclasses.replace(py_instance, files={**py_instance.files, path: py_instance.files[path] + " "})
    assert changed.digest() != py_instance.digest()


def test_history_shape(py_instance):
    commits = py_instance.history.commits
    assert MIN_COMMITS <= len(commits) <= MAX_COMMITS
    span_days = (commits[-1].timestamp - commits[0].timestamp) / 86400
    assert span_days >= 7
    assert all(a.timestamp < b.timestamp for a, b in zip(commits, commits[1:], strict=False))
    authors = {c.author for c in commits}
    assert len(authors) >= 2
    domain = py_instance.draw.project_name.replace("_", "")
    assert all(re.fullmatch(rf"[A-Z][a-z]+ [A-Z][a-z]+ <([a-z._]+@{domain}\.dev|\d+\+[a-z-]+@users\.noreply\.github\.com)>",
                            a) for a in authors), authors


def test_no_commit_holds_the_gold_fixed_region(py_instance):
    region = py_instance.gold_region
    fixed = py_instance.gold.files[region.path]
    gold_text = fixed[region.start:region.end]
    for _commit, path, text in py_instance.history.iter_blobs():
        assert gold_text not in text, path
    bug_introduced = [c for c in py_instance.history.commits if region.path in c.changed]
    assert bug_introduced and bug_introduced[0].kind == "feature"


def test_workspace_matches_head_and_hides_the_oracle(py_instance, tmp_path):
    repo = py_instance.history.write(tmp_path / "ws")
    on_disk = {str(p.relative_to(repo)): p.read_text() for p in repo.rglob("*")
               if p.is_file() and ".git" not in p.relative_to(repo).parts}
    assert on_disk == py_instance.files
    assert not set(py_instance.oracle_files) & set(py_instance.files)
    blobs = {text for _c, _p, text in py_instance.history.iter_blobs()}
    assert not blobs & set(py_instance.oracle_files.values())
    config = (repo / ".git" / "config").read_text()
    assert "[user]" not in config and "email" not in config
    # What git init and the owner's own work leave: sample hooks, reflogs (logallrefupdates).
    hooks = sorted(p.name for p in (repo / ".git" / "hooks").iterdir())
    assert "pre-commit.sample" in hooks and all(h.endswith(".sample") for h in hooks)
    assert all(os.access(repo / ".git" / "hooks" / h, os.X_OK) for h in hooks)
    assert "logallrefupdates = true" in config
    head_log = (repo / ".git" / "logs" / "HEAD").read_text().splitlines()
    assert head_log[-1].split()[1] == py_instance.history.head.decode()
    owner = py_instance.history.owner
    assert all(f"{owner.name} <{owner.email}>" in line for line in head_log)


def test_reflog_is_what_git_reads_and_times_follow_history(py_instance, tmp_path):
    repo = py_instance.history.write(tmp_path / "ws")
    env = _isolated_env(tmp_path)
    reflog = subprocess.run([GIT, "reflog", "--format=%H %gs"], cwd=repo, env=env, capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert reflog[0].split()[0] == py_instance.history.head.decode()
    known = {c.id for c in py_instance.history.commits}
    assert {line.split()[0] for line in reflog} <= known
    times = [int(line.split("\t")[0].split()[-2]) for line in py_instance.history.reflog_head]
    assert times == sorted(times)
    last_change = {}
    for commit in py_instance.history.commits:
        for path in commit.changed:
            last_change[path] = max(commit.timestamp, commit.commit_time)
    for path, when in py_instance.history.file_times.items():
        assert when >= last_change[path], path
    assert py_instance.history.final_time >= max(times)


def test_git_sees_a_clean_tree_and_synthetic_history(py_instance, tmp_path):
    repo = py_instance.history.write(tmp_path / "ws")
    env = _isolated_env(tmp_path)
    status = subprocess.run([GIT, "status", "--porcelain"], cwd=repo, env=env, capture_output=True, text=True,
                            check=True)
    assert status.stdout == ""
    log = subprocess.run([GIT, "log", "--format=%H %ae"], cwd=repo, env=env, capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert [line.split()[0] for line in log if line][::-1] == [c.id for c in py_instance.history.commits]
    fsck = subprocess.run([GIT, "fsck", "--strict"], cwd=repo, env=env, capture_output=True, text=True)
    assert fsck.returncode == 0, fsck.stderr


def test_every_patch_applies_with_git_apply_and_patch(py_instance, tmp_path):
    env = _isolated_env(tmp_path)
    patches = [py_instance.gold, *py_instance.alternatives]
    for index, fix in enumerate(patches):
        for tool in ("git", "patch"):
            work = tmp_path / f"{tool}-{index}"
            py_instance.history.write(work)
            (work / "fix.patch").write_text(fix.patch)
            argv = [GIT, "apply", "fix.patch"] if tool == "git" else [PATCH, "-p1", "-s", "-i", "fix.patch"]
            subprocess.run(argv, cwd=work, env=env, check=True, capture_output=True, stdin=subprocess.DEVNULL)
            for path, text in fix.files.items():
                assert (work / path).read_text() == text
    for canary in py_instance.canaries:
        work = tmp_path / f"canary-{canary.name}"
        py_instance.history.write(work)
        (work / "c.patch").write_text(canary.patch)
        subprocess.run([GIT, "apply", "c.patch"], cwd=work, env=env, check=True, capture_output=True)


def test_gold_patch_is_minimal_and_organic(py_instance):
    changed = [line for line in py_instance.gold.patch.splitlines()
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert 1 <= len(changed) <= 4
    assert set(py_instance.gold.files) <= set(py_instance.source_paths)
    alt_forms = {a.patch for a in py_instance.alternatives}
    assert len(alt_forms) >= 2 and py_instance.gold.patch not in alt_forms


def test_canaries_and_red_herrings_are_recorded(py_instance):
    assert 2 <= len(py_instance.canaries) <= 3
    for canary in py_instance.canaries:
        text = py_instance.files[canary.path].splitlines()
        assert 1 <= canary.lines[0] <= canary.lines[1] <= len(text)
        assert canary.guard.startswith("test_") and canary.patch.startswith("diff --git")
    kinds = {h.kind for h in py_instance.red_herrings}
    assert kinds == set(py_instance.draw.red_herrings)
    if "misleading-test" in kinds:
        assert py_instance.expected_visible_failures


def test_tier_size_rules_and_realism(py_instance):
    sources = py_instance.source_paths
    assert len(sources) >= 6
    lines = sum(len([ln for ln in py_instance.files[p].splitlines() if ln.strip()]) for p in sources)
    assert lines >= 400
    for name in ("pyproject.toml", "README.md", "CHANGELOG.md", ".gitignore", "config/settings.json"):
        assert name in py_instance.files
    everything = "\n".join([*py_instance.files.values(), *py_instance.files.keys(),
                            *(c.message for c in py_instance.history.commits)])
    assert not MARKERS.search(everything)
    for word in ("paged-listing-cache", "paged_listing_cache", "canary", "herring", "oracle", "caching-staleness"):
        assert word not in everything.lower()


def test_instances_differ_across_draws():
    a = make_instance("paged-listing-cache", "python", 1)
    b = make_instance("paged-listing-cache", "python", 2)
    assert a.files != b.files
    assert a.history.commits[0].id != b.history.commits[0].id


def test_fingerprint_has_the_spec_fields(py_instance):
    from challenges.engine import FINGERPRINT_FIELDS, fingerprint

    fp = fingerprint(py_instance)
    assert tuple(fp) == FINGERPRINT_FIELDS
    assert fp["complexity_tier"] == 4 and fp["domain"] == BY_KEY[py_instance.draw.lexicon_key]["domain"]
    assert "python" in fp["tech_stack"] and fp["red_herring_types"] == sorted(py_instance.draw.red_herrings)


def test_secrets_dict_is_json_serialisable(py_instance):
    import json

    data = json.loads(json.dumps(py_instance.secrets_dict()))
    assert data["gold_patch"] == py_instance.gold.patch
    assert data["draw"]["template"] == "paged-listing-cache"


def test_bare_repository_and_bundle_clone_to_the_workspace(py_instance, tmp_path):
    import io
    import tarfile

    env = _isolated_env(tmp_path)
    bare = py_instance.history.write(tmp_path / "forge.git", bare=True)
    subprocess.run([GIT, "clone", "-q", str(bare), str(tmp_path / "clone")], env=env, check=True, capture_output=True)
    with tarfile.open(fileobj=io.BytesIO(py_instance.history.bundle()), mode="r:gz") as tar:
        tar.extractall(tmp_path / "from-bundle.git", filter="data")
    subprocess.run([GIT, "clone", "-q", str(tmp_path / "from-bundle.git"), str(tmp_path / "clone2")], env=env,
                   check=True, capture_output=True)
    for clone in ("clone", "clone2"):
        root = tmp_path / clone
        files = {str(p.relative_to(root)): p.read_text() for p in root.rglob("*")
                 if p.is_file() and ".git" not in p.relative_to(root).parts}
        assert files == py_instance.files


def test_a_draw_from_another_template_version_is_refused(py_instance):
    import dataclasses

    from challenges.engine import DrawError

    stale = dataclasses.replace(py_instance.draw, template_version="0")
    with pytest.raises(DrawError) as exc:
        generate(stale, lexicon=BY_KEY[stale.lexicon_key])
    assert exc.value.code == "draw_version_mismatch"
    legacy = {k: v for k, v in py_instance.draw.to_dict().items() if k != "template_version"}
    assert Draw.from_dict(legacy).template_version == "1"


def test_without_rewrites_only_non_test_source_differs():
    import random as _random

    from challenges.engine import draw as _draw
    from challenges.engine import generate as _generate

    d = _draw("job-scheduler", "python", _random.Random(5))
    plain, rewritten = _generate(d, rewrite=False), _generate(d)
    changed = {p for p in rewritten.files if plain.files.get(p) != rewritten.files[p]}
    assert changed and changed <= set(rewritten.source_paths)
    assert plain.oracle_files == rewritten.oracle_files
