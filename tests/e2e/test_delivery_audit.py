"""The leak audit on what an agent actually received (issues 5 and 6).

Real instances come out of the generation pipeline (engine, release gates, audit) and are
placed in an open bout; an agent then works only over real HTTP against a live server:
it lists bouts, starts an attempt (the bootstrap payload), downloads the tarball and
clones the workspace with the stock git CLI. Everything it observed — the clone, the
tarball, every URL it used, every response header (git's included, traced from curl), the
JSON payloads — is audited with the same Django-level call staff use
(``leak_audit_path``), and must be clean. Then leaks are planted into copies of what was
received, one class at a time, and the same call must catch each.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
import urllib.request
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from challenges.audit.from_engine import synthetic_identity_pool
from challenges.audit.host import detect_host_identity
from challenges.engine import api as engine
from challenges.models import ChallengeInstance
from challenges.sandbox.env import GIT_IDENTITY_KEYS, SYNTHETIC_GIT_EMAIL, SYNTHETIC_GIT_NAME, sandbox_env
from challenges.services.audit import audit_context, leak_audit_path
from challenges.services.generation import instance_generate, template_sync
from competition.services import agent_create
from competition.services.bouts import bout_create
from core.crypto import unseal

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASES = (("paged-listing-cache", "python"), ("booking-ledger", "javascript"))
_RECV_HEADER = re.compile(r"<= Recv header: ([A-Za-z0-9-]+): (.*)$")
_SEND_LINE = re.compile(r"=> Send header: (GET|POST) (\S+) HTTP/")


def git(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None, check: bool = True):
    base = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
    return subprocess.run(["git", *args], cwd=cwd, env={**base, **(env or {})}, capture_output=True, text=True,
                          check=check, timeout=60)


@dataclass
class Observed:
    """Everything the agent saw on the wire."""

    urls: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    payloads: dict[str, Any] = field(default_factory=dict)

    def record(self, url: str, headers: dict[str, str] | list[tuple[str, str]]) -> None:
        self.urls.append(url)
        number = len(self.urls)
        for name, value in (headers.items() if isinstance(headers, dict) else headers):
            self.headers[f"{name} (response {number})"] = value

    def surfaces(self, allowed_remotes: tuple[str, ...] = (), **override: Any) -> dict[str, Any]:
        return {"urls": list(self.urls), "headers": dict(self.headers), "payload": dict(self.payloads),
                "allowed_remotes": list(allowed_remotes), **override}


class AgentClient:
    def __init__(self, base: str, key: str) -> None:
        self.base, self.key, self.seen = base, key, Observed()

    def request(self, url: str, *, method: str = "GET", body: Any = None) -> tuple[int, dict[str, str], bytes]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self.key}", **({"Content-Type": "application/json"} if data else {})}
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        with urllib.request.urlopen(request, timeout=30) as response:
            raw, status, got = response.read(), response.status, dict(response.headers)
        self.seen.record(url, got)
        return status, got, raw

    def clone(self, url: str, dest: Path) -> None:
        """``git clone`` as a process the platform spawns: the synthetic identity in its environment
        (spec 002 layer two), so git's own reflog entries are synthetic too."""
        identity = {key: sandbox_env()[key] for key in GIT_IDENTITY_KEYS}
        traced = git("-c", f"http.extraHeader=Authorization: Bearer {self.key}", "clone", url, str(dest),
                     env={**identity, "GIT_TRACE_CURL": "1", "GIT_TRACE_CURL_NO_DATA": "1"})
        responses: list[tuple[str, str]] = []
        for line in traced.stderr.splitlines():
            sent = _SEND_LINE.search(line)
            if sent:
                if responses:
                    self.seen.record(self._pending, responses)
                self._pending, responses = url.split("/git/")[0] + sent.group(2), []
                continue
            received = _RECV_HEADER.search(line)
            if received:
                responses.append((received.group(1), received.group(2).strip()))
        if responses:
            self.seen.record(self._pending, responses)
        assert any("/info/refs" in u for u in self.seen.urls) and any("git-upload-pack" in u for u in self.seen.urls)


@pytest.fixture
def delivered(live_server, transactional_db, competitor, tmp_path):
    """Generate the instances, open a bout, and receive each workspace as the agent does."""
    templates = {t.slug: t for t in template_sync(activate=True)}
    instances = {}
    for slug, language in CASES:
        result = instance_generate(template=templates[slug], language=language)
        assert result.instance is not None and result.instance.state == ChallengeInstance.State.RELEASED, result.reason
        instances[language] = result.instance
    now = timezone.now()
    bout_create(name="Spring open", instances=list(instances.values()), starts_at=now - timedelta(minutes=1),
                ends_at=now + timedelta(hours=2), by=None)
    agent = AgentClient(f"{live_server.url}/api/v1", agent_create(owner=competitor, name="auditor").raw_key)

    status, _, raw = agent.request(f"{agent.base}/bouts")
    assert status == 200
    bouts = json.loads(raw)
    agent.seen.payloads["bouts"] = bouts
    received = []
    for challenge in bouts[0]["challenges"]:
        status, _, raw = agent.request(f"{agent.base}/challenges/{challenge['id']}/attempts", method="POST")
        assert status == 201
        bootstrap = json.loads(raw)
        agent.seen.payloads[f"attempt {challenge['id']}"] = bootstrap
        workspace = bootstrap["workspace"]
        status, headers, archive = agent.request(workspace["tarball_url"])
        assert status == 200
        archive_name = re.search(r'filename="([^"]+)"', headers["Content-Disposition"]).group(1)
        tarball = tmp_path / archive_name
        tarball.write_bytes(archive)
        clone = tmp_path / "clones" / workspace["name"]
        agent.clone(workspace["clone_url"], clone)
        received.append({"instance": instances[bootstrap["language"]], "bootstrap": bootstrap, "tarball": tarball, "clone": clone,
                         "archive_name": archive_name, "clone_url": workspace["clone_url"]})
    return agent, received


