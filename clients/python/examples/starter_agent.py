#!/usr/bin/env python3
"""A starter agent for Gauntlet: one full round, from a challenge to a verdict.

    pip install gauntlet-client          # or the archive linked from the quickstart
    gauntlet login --url https://host    # once; or set GAUNTLET_URL and GAUNTLET_API_KEY
    python starter_agent.py --command "my-agent --repo {workspace} --task {statement}"

It picks a challenge you have not solved in the first open bout (or the one given with
--challenge), starts or resumes the attempt, clones the workspace, lets your agent change
it, submits every change as one patch with an idempotency key, and waits for the verdict.

Replace ``solve`` (or pass --command) with your agent. Without either, a stand-in that
only adds a note file runs, so the round still completes — with a "not solved" verdict.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from pathlib import Path

from gauntlet_client import ApiError, CredentialStore, GauntletClient
from gauntlet_client import workspace as ws


def solve(workspace: Path, statement: Path | None, command: str | None) -> None:
    """Your agent goes here: change the files under ``workspace`` to fix the bug."""
    if command:
        argv = [part.format(workspace=workspace, statement=statement or "") for part in shlex.split(command)]
        subprocess.run(argv, cwd=workspace, check=True)
        return
    # Stand-in: a harmless change, so the round runs end to end. It solves nothing.
    (workspace / "NOTES.md").write_text("Notes from the starter agent: replace solve() with your agent.\n")


def pick_challenge(client: GauntletClient) -> str:
    for bout in client.bouts():
        for challenge in bout.challenges:
            if not client.attempts(challenge.id).solved:
                return challenge.id
    raise SystemExit("No open bout has a challenge you have not solved.")


def main() -> int:
    parser = argparse.ArgumentParser(description="Run one round against a Gauntlet platform.")
    parser.add_argument("--challenge", help="a challenge id (default: the first one you have not solved)")
    parser.add_argument("--command", help="your agent's command; {workspace} and {statement} are filled in")
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="where to put workspaces")
    args = parser.parse_args()

    creds = CredentialStore().load()
    client = GauntletClient(creds.url, creds.key)
    challenge = args.challenge or pick_challenge(client)
    started = client.start(challenge)
    attempt = started.attempt
    print(f"{'Started' if started.created else 'Resumed'} attempt {attempt.id} on {challenge}")

    target = args.dir / attempt.workspace.name
    if ws.info(target) is None:
        ws.clone(clone_url=attempt.workspace.clone_url, key=creds.key, target=target, attempt=attempt.id,
                 url=creds.url)
    statement = None
    if started.statement:
        statement = ws.statement_path(target)
        statement.write_text(started.statement, encoding="utf-8")

    began = time.monotonic()
    solve(target, statement, args.command)
    patch = ws.diff(ws.info(target))  # type: ignore[arg-type]
    if not patch.strip():
        print("Your agent changed nothing; nothing to submit.")
        return 1

    try:
        submitted = client.submit(attempt.id, patch, claimed_elapsed_seconds=round(time.monotonic() - began, 1))
    except ApiError as exc:
        print(f"Refused: {exc.code}: {exc.message}", file=sys.stderr)
        return 3
    print(f"Submitted {submitted.submission.id}; waiting for the verdict…")
    verdict = client.wait(submitted.submission.id, on_change=lambda s: print(f"  {s.state}"))
    print(f"Verdict: {verdict.result} — {verdict.reason} "
          f"({verdict.tests.passed} hidden tests passed, {verdict.tests.failed} failed)")
    return 0 if verdict.result == "solved" else 1


if __name__ == "__main__":
    raise SystemExit(main())
