"""Check 4, git: synthetic identities only, no host identity, no revealing history.

* ``identity_not_synthetic``: a commit author/committer, tag tagger or reflog entry that is
  not in ``AuditContext.identity_pool`` / ``identity_patterns`` (skipped when
  neither is given; the report notes it).
* ``host_identity``: a host user or host name (whole word) in an identity;
  ``host_email``: a host email anywhere; ``real_email``: an address at a real
  mail provider anywhere; ``archive_owner_host``: a delivered archive member
  owned by a host user.
* ``local_identity_missing`` / ``local_identity_not_synthetic``: the
  repository-local ``user.name``/``user.email`` (layer one of spec 002's pinning)
  is absent when required, or not synthetic; ``foreign_remote``: a remote other
  than the platform's forge (retrieval isolation, spec 000).
* ``revealing_history``: a historical blob (any object in the store, reachable
  or not) or commit/tag message containing a gold-fixed region;
  ``gold_region_in_workspace``: the same in a working-tree file.  Regions are
  compared line by line with indentation and blank lines ignored, so a
  re-indented copy still counts.
* ``repository_unreadable``: the store could not be read, so history is unaudited.
"""

from __future__ import annotations

import io
import re

from dulwich.config import ConfigFile

from challenges.audit.findings import Finding
from challenges.audit.surface import Surface
from challenges.audit.target import AuditContext
from challenges.audit.text import words

NAME = "git"
NUMBER = 4

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def region_lines(text: str) -> list[str]:
    return [line.strip() for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


def _joined(lines: list[str]) -> str:
    return "\n" + "\n".join(lines) + "\n"


def _identity_findings(where: str, identity: str, context: AuditContext, check_pool: bool) -> list[Finding]:
    out: list[Finding] = []
    if check_pool and not context.identity_allowed(identity):
        out.append(Finding(NAME, "identity_not_synthetic", f"identity {identity!r} is not from the synthetic pool",
                           where))
    tokens = {w.text for w in words(identity)}
    for host in context.host_names:
        host_words = [w.text for w in words(host)]
        if host_words and (" ".join(host_words) in " ".join(w.text for w in words(identity))
                           if len(host_words) > 1 else host_words[0] in tokens):
            out.append(Finding(NAME, "host_identity", f"host name {host!r} in identity", where))
    return out


def _config_findings(surface: Surface, context: AuditContext, check_pool: bool) -> list[Finding]:
    out: list[Finding] = []
    if surface.git_config is None:
        if context.require_local_identity and surface.has_repo:
            out.append(Finding(NAME, "local_identity_missing", "repository has no local config", ".git/config"))
        return out
    try:
        config = ConfigFile.from_file(io.BytesIO(surface.git_config.encode("utf-8")))
    except (ValueError, KeyError) as exc:
        return [Finding(NAME, "config_unreadable", f".git/config cannot be parsed: {exc}", ".git/config")]

    def get(section: tuple[bytes, ...], key: bytes) -> str | None:
        try:
            return config.get(section, key).decode("utf-8", "replace")
        except KeyError:
            return None

    name, email = get((b"user",), b"name"), get((b"user",), b"email")
    if name is None or email is None:
        if context.require_local_identity:
            out.append(Finding(NAME, "local_identity_missing", "user.name/user.email are not pinned", ".git/config"))
    else:
        identity = f"{name} <{email}>"
        if check_pool and not context.identity_allowed(identity):
            out.append(Finding(NAME, "local_identity_not_synthetic", f"local identity {identity!r} is not synthetic",
                               ".git/config"))
    for section in config.sections():
        if section and section[0] == b"remote":
            url = get(section, b"url")
            label = section[1].decode("utf-8", "replace") if len(section) > 1 else ""
            if url is not None and url not in context.allowed_remotes:
                out.append(Finding(NAME, "foreign_remote", f"remote {label!r} points to {url!r}",
                                   f".git/config remote {label}"))
    return out


def run(surface: Surface, context: AuditContext) -> list[Finding]:
    findings: list[Finding] = []
    for location, message in surface.errors:
        findings.append(Finding(NAME, "repository_unreadable", message, location))
    check_pool = bool(context.identity_pool or context.identity_patterns)
    for commit in surface.commits:
        findings += _identity_findings(f"commit {commit.sha[:12]} author", commit.author, context, check_pool)
        findings += _identity_findings(f"commit {commit.sha[:12]} committer", commit.committer, context, check_pool)
    for sha, tagger in surface.taggers:
        findings += _identity_findings(f"tag {sha[:12]} tagger", tagger, context, check_pool)
    for location, identity in surface.reflog_identities:
        findings += _identity_findings(location, identity, context, check_pool)
    findings += _config_findings(surface, context, check_pool)

    host_emails = [e.lower() for e in context.host_emails if e]
    real = [re.compile(p, re.IGNORECASE) for p in context.real_email_patterns]
    for item in surface.items:
        lowered = item.text.lower()
        for email in host_emails:
            at = lowered.find(email)
            if at != -1:
                findings.append(Finding(NAME, "host_email", f"host email in {item.surface}", item.where(at)))
        if real:
            for match in _EMAIL.finditer(item.text):
                if any(p.fullmatch(match.group()) for p in real):
                    findings.append(Finding(NAME, "real_email", f"real-provider address {match.group()!r} in "
                                            f"{item.surface}", item.where(match.start())))
    host_words = {w.text for host in context.host_names for w in words(host)}
    for member in surface.archive_members:
        owners = {str(member.get("uname", "")).lower(), str(member.get("gname", "")).lower()}
        if owners & host_words:
            findings.append(Finding(NAME, "archive_owner_host", "archive member owned by a host user",
                                    f"archive member {member.get('name', '')}"))

    regions = [region_lines(r) for r in context.gold_regions
               if len(r.strip()) >= context.min_gold_region_chars and region_lines(r)]
    if regions:
        needles = [_joined(lines) for lines in regions]
        for item in surface.by_surface("file", "history-blob", "commit-message", "tag"):
            haystack = _joined(region_lines(item.text))
            if any(needle in haystack for needle in needles):
                code = "gold_region_in_workspace" if item.surface == "file" else "revealing_history"
                findings.append(Finding(NAME, code, f"{item.surface} contains the gold-fixed region", item.location))
    return findings