def _findings(report) -> set[tuple[str, str]]:
    return {(f.check, f.code) for f in report.findings}


def _describe(report) -> str:
    return "\n".join(f"{f.check} {f.code} {f.location}: {f.message}" for f in report.findings)


def test_what_the_agent_received_audits_clean(delivered):
    agent, received = delivered
    assert {r["instance"].language for r in received} == {"python", "javascript"}
    for item in received:
        instance = item["instance"]
        surfaces = agent.seen.surfaces((item["clone_url"],), archive_name=item["archive_name"])
        # A stock clone carries no local config from the server (git has no way to send it), so
        # the fresh clone lacks exactly the layer-one identity, and nothing else...
        fresh = leak_audit_path(instance=instance, path=item["clone"], surfaces=surfaces)
        assert _findings(fresh) == {("git", "local_identity_missing")}, _describe(fresh)
        # ...which the workspace runner pins when it creates the workspace (spec 002 layer one).
        _pin_identity(item["clone"])
        on_clone = leak_audit_path(instance=instance, path=item["clone"], surfaces=surfaces)
        assert on_clone.passed, _describe(on_clone)
        on_tarball = leak_audit_path(instance=instance, path=item["tarball"], surfaces=surfaces)
        assert on_tarball.passed, _describe(on_tarball)

        # The audit saw every surface: API and git responses' headers, the URLs, the bootstrap payload.
        assert "application/x-git-upload-pack-advertisement" in surfaces["headers"].values()
        assert "application/gzip" in surfaces["headers"].values() or any(
            "attachment" in v for v in surfaces["headers"].values())
        assert any(u.endswith("/info/refs?service=git-upload-pack") for u in surfaces["urls"])
        assert item["bootstrap"] in surfaces["payload"].values()

        # Retrieval isolation: the forge is the clone's only remote.
        remotes = git("remote", "-v", cwd=item["clone"]).stdout.split()
        assert set(remotes[1::3]) == {item["clone_url"]} and set(remotes[0::3]) == {"origin"}
        # Every commit identity is synthetic.
        generated = engine.rebuild(unseal(instance.draw_sealed).decode())
        pool = synthetic_identity_pool(generated)
        identities = git("log", "--format=%an <%ae>%n%cn <%ce>", cwd=item["clone"]).stdout.split("\n")
        assert {i for i in identities if i} <= pool and len(identities) > 2
        # The delivered repository pins its maintainer's synthetic identity in its local config (layer one).
        with tarfile.open(item["tarball"]) as tar:
            config = tar.extractfile(f"{item['archive_name'].removesuffix('.tar.gz')}/.git/config").read().decode()
        owner = generated.history.owner
        assert f"name = {owner.name}" in config and f"email = {owner.email}" in config
        assert "[remote" not in config


def _pin_identity(repo: Path) -> None:
    git("config", "user.name", SYNTHETIC_GIT_NAME, cwd=repo)
    git("config", "user.email", SYNTHETIC_GIT_EMAIL, cwd=repo)


def _copy(item: dict[str, Any], tmp_path: Path, label: str) -> Path:
    target = tmp_path / "planted" / label / item["clone"].name
    shutil.copytree(item["clone"], target, symlinks=True)
    return target


def _commit(repo: Path, message: str, *, name: str, email: str) -> None:
    git("add", "-A", cwd=repo)
    identity = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
                "GIT_COMMITTER_EMAIL": email}
    git("commit", "-q", "-m", message, cwd=repo, env=identity)


def _source_file(root: Path, language: str) -> Path:
    suffix = ".py" if language == "python" else ".js"
    return sorted(p for p in root.rglob(f"*{suffix}") if ".git" not in p.parts and "test" not in p.name)[0]


