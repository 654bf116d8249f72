"""Audit what an agent receives: a delivered archive, end to end."""

from __future__ import annotations

import io
import tarfile

from challenges.audit import ArchiveOptions, AuditTarget, OpaqueNames, build_archive
from challenges.audit.delivered import audit_archive
from tests.unit.audit.conftest import make_context

NAMES = OpaqueNames(b"0123456789abcdef0123456789abcdef")


def test_clean_delivery_passes(clean, tmp_path):
    top = NAMES.workspace_dir(17)
    archive = build_archive(clean, top_dir=top, include_git=True)
    extras = AuditTarget(urls=(f"https://forge.local/{NAMES.clone_path(17)}.git",),
                         payload={"session_id": NAMES.session_id(5), "cwd": "/workspace", "source": "startup"})
    report = audit_archive(archive, make_context(), workdir=tmp_path / "x", name=NAMES.archive_name(17),
                           extras=extras)
    assert report.findings == (), report.render()


def test_leaks_inside_an_archive_are_found(clean, tmp_path):
    (clean / "NOTES.md").write_text("# FIXME rate limiter window\n")
    archive = build_archive(clean, top_dir="rate-limiter-s0", include_git=True,
                            options=ArchiveOptions(uname="alice", gname="alice"))
    report = audit_archive(archive, make_context(), workdir=tmp_path / "x", name="rate-limiter-s0.tar.gz")
    found = {(f.code, f.location.split(":")[0]) for f in report.findings}
    assert {("marker_line", "NOTES.md"), ("catalogue_term", "NOTES.md"), ("catalogue_term", "archive name"),
            ("catalogue_term", "text archive top directory")} <= found
    assert any(code == "archive_owner_host" for code, _ in found)
    assert not any(loc.startswith("archive member") and code == "catalogue_term" for code, loc in found)


def test_refused_archive_is_a_finding_and_nothing_is_extracted(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("../../escape.txt")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    report = audit_archive(buf.getvalue(), make_context(), workdir=tmp_path / "x")
    assert [(f.code, f.location) for f in report.findings] == [("archive_refused", "archive member ../../escape.txt")]
    assert not (tmp_path / "x").exists()
