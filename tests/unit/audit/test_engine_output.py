"""The audit on real engine output: released-style instances audit clean; planted leaks do not."""

from __future__ import annotations

import functools
import random

import pytest
from dulwich.objects import Blob
from dulwich.repo import Repo

from challenges.audit import AuditTarget, OpaqueNames, build_archive, run_audit
from challenges.audit.delivered import audit_archive
from challenges.audit.from_engine import audit_instance, context_for_instance, substrate_for_instance, write_workspace
from challenges.audit.host import HostIdentity
from challenges.audit.intake import intake_report
from challenges.engine import draw, generate, registry
from challenges.engine.errors import EngineError
from challenges.sandbox import ALLOWLIST, sandbox_env

SEEDS = range(4)
HOST = HostIdentity(names=("alice", "buildhost-7"), emails=("alice.mercer@corp.example",))


CASES = [(slug, language, seed) for slug, cls in registry().items() for language in cls.spec.languages
         for seed in SEEDS]


@functools.cache
def instance_at(index: int):
    """The generated instance of ``CASES[index]``, built once per test process on first use,
    so parallel workers build only the instances of the tests they run."""
    slug, language, seed = CASES[index]
    return generate(draw(slug, language, random.Random(seed)))


def test_every_template_and_language_generates():
    failed = []
    for index, case in enumerate(CASES):
        try:
            instance_at(index)
        except EngineError as exc:
            failed.append((case, str(exc)))
    assert not failed


@pytest.mark.parametrize("index", range(len(CASES)))
def test_engine_workspace_audits_clean(tmp_path, index):
    instance = instance_at(index)
    report = audit_instance(instance, tmp_path, instance_id=f"inst-{index:04d}", host=HOST)
    assert report.findings == (), report.render()


@pytest.mark.parametrize("index", range(min(2, len(CASES))))
def test_engine_delivery_audits_clean(tmp_path, index):
    instance = instance_at(index)
    names = OpaqueNames(b"k" * 32)
    root = write_workspace(instance, tmp_path / "src")
    archive = build_archive(root, top_dir=names.workspace_dir(index), include_git=True)
    context = context_for_instance(instance, host=HOST, env_allowlist=frozenset(ALLOWLIST))
    extras = AuditTarget(urls=(f"https://forge.local/{names.clone_path(index)}.git",),
                         payload={"session_id": names.session_id(index), "cwd": "/workspace"},
                         environment=sandbox_env())
    report = audit_archive(archive, context, workdir=tmp_path / "out", name=names.archive_name(index),
                           extras=extras)
    assert report.findings == (), report.render()


def test_planted_leaks_in_engine_output_are_caught(tmp_path):
    instance = instance_at(0)
    root = write_workspace(instance, tmp_path / "ws")
    context = context_for_instance(instance, host=HOST)
    gold_path = instance.gold_region.path
    repo = Repo(str(root))
    repo.object_store.add_object(Blob.from_string(instance.gold.files[gold_path].encode()))
    repo.close()
    source = root / instance.source_paths[0]
    source.write_text(source.read_text() + f"# FIXME see {instance.template}\n")
    oracle_path, oracle_text = sorted(instance.oracle_files.items())[0]
    (root / "tests" / "test_extra_rules.py").write_text(oracle_text)
    codes = {(f.check, f.code) for f in run_audit(AuditTarget(root), context).findings}
    assert {("git", "revealing_history"), ("markers", "marker_line"), ("identifiers", "catalogue_term"),
            ("separation", "harness_content")} <= codes


@pytest.mark.parametrize("index", range(len(CASES)))
def test_engine_output_passes_the_intake_gate(index):
    report = intake_report(substrate_for_instance(instance_at(index)))
    assert report.rig_confidence.score == 0, report.rig_confidence.reasons
    assert report.activatable