def test_each_planted_leak_in_what_was_received_is_caught(delivered, tmp_path):
    agent, received = delivered
    item = next(r for r in received if r["instance"].language == "python")
    instance = item["instance"]
    _pin_identity(item["clone"])
    assert leak_audit_path(instance=instance, path=item["clone"],
                           surfaces=agent.seen.surfaces((item["clone_url"],))).passed
    context = audit_context(instance=instance)
    slug = instance.template.slug
    synthetic = {"name": SYNTHETIC_GIT_NAME, "email": SYNTHETIC_GIT_EMAIL}
    host = detect_host_identity()
    # The host's own address when it has one (spec 002's leak), else a real mailbox.
    host_email, email_code = (host.emails[0], "host_email") if host.emails else ("someone.real@gmail.com", "real_email")

    def audit(root: Path, **override: Any):
        return leak_audit_path(instance=instance, path=root,
                               surfaces=agent.seen.surfaces((item["clone_url"],), **override))

    planted: dict[str, tuple[set[tuple[str, str]], Any]] = {}

    root = _copy(item, tmp_path, "marker")
    source = _source_file(root, "python")
    source.write_text(source.read_text() + "\n# FIXME: the boundary below is wrong\n")
    planted["marker comment"] = ({("markers", "marker_line")}, audit(root))

    root = _copy(item, tmp_path, "slug-path")
    (root / "docs" / slug).mkdir(parents=True)
    (root / "docs" / slug / "notes.md").write_text("Release notes.\n")
    planted["slug in a path"] = ({("identifiers", "catalogue_term")}, audit(root))

    root = _copy(item, tmp_path, "fact-token")
    (root / "tests" / "fixtures").mkdir(parents=True, exist_ok=True)
    (root / "tests" / "fixtures" / "cases.json").write_text(json.dumps({"note": context.fact_tokens[0].phrase}))
    planted["fact token in a fixture"] = ({("facts", "fact_token")}, audit(root))

    root = _copy(item, tmp_path, "host-email")
    (root / "CONTRIBUTING.md").write_text("Open an issue first.\n")
    _commit(root, "Add contributing notes", name="Someone", email=host_email)
    planted["host email in a commit"] = ({("git", email_code), ("git", "identity_not_synthetic")}, audit(root))

    root = _copy(item, tmp_path, "harness-file")
    hidden_path = context.harness_paths[0]
    oracle_text = next(text for label, text in context.harness_contents.items() if label == f"oracle {hidden_path}")
    (root / hidden_path).parent.mkdir(parents=True, exist_ok=True)
    (root / hidden_path).write_text(oracle_text)
    planted["harness file"] = ({("separation", "harness_path")}, audit(root))

    root = _copy(item, tmp_path, "revealing-history")
    generated = engine.rebuild(unseal(instance.draw_sealed).decode())
    region_path = root / generated.gold_region.path
    shipped = region_path.read_text()
    region_path.write_text(generated.gold.files[generated.gold_region.path])
    _commit(root, "Tidy up", **synthetic)
    region_path.write_text(shipped)
    _commit(root, "Revert tidy up", **synthetic)
    assert region_path.read_text() == shipped  # only the history holds the fix
    planted["revealing history"] = ({("git", "revealing_history")}, audit(root))

    root = item["clone"]
    payload = {**agent.seen.payloads, "hint": f"this challenge comes from {slug}"}
    planted["catalogue term in the payload"] = ({("identifiers", "catalogue_term")}, audit(root, payload=payload))
    headers = {**agent.seen.headers, "X-Challenge-Family": instance.template.family}
    planted["catalogue term in a header"] = ({("identifiers", "catalogue_term")}, audit(root, headers=headers))

    urls = [*agent.seen.urls, f"{item['clone_url']}?from={instance.template.bug_class}"]
    planted["catalogue term in a URL"] = ({("identifiers", "catalogue_term")}, audit(root, urls=urls))

    # A tarball rebuilt from a planted copy is audited like the delivered one.
    root = _copy(item, tmp_path, "tarball")
    (root / f"{slug}.md").write_text("Notes.\n")
    planted_archive = tmp_path / "planted" / item["archive_name"]
    with tarfile.open(planted_archive, "w:gz") as tar:
        tar.add(root, arcname=root.name)
    planted["slug in a delivered archive member"] = ({("identifiers", "catalogue_term")}, audit(planted_archive))

    # The JavaScript workspace: a marker in its own comment syntax.
    js = next(r for r in received if r["instance"].language == "javascript")
    _pin_identity(js["clone"])
    root = _copy(js, tmp_path, "js-marker")
    source = _source_file(root, "javascript")
    source.write_text(source.read_text() + "\n// HACK: skip the check for now\n")
    planted["marker comment (javascript)"] = ({("markers", "marker_line")}, leak_audit_path(
        instance=js["instance"], path=root, surfaces=agent.seen.surfaces((js["clone_url"],))))

    missed = {label: (expected, _findings(report), _describe(report))
              for label, (expected, report) in planted.items() if not expected <= _findings(report)}
    assert not missed, json.dumps(missed, indent=1, default=sorted)
    for label, (_, report) in planted.items():
        assert not report.passed, label
    where = {label: {f.location for f in report.findings} for label, (_, report) in planted.items()}
    assert any("payload" in w for w in where["catalogue term in the payload"]), where
    assert any("X-Challenge-Family" in w for w in where["catalogue term in a header"]), where
    assert any(slug in w for w in where["slug in a path"]), where
