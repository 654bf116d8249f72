"""The command line's own checks, before it talks to any platform."""

import io

from gauntlet_client import cli


def run(*argv, cwd=None, monkeypatch=None):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_login_needs_an_address(monkeypatch, tmp_path):
    monkeypatch.delenv("GAUNTLET_URL", raising=False)
    monkeypatch.setenv("GAUNTLET_CONFIG_DIR", str(tmp_path))
    code, _, err = run("login", "--key-stdin")
    assert code == cli.EXIT_USAGE and "gauntlet login --url" in err


def test_commands_say_how_to_log_in(monkeypatch, tmp_path):
    monkeypatch.delenv("GAUNTLET_API_KEY", raising=False)
    monkeypatch.setenv("GAUNTLET_CONFIG_DIR", str(tmp_path))
    code, _, err = run("bouts")
    assert code == cli.EXIT_USAGE and "run `gauntlet login`" in err


def test_submit_outside_a_workspace_needs_an_attempt(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GAUNTLET_CONFIG_DIR", str(tmp_path))
    (tmp_path / "fix.patch").write_text("--- a/x\n+++ b/x\n")
    code, _, err = run("submit", "fix.patch")
    assert code == cli.EXIT_USAGE and "--attempt" in err


def test_unreachable_platform_exits_6(monkeypatch, tmp_path):
    monkeypatch.setenv("GAUNTLET_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("GAUNTLET_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("GAUNTLET_API_KEY", "gk_00000000_x")
    code, _, err = run("bouts")
    assert code == cli.EXIT_UNREACHABLE and "Could not reach http://127.0.0.1:9" in err


def test_help_documents_exit_codes():
    text = cli.build_parser().format_help()
    assert "exit codes: 0 ok (wait: solved), 1 not solved" in text


def test_counts_agree_with_their_number():
    from gauntlet_client.cli import count

    assert [count(n, "point") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert count(1, "attempt") == "1 attempt" and count(3, "entry", "entries") == "3 entries"


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "GAUNTLET_CONFIG_DIR": str(tmp_path)}
    read, write = os.pipe()
    os.close(read)  # `gauntlet logout | head -0`: nobody reads what the command prints
    done = subprocess.run([sys.executable, "-m", "gauntlet_client", "logout"], stdout=write,
                          stderr=subprocess.PIPE, text=True, env=env, timeout=60)
    os.close(write)
    assert done.returncode == cli.EXIT_OK and "Traceback" not in done.stderr, done.stderr
