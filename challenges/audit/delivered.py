"""Audit what an agent actually receives: a delivered workspace archive.

``audit_archive`` extracts the archive with ``safe_extract`` (a refused archive
is itself a finding, ``separation/archive_refused``, and nothing is extracted),
then audits the extracted workspace together with the archive's name, its top
directory name and its members' ownership metadata, plus any other surfaces
given (URLs, headers, payload, environment).
"""

from __future__ import annotations

import io
import tarfile
from dataclasses import replace
from pathlib import Path

from challenges.audit.archive import ArchiveError, safe_extract
from challenges.audit.findings import AuditReport, Finding, run_audit
from challenges.audit.target import AuditContext, AuditTarget


def audit_archive(
    archive: bytes,
    context: AuditContext,
    *,
    workdir: Path | str,
    name: str | None = None,
    extras: AuditTarget | None = None,
) -> AuditReport:
    """Audit ``archive`` (bytes of a tar.gz) extracted under ``workdir`` (missing or empty)."""
    dest = Path(workdir)
    try:
        members = safe_extract(archive, dest)
    except ArchiveError as exc:
        where = f"archive member {exc.member}" if exc.member else "archive"
        finding = Finding("separation", "archive_refused", f"{exc.code}: {exc.message}", where)
        return AuditReport((finding,), ("separation",))
    tops = sorted({m.split("/", 1)[0] for m in members})
    root = dest / tops[0] if len(tops) == 1 and (dest / tops[0]).is_dir() else dest
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:*") as tar:
        metadata = tuple({"name": m.name, "uname": m.uname, "gname": m.gname, "uid": m.uid, "gid": m.gid}
                         for m in tar.getmembers())
    base = extras or AuditTarget()
    texts = dict(base.texts)
    if root != dest:
        texts["archive top directory"] = root.name
    target = replace(base, root=root, archive_name=name if name is not None else base.archive_name,
                     texts=texts, archive_members=metadata)
    return run_audit(target, context)
