"""Check 4: synthetic identity only, no host identity, no history that reveals the fix."""

from __future__ import annotations

from challenges.audit import AuditTarget, run_audit
from tests.unit.audit.builders import CONFIG, KOFI, MARA, CommitSpec, RepoSpec, clean_history, write_repo
from tests.unit.audit.conftest import GOLD_REGION, make_context

FORGE = "https://forge.gauntlet.local/repo-8c1d2e3f4a5b6c7d.git"


def audit(root, **context):
    return run_audit(AuditTarget(root), make_context(**context), checks=["git"])


def repo_with(tmp_path, **changes):
    commits = clean_history()
    for index, spec in changes.pop("commits", {}).items():
        commits[index] = spec
    return write_repo(tmp_path / "ws", RepoSpec(commits, **changes))


def test_host_email_in_a_commit_is_caught(tmp_path):
    root = repo_with(tmp_path, commits={2: CommitSpec(clean_history()[2].files, "Release 0.2.0",
                                                      author="Alice Mercer <alice.mercer@corp.example>")})
    codes = sorted((f.code, f.location.split(" ")[0]) for f in audit(root).findings)
    assert ("host_email", "commit") in codes
    assert ("identity_not_synthetic", "commit") in codes


def test_host_user_and_host_name_in_identity_are_caught(tmp_path):
    root = repo_with(tmp_path, commits={1: CommitSpec(clean_history()[1].files, "Work",
                                                      committer="alice <alice@buildhost-7>")})
    findings = [f for f in audit(root).findings if f.code == "host_identity"]
    assert [f.message for f in findings] == ["host name 'alice' in identity", "host name 'buildhost-7' in identity"]
    assert all(f.location.endswith("committer") for f in findings)


def test_identity_outside_the_pool_is_caught_even_if_harmless_looking(tmp_path):
    root = repo_with(tmp_path, commits={0: CommitSpec(clean_history()[0].files, "Initial",
                                                      author="Jane Roe <jane@tidewater.dev>")})
    findings = audit(root).findings
    assert [(f.code, f.location.split(" ")[-1]) for f in findings] == [
        ("identity_not_synthetic", "author"), ("identity_not_synthetic", "committer")]
    assert audit(root, identity_patterns=(r"[A-Z][a-z]+ [A-Z][a-z]+ <[a-z.]+@tidewater\.dev>",)).findings == ()


def test_tagger_identity_is_checked(tmp_path):
    root = repo_with(tmp_path, tags={"v0.2.0": (2, "Release", "Alice Mercer <alice.mercer@gmail.com>")})
    codes = {f.code for f in audit(root).findings}
    assert codes == {"identity_not_synthetic", "host_identity", "real_email"}


def test_real_provider_email_in_a_file_is_caught(clean):
    (clean / "AUTHORS").write_text("Maintainer: someone.real@gmail.com\n")
    assert [(f.code, f.location) for f in audit(clean).findings] == [("real_email", "AUTHORS:1")]


def test_revealing_history_is_caught(tmp_path):
    commits = clean_history()
    fixed = commits[1].files["tidewater/ledger.py"] + GOLD_REGION
    commits[1] = CommitSpec({**commits[1].files, "tidewater/ledger.py": fixed}, "Validate nights")
    root = write_repo(tmp_path / "ws", RepoSpec(commits))
    findings = audit(root).findings
    assert [f.code for f in findings] == ["revealing_history"]
    assert findings[0].location.endswith(":tidewater/ledger.py")


def test_reindented_copy_and_unreachable_blob_are_caught(tmp_path):
    reindented = "\n".join("  " + line.strip() for line in GOLD_REGION.splitlines()) + "\n"
    root = write_repo(tmp_path / "ws", RepoSpec(clean_history(), loose_blobs=("header\n" + reindented,)))
    findings = audit(root).findings
    assert [f.code for f in findings] == ["revealing_history"]
    assert findings[0].location.startswith("object ")


def test_gold_region_in_a_commit_message_is_caught(tmp_path):
    root = repo_with(tmp_path, commits={1: CommitSpec(clean_history()[1].files, "Fix\n\n" + GOLD_REGION)})
    assert [f.code for f in audit(root).findings] == ["revealing_history"]


def test_gold_region_in_the_working_tree_is_caught(clean):
    (clean / "tidewater" / "ledger.py").write_text((clean / "tidewater" / "ledger.py").read_text() + GOLD_REGION)
    assert [f.code for f in audit(clean).findings] == ["gold_region_in_workspace"]


def test_local_identity_layer(tmp_path):
    bare = repo_with(tmp_path / "a")
    assert [f.code for f in audit(bare, require_local_identity=True).findings] == ["local_identity_missing"]
    pinned = repo_with(tmp_path / "b", config=CONFIG + "[user]\n\tname = Kofi Okafor\n\temail = kofi.okafor@tidewater.dev\n")
    assert KOFI in make_context().identity_pool
    assert audit(pinned, require_local_identity=True).findings == ()
    host = repo_with(tmp_path / "c", config=CONFIG + "[user]\n\tname = alice\n\temail = alice.mercer@corp.example\n")
    codes = {f.code for f in audit(host, require_local_identity=True).findings}
    assert {"local_identity_not_synthetic", "host_email"} <= codes


def test_only_the_forge_remote_is_allowed(tmp_path):
    remote = '[remote "origin"]\n\turl = {}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'
    forge = repo_with(tmp_path / "a", config=CONFIG + remote.format(FORGE))
    assert audit(forge, allowed_remotes=(FORGE,)).findings == ()
    upstream = repo_with(tmp_path / "b", config=CONFIG + remote.format("https://github.com/acme/tidewater.git"))
    findings = audit(upstream, allowed_remotes=(FORGE,)).findings
    assert [(f.code, f.location) for f in findings] == [("foreign_remote", ".git/config remote origin")]


def test_corrupt_object_store_is_reported(tmp_path):
    root = repo_with(tmp_path)
    pack = sorted((root / ".git" / "objects" / "pack").glob("*.pack"))[0]
    data = pack.read_bytes()
    pack.write_bytes(data[:200] + bytes(len(data) - 200))
    assert "repository_unreadable" in {f.code for f in audit(root).findings}


def test_synthetic_pool_members_pass(tmp_path):
    root = repo_with(tmp_path, commits={1: CommitSpec(clean_history()[1].files, "Work", author=MARA, committer=KOFI)})
    assert audit(root).findings == ()


def test_reflog_identity_is_checked(clean):
    logs = clean / ".git" / "logs"
    logs.mkdir()
    line = f"{'0' * 40} {'1' * 40} alice <alice.mercer@corp.example> 1700000000 +0100\tcommit: wip\n"
    (logs / "HEAD").write_text(line)
    found = sorted((f.code, f.location) for f in audit(clean).findings)
    assert found == [("host_email", ".git/logs/HEAD:1"), ("host_identity", ".git/logs/HEAD:1"),
                     ("identity_not_synthetic", ".git/logs/HEAD:1")]
