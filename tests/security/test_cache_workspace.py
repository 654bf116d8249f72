"""The workspace cache: unpredictable names, read-only entries, verified before every use,
and a download that never comes from it.

The attack this closes: the cache entry was named by the archive's SHA-256 (which an agent
can recompute from its own tarball), a patch's symlink made the worker write the hidden
oracle into it, and the tarball every later agent downloaded was built from it.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import tarfile

import pytest

from challenges.audit.archive import build_archive, rename_top
from challenges.services.delivery import workspace_archive
from challenges.services.oracle import oracle_run
from challenges.services.workspaces import TAMPERED_VERB, sealed_archive, workspace_tree
from core.crypto import unseal
from core.models import AuditEvent
from tests import instance_factory as f
from tests.security.tree_support import snapshot

pytestmark = pytest.mark.django_db
TOP = "ws-0123456789abcdef"
HIDDEN = "test_hidden_calendar.py"


@pytest.fixture
def instance(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"  # a cache of its own: these tests tamper with it
    return f.make_instance()


def _names(archive: bytes) -> list[str]:
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        return tar.getnames()


def _writable(path) -> None:
    for dirpath, _dirs, _files in os.walk(path):
        os.chmod(dirpath, 0o755)


def test_entry_name_is_not_the_archive_digest_and_entries_are_read_only(instance, settings):
    tree = workspace_tree(instance)
    entry = tree.parent
    digest = hashlib.sha256(unseal(instance.workspace_sealed)).hexdigest()
    assert digest == instance.workspace_sha256
    assert digest not in str(entry) and digest[:16] not in entry.name
    assert entry.parent == settings.VAR_DIR / "cache" / "workspaces"
    assert stat.S_IMODE(entry.parent.stat().st_mode) == 0o700
    for dirpath, _dirnames, filenames in os.walk(entry):
        assert stat.S_IMODE(os.stat(dirpath).st_mode) == 0o555, dirpath
        for name in filenames:
            assert stat.S_IMODE(os.lstat(os.path.join(dirpath, name)).st_mode) in (0o444, 0o555)


def test_download_is_the_sealed_archive_renamed_not_the_cache(instance):
    body = workspace_archive(instance=instance, top_dir=TOP)
    assert body == rename_top(sealed_archive(instance), top_dir=TOP)
    # ... and byte for byte what building it from the clean tree gives (the format is unchanged).
    assert body == build_archive(workspace_tree(instance), top_dir=TOP, include_git=True)
    assert all(name == TOP or name.startswith(TOP + "/") for name in _names(body))


def test_planted_symlink_in_an_entry_is_discarded_and_rebuilt(instance, tmp_path):
    tree = workspace_tree(instance)
    download = workspace_archive(instance=instance, top_dir=TOP)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / HIDDEN).write_text("hidden oracle\n")
    _writable(tree.parent)
    os.symlink(outside / HIDDEN, tree / "tests" / HIDDEN)
    before_outside = snapshot(outside)

    rebuilt = workspace_tree(instance)
    assert rebuilt == tree and not (rebuilt / "tests" / HIDDEN).exists() and not os.path.islink(rebuilt / "tests" / HIDDEN)
    assert snapshot(outside) == before_outside  # the link was removed, its target untouched
    event = AuditEvent.objects.get(verb=TAMPERED_VERB)
    assert event.target_id == str(instance.pk) and "link" in event.reason
    assert workspace_archive(instance=instance, top_dir=TOP) == download
    assert HIDDEN not in " ".join(_names(download))


def test_entry_replaced_by_a_link_is_discarded_without_following_it(instance, tmp_path):
    tree = workspace_tree(instance)
    entry = tree.parent
    decoy = tmp_path / "decoy"
    (decoy / "workspace").mkdir(parents=True)
    (decoy / "workspace" / "planted.py").write_text("x\n")
    _writable(entry)
    os.rename(entry, tmp_path / "moved")
    os.symlink(decoy, entry)
    before_decoy = snapshot(decoy)

    assert workspace_tree(instance) == tree
    assert not entry.is_symlink() and (tree / "rooms" / "ledger.py").read_text() == f.LEDGER_BUGGY
    assert snapshot(decoy) == before_decoy
    assert AuditEvent.objects.filter(verb=TAMPERED_VERB).count() == 1


def test_tampered_entry_is_detected_and_evaluations_use_the_sealed_content(instance):
    tree = workspace_tree(instance)
    _writable(tree.parent)
    ledger = tree / "rooms" / "ledger.py"
    os.chmod(ledger, 0o644)
    ledger.write_text(f.LEDGER_FIXED)  # a tampered cache would make the unchanged code "solve"

    outcome = oracle_run(instance=instance, patch=None)
    assert outcome.result == "not_solved", outcome
    assert ledger.read_text() == f.LEDGER_BUGGY
    event = AuditEvent.objects.get(verb=TAMPERED_VERB)
    assert event.after["rebuilt"] is True and event.after["found_digest"]
    # Used again, the rebuilt entry is accepted as it is: no second event.
    workspace_tree(instance)
    assert AuditEvent.objects.filter(verb=TAMPERED_VERB).count() == 1


def test_evaluations_never_write_the_cache(instance):
    tree = workspace_tree(instance)
    before = snapshot(tree.parent)
    cheat = ("diff --git a/tests/test_calendar.py b/tests/test_calendar.py\ndeleted file mode 100644\n"
             "--- a/tests/test_calendar.py\n+++ /dev/null\n@@ -1,8 +0,0 @@\n"
             + "".join(f"-{line}\n" for line in f.VISIBLE_TEST.splitlines())
             + f"diff --git a/tests b/tests\nnew file mode 0120000\n--- /dev/null\n+++ b/tests\n@@ -0,0 +1 @@\n"
               f"+{tree / 'tests'}\n\\ No newline at end of file\n")
    outcome = oracle_run(instance=instance, patch=cheat)
    assert outcome.result == "error" and "symbolic link" in outcome.reason
    assert oracle_run(instance=instance, patch=f.GOLD_PATCH).result == "solved"
    assert snapshot(tree.parent) == before
    assert not AuditEvent.objects.filter(verb=TAMPERED_VERB).exists()
