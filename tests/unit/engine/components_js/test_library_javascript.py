"""The JavaScript component library: every implementation directory is a complete, runnable
CommonJS module with a well-formed ``component.toml`` and passing ``node:test`` tests."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

LIBRARY = Path(__file__).resolve().parents[4] / "challenges" / "engine" / "components" / "library" / "javascript"
ROLES = {"model", "errors", "config", "util", "storage", "cache", "service", "api", "events"}
REQUIRED = {
    "kind": str,
    "impl": str,
    "summary": str,
    "role": str,
    "stem": list,
    "factory": str,
    "exports": list,
    "topics": list,
    "lines_hint": int,
    "settings": dict,
    "commit": dict,
}
REQUIRE_LINE = re.compile(r"^const \{ [A-Za-z_$][\w$]*(?:, [A-Za-z_$][\w$]*)* \} = require\('\./source'\);$")
NODE = shutil.which("node")
IMPL_DIRS = sorted(p.parent for p in LIBRARY.glob("*/*/component.toml"))


def _ids(dirs: list[Path]) -> list[str]:
    return [f"{d.parent.name}/{d.name}" for d in dirs]


def _meta(impl_dir: Path) -> dict:
    with (impl_dir / "component.toml").open("rb") as fh:
        return tomllib.load(fh)


def _node(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    assert NODE, "node is required to check the JavaScript component library"
    return subprocess.run([NODE, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_library_has_two_implementations_of_each_kind() -> None:
    kinds: dict[str, list[str]] = {}
    for d in IMPL_DIRS:
        kinds.setdefault(d.parent.name, []).append(d.name)
    assert len(kinds) >= 8, kinds
    assert all(len(impls) >= 2 for impls in kinds.values()), kinds


def test_every_directory_is_a_complete_implementation() -> None:
    for kind_dir in LIBRARY.iterdir():
        if not kind_dir.is_dir():
            continue
        for impl_dir in kind_dir.iterdir():
            if impl_dir.is_dir():
                names = {p.name for p in impl_dir.iterdir()}
                assert {"component.toml", "source.js", "source.test.js"} <= names, impl_dir


@pytest.mark.parametrize("impl_dir", IMPL_DIRS, ids=_ids(IMPL_DIRS))
def test_component_toml_is_well_formed(impl_dir: Path) -> None:
    meta = _meta(impl_dir)
    for key, typ in REQUIRED.items():
        assert isinstance(meta.get(key), typ), (key, meta.get(key))
    assert meta["kind"] == impl_dir.parent.name
    assert meta["impl"] == impl_dir.name
    assert meta["role"] in ROLES
    assert meta["factory"] == "fromSettings"
    assert meta["factory"] in meta["exports"]
    assert meta["stem"] and all(re.fullmatch(r"[a-z]+", w) for w in meta["stem"])
    assert meta["topics"] and all(isinstance(t, str) and re.fullmatch(r"[a-z0-9-]+", t) for t in meta["topics"])
    assert meta["summary"].strip() and not meta["summary"].endswith(".")
    assert meta["commit"].get("message", "").strip() and meta["commit"].get("changelog", "").strip()
    assert not meta["commit"]["message"].endswith(".")
    lines = [ln for ln in (impl_dir / "source.js").read_text().splitlines() if ln.strip()]
    assert 120 <= len(lines) <= 340, len(lines)
    if meta["kind"] == "backoff":
        assert set(meta["topics"]) >= {"retry", "retries", "backoff"}


@pytest.mark.parametrize("impl_dir", IMPL_DIRS, ids=_ids(IMPL_DIRS))
def test_settings_keys_are_read_by_the_source(impl_dir: Path) -> None:
    meta = _meta(impl_dir)
    source = (impl_dir / "source.js").read_text()
    assert f"settings.{meta['kind']}" in source or f"settings['{meta['kind']}']" in source
    for key in meta["settings"]:
        assert re.search(rf"\b{re.escape(key)}\b", source), key


@pytest.mark.parametrize("impl_dir", IMPL_DIRS, ids=_ids(IMPL_DIRS))
def test_source_is_self_contained_commonjs(impl_dir: Path) -> None:
    source = (impl_dir / "source.js").read_text()
    assert "module.exports" in source
    assert not re.search(r"\bvar\s", source)
    assert not re.search(r"\b(TODO|FIXME|XXX)\b", source)
    for spec in re.findall(r"require\('([^']+)'\)", source):
        assert spec.startswith("node:"), spec
    assert not re.search(r"^\s*import\s", source, re.M)
    for name in ("source.js", "source.test.js"):
        for number, line in enumerate((impl_dir / name).read_text().splitlines(), 1):
            assert len(line) <= 120 and "\t" not in line and line == line.rstrip(), (name, number)
        assert (impl_dir / name).read_text().endswith("\n") and (impl_dir / name).read_text().startswith(
            "'use strict';"
        )


@pytest.mark.parametrize("impl_dir", IMPL_DIRS, ids=_ids(IMPL_DIRS))
def test_test_file_imports_the_module_in_exactly_one_line(impl_dir: Path) -> None:
    text = (impl_dir / "source.test.js").read_text()
    assert text.count("require('./source')") == 1
    lines = [ln for ln in text.splitlines() if "require('./source')" in ln]
    assert REQUIRE_LINE.match(lines[0]), lines[0]
    imported = re.findall(r"[A-Za-z_$][\w$]*", lines[0].split("=")[0].replace("const", ""))
    assert set(imported) <= set(_meta(impl_dir)["exports"])


@pytest.mark.parametrize("impl_dir", IMPL_DIRS, ids=_ids(IMPL_DIRS))
def test_files_pass_node_check(impl_dir: Path) -> None:
    for name in ("source.js", "source.test.js"):
        proc = _node(["--check", name], impl_dir)
        assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("impl_dir", IMPL_DIRS, ids=_ids(IMPL_DIRS))
def test_node_tests_pass(impl_dir: Path) -> None:
    proc = _node(["--test", "source.test.js"], impl_dir)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", proc.stdout, re.M)
    failed = re.search(r"^# fail (\d+)$", proc.stdout, re.M)
    assert passed and int(passed.group(1)) >= 4, proc.stdout[-2000:]
    assert failed and int(failed.group(1)) == 0


@pytest.mark.parametrize("impl_dir", IMPL_DIRS, ids=_ids(IMPL_DIRS))
def test_exports_and_factory(impl_dir: Path, tmp_path: Path) -> None:
    meta = _meta(impl_dir)
    script = (
        f"const m = require({json.dumps(str(impl_dir / 'source.js'))});"
        f"const names = {json.dumps(meta['exports'])};"
        "const missing = names.filter((n) => m[n] === undefined);"
        f"const made = m[{json.dumps(meta['factory'])}]({{}});"
        "process.stdout.write(JSON.stringify({missing, type: typeof made, isNull: made === null,"
        " extra: Object.keys(m).filter((n) => !names.includes(n))}));"
    )
    # Run from an empty directory: factories that open files with default relative paths
    # must not leave anything inside the library.
    proc = _node(["-e", script], tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["missing"] == []
    assert out["extra"] == []
    assert out["type"] == "object" and not out["isNull"]


JS_KEYWORDS = frozenset(
    "break case catch class const continue default delete do else extends finally for function if in instanceof "
    "let new of return static super switch this throw try typeof void while yield async await null true false "
    "undefined".split()
)


def _erased_lines(impl_dir: Path) -> set[str]:
    """Source lines with identifiers, strings and numbers erased: two implementations that differ
    only in naming produce (almost) the same set."""
    out = set()
    for raw in (impl_dir / "source.js").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("*", "/*", "//")):
            continue
        line = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`(?:[^`\\]|\\.)*`", "S", line)
        line = re.sub(r"\b\d+(?:\.\d+)?\b", "N", line)
        line = re.sub(r"[A-Za-z_$][\w$]*", lambda m: m.group(0) if m.group(0) in JS_KEYWORDS else "I", line)
        if len(line) >= 14:
            out.add(line)
    return out


def test_implementations_of_a_kind_are_different_code() -> None:
    by_kind: dict[str, list[Path]] = {}
    for d in IMPL_DIRS:
        by_kind.setdefault(d.parent.name, []).append(d)
    for kind, dirs in by_kind.items():
        for i, a in enumerate(dirs):
            for b in dirs[i + 1 :]:
                la, lb = _erased_lines(a), _erased_lines(b)
                shared = len(la & lb) / max(1, min(len(la), len(lb)))
                assert shared < 0.4, (kind, a.name, b.name, shared)
                assert set(_meta(a)["exports"]) != set(_meta(b)["exports"]), (kind, a.name, b.name)


def _factory_defaults(source: str) -> dict[str, str]:
    """`own.<key> ?? <literal>` fallbacks in the factory, as JavaScript source text."""
    body = source[source.index("function fromSettings") :]
    out: dict[str, str] = {}
    for match in re.finditer(r"own\.(\w+) \?\? ", body):
        i, depth, quote = match.end(), 0, None
        while i < len(body):
            ch = body[i]
            if quote:
                if ch == "\\":
                    i += 1
                elif ch == quote:
                    quote = None
            elif ch in "'\"`":
                quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}" and depth > 0:
                depth -= 1
            elif ch in ",;)}\n" and depth == 0:
                break
            i += 1
        out.setdefault(match.group(1), body[match.end() : i].strip())
    return out


@pytest.mark.parametrize("impl_dir", IMPL_DIRS, ids=_ids(IMPL_DIRS))
def test_toml_settings_match_the_factory_defaults(impl_dir: Path) -> None:
    meta = _meta(impl_dir)
    literals = {
        key: text
        for key, text in _factory_defaults((impl_dir / "source.js").read_text()).items()
        if key in meta["settings"] and not re.match(r"[A-Z_]", text)
    }
    assert literals or not meta["settings"], "factory reads no settings with defaults"
    script = (
        "process.stdout.write(JSON.stringify({"
        + ",".join(f"{json.dumps(k)}: ({v})" for k, v in literals.items())
        + "}))"
    )
    proc = _node(["-e", script], impl_dir)
    assert proc.returncode == 0, proc.stderr
    code_defaults = json.loads(proc.stdout)
    for key, value in code_defaults.items():
        assert value == meta["settings"][key], (key, value, meta["settings"][key])
