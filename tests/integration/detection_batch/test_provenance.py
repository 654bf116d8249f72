"""The provenance index's sources: staff imports, the platform's own content, web backends."""

from __future__ import annotations

import inspect
import json
import shlex
import sysconfig
import textwrap
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from core.models import AuditEvent
from core.services import config_set
from detection import provenance_backends
from detection.models import ProvenanceSource
from detection.services.provenance import (
    patch_added_code,
    provenance_import,
    provenance_lookup,
    provenance_platform_refresh,
)
from tests.instance_factory import make_instance

pytestmark = pytest.mark.django_db
STDLIB = Path(sysconfig.get_paths()["stdlib"])


def _as_patch(path: str, code: str) -> str:
    lines = code.splitlines()
    body = "".join(f"+{line}\n" for line in lines)
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n{body}"


def test_import_command_indexes_stdlib_modules_and_is_idempotent(tmp_path, capsys):
    for module in (textwrap, shlex):
        (tmp_path / Path(module.__file__).name).write_text(Path(module.__file__).read_text())
    (tmp_path / "notes.txt").write_text("not code")
    call_command("provenance_import", str(tmp_path), "--label", "stdlib-part", "--json")
    first = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert first["added"] == 2 and first["fingerprints"] > 200
    assert set(ProvenanceSource.objects.values_list("name", flat=True)) == {"textwrap.py", "shlex.py"}
    assert AuditEvent.objects.filter(verb="provenance.imported").count() == 1
    call_command("provenance_import", str(tmp_path), "--label", "stdlib-part", "--json")
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (again["added"], again["unchanged"]) == (0, 2)
    with pytest.raises(CommandError, match="does not exist"):
        call_command("provenance_import", str(tmp_path / "missing"), "--label", "x")


def test_a_pasted_stdlib_function_is_found_with_its_file_and_lines():
    provenance_import(path=STDLIB / "textwrap.py", label="stdlib", by=None)
    provenance_import(path=STDLIB / "shlex.py", label="stdlib", by=None)
    source, start = inspect.getsourcelines(textwrap.TextWrapper._wrap_chunks)
    pasted = textwrap.dedent("".join(source)).replace("chunks", "pieces").replace("# ", "# note: ")
    found = provenance_lookup(patch=_as_patch("app/wrapping.py", pasted), language="python")
    best = found["matches"][0]
    assert best["source"] == "stdlib:textwrap.py" and best["kind"] == "public"
    assert start <= best["source_lines"][0] <= best["source_lines"][1] <= start + len(source)
    assert best["spans"][0]["patch_lines"][0][0] == "app/wrapping.py"
    independent = "def total(items):\n    result = 0\n    for item in items:\n        result += item.price * item.qty\n" \
                  "    return round(result, 2)\n"
    assert provenance_lookup(patch=_as_patch("app/cart.py", independent), language="python")["matches"] == []


def test_platform_refresh_adds_corpus_fixes_and_gold_fixes_once():
    instance = make_instance()
    from tests import factories

    bout = factories.bout(tiers=())
    bout.challenges.create(instance=instance, handle="cprov00001", position=1)
    added = provenance_platform_refresh()
    assert added["corpus"] > 0 and added["gold"] == 1
    gold = ProvenanceSource.objects.get(kind="gold")
    assert gold.name == str(instance.public_id) and "start_a < end_b" in gold.text
    assert provenance_platform_refresh() == {"corpus": 0, "gold": 0}


def test_added_code_keeps_each_line_s_origin():
    patch = "--- a/x.py\n+++ b/x.py\n@@ -3,2 +3,3 @@\n a = 1\n-b = 2\n+b = 3\n+c = 4\n"
    code, origin = patch_added_code(patch)
    assert code == "b = 3\nc = 4" and origin == [("x.py", 4), ("x.py", 5)]


class _RecordingBackend(provenance_backends.WebSearchBackend):
    name = "recording-test-backend"
    calls: list[tuple[str, str]] = []

    def search(self, snippet, language):
        self.calls.append((snippet, language))
        return [provenance_backends.WebHit("https://example.org/snippet", "A page", snippet[:40], 0.9)]


def test_web_search_is_off_by_default_and_asks_only_the_configured_backend():
    provenance_backends.register(_RecordingBackend)
    patch = _as_patch("a.py", "x = 1\n")
    assert provenance_lookup(patch=patch, language="python")["web"] == {"backend": None, "hits": []}
    assert _RecordingBackend.calls == []
    config_set(key="detection.provenance.web_backend", value="recording-test-backend", by=None, reason="test")
    web = provenance_lookup(patch=patch, language="python")["web"]
    assert web["backend"] == "recording-test-backend" and web["hits"][0]["url"] == "https://example.org/snippet"
    assert _RecordingBackend.calls == [("x = 1", "python")]
    config_set(key="detection.provenance.web_backend", value="nobody", by=None, reason="test")
    assert "no web-search backend" in provenance_lookup(patch=patch, language="python")["web"]["error"]


def test_a_reimported_text_rebuilds_the_index(tmp_path):
    module = tmp_path / "wrap.py"
    source = "".join(inspect.getsourcelines(textwrap.TextWrapper._wrap_chunks)[0])
    module.write_text(textwrap.dedent(source))
    provenance_import(path=tmp_path, label="local", by=None)
    patch = _as_patch("app/w.py", textwrap.dedent(source))
    assert provenance_lookup(patch=patch, language="python")["matches"][0]["source"] == "local:wrap.py"
    module.write_text("def unrelated():\n    return 1\n")
    assert provenance_import(path=tmp_path, label="local", by=None).added == 1
    assert provenance_lookup(patch=patch, language="python")["matches"] == []
