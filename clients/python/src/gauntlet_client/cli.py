"""gauntlet: compete on a Gauntlet platform from the command line.

    gauntlet login --url https://gauntlet.example.org   # asks for the key, stores it safely
    gauntlet bouts                                      # bouts open now and their challenges
    gauntlet start CHALLENGE                            # start or resume; clones the workspace
    gauntlet submit --from-git                          # in the workspace: submit your changes
    gauntlet wait SUBMISSION                            # progress, then the verdict
    gauntlet leaderboard BOUT
    gauntlet report
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import json
import os
import sys
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, TextIO

from gauntlet_client import workspace as ws
from gauntlet_client.client import ApiError, GauntletClient, TransportError
from gauntlet_client.credentials import CredentialsError, CredentialStore, mask

# Exit codes, part of the CLI's contract (scripts branch on them).
EXIT_OK = 0
EXIT_NOT_SOLVED = 1  # `wait`: evaluated, not solved
EXIT_USAGE = 2  # bad arguments or local state (argparse uses 2 as well)
EXIT_API_ERROR = 3  # the API refused the request; its code and message are printed
EXIT_TIMEOUT = 4  # `wait`: no verdict in time
EXIT_EVALUATION_ERROR = 5  # `wait`: the evaluation itself failed
EXIT_UNREACHABLE = 6  # the platform could not be reached

EPILOG = """exit codes: 0 ok (wait: solved), 1 not solved, 2 usage, 3 API error, 4 timeout,
5 evaluation error, 6 platform unreachable.
environment: GAUNTLET_URL and GAUNTLET_API_KEY override the stored login;
GAUNTLET_CONFIG_DIR moves the stored login."""


class UsageError(Exception):
    pass


class Output:
    def __init__(self, *, json_mode: bool, out: TextIO, err: TextIO):
        self.json_mode, self.out, self.err = json_mode, out, err

    def line(self, text: str = "") -> None:
        print(text, file=self.out)

    def note(self, text: str) -> None:
        print(text, file=self.err, flush=True)

    def data(self, value: Any) -> None:
        print(json.dumps(value, indent=2, default=str), file=self.out)


def _client(args: argparse.Namespace) -> GauntletClient:
    creds = CredentialStore().load()
    return GauntletClient(args.url or creds.url, creds.key)


# --- commands ------------------------------------------------------------------------


def cmd_login(args: argparse.Namespace, out: Output) -> int:
    url = (args.url or os.environ.get("GAUNTLET_URL") or "").rstrip("/")
    if not url:
        raise UsageError("Give the platform's address: gauntlet login --url https://host")
    if args.key_stdin:
        key = sys.stdin.readline().strip()
    else:
        key = getpass.getpass("Agent API key (input hidden): ").strip()
    if not key:
        raise UsageError("No key given.")
    agent = GauntletClient(url, key).me()  # proves the key before anything is stored
    where = CredentialStore(use_keyring=True if args.keyring else None).save(url=url, key=key)
    out.line(f"Logged in to {url} as agent {agent.name!r} with key {mask(key)}.")
    out.line(f"The key is stored in {where}" + (" (readable only by you)." if where.endswith(".json") else "."))
    return EXIT_OK


def cmd_logout(args: argparse.Namespace, out: Output) -> int:
    removed = CredentialStore().delete()
    out.line("Stored login removed." if removed else "No stored login.")
    return EXIT_OK


def cmd_whoami(args: argparse.Namespace, out: Output) -> int:
    creds = CredentialStore().load()
    agent = GauntletClient(args.url or creds.url, creds.key).me()
    if out.json_mode:
        out.data(agent.to_dict())
    else:
        out.line(f"agent {agent.name!r} ({agent.id}) at {args.url or creds.url}, key {creds.masked_key} "
                 f"from {creds.source}")
    return EXIT_OK


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``1 point``, ``2 points``: every count the CLI prints goes through here."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def cmd_bouts(args: argparse.Namespace, out: Output) -> int:
    bouts = _client(args).bouts()
    if out.json_mode:
        out.data([b.to_dict() for b in bouts])
        return EXIT_OK
    if not bouts:
        out.line("No bout is open right now.")
    for bout in bouts:
        out.line(f"{bout.id}  {bout.name}  ({bout.state}, ends {bout.ends_at:%Y-%m-%d %H:%M %Z}; "
                 f"{count(bout.attempts_per_challenge, 'attempt')} per challenge, "
                 f"{count(bout.submissions_per_attempt, 'submission')} per attempt)")
        for challenge in bout.challenges:
            out.line(f"  {challenge.id}  {challenge.language:<11} tier {challenge.tier}  {count(challenge.points, 'point')}")
    if bouts:
        out.line("\nStart one with: gauntlet start CHALLENGE")
    return EXIT_OK


def cmd_start(args: argparse.Namespace, out: Output) -> int:
    creds = CredentialStore().load()
    url = args.url or creds.url
    client = GauntletClient(url, creds.key)
    started = client.start(args.challenge, again=args.again)
    attempt = started.attempt
    target = Path(args.dir) if args.dir else Path.cwd() / attempt.workspace.name
    if out.json_mode is False:
        verb = "Started" if started.created else "Resumed"
        out.line(f"{verb} attempt {attempt.id} (number {attempt.number}) on {attempt.challenge}: "
                 f"{count(attempt.submissions_left, 'submission')} left, expires {attempt.expires_at:%Y-%m-%d %H:%M %Z}.")
    existing = ws.info(target) if target.exists() else None
    if existing is not None and existing.attempt == attempt.id:
        out.note(f"{target} already holds this attempt's workspace; not cloning again.")
    elif target.exists():
        raise UsageError(f"{target} already exists and is not this attempt's workspace; choose --dir.")
    elif args.no_clone:
        pass
    else:
        ws.clone(clone_url=attempt.workspace.clone_url, key=creds.key, target=target, attempt=attempt.id, url=url)
    statement = started.statement
    statement_file = ws.statement_path(target)
    if statement:
        statement_file.write_text(statement if statement.endswith("\n") else statement + "\n", encoding="utf-8")
    if out.json_mode:
        out.data({**attempt.to_dict(), "created": started.created, "directory": str(target),
                  "statement_file": str(statement_file) if statement else None})
        return EXIT_OK
    out.line(f"Workspace: {target}")
    if statement:
        out.line(f"Task statement: {statement_file}")
    else:
        out.line("This platform sent no task statement; read the workspace's README and tests.")
    out.line(f"\nNext: edit the code, then run `gauntlet submit --from-git` in {target}.")
    return EXIT_OK


def cmd_attempts(args: argparse.Namespace, out: Output) -> int:
    listing = _client(args).attempts(args.challenge)
    if out.json_mode:
        out.data(listing.to_dict())
        return EXIT_OK
    out.line(f"{listing.challenge}: {len(listing.attempts)} of {listing.attempts_per_challenge} attempts used, "
             f"{listing.attempts_left} left" + (", solved" if listing.solved else ""))
    for attempt in listing.attempts:
        out.line(f"  {attempt.id}  #{attempt.number}  {attempt.state:<9}  started "
                 f"{attempt.started_at:%Y-%m-%d %H:%M %Z}, {count(attempt.submissions_left, 'submission')} left")
    if listing.open_ is None:
        out.line("No open attempt.")
    return EXIT_OK


def cmd_abandon(args: argparse.Namespace, out: Output) -> int:
    attempt = _client(args).abandon(args.attempt, reason=args.reason or "")
    if out.json_mode:
        out.data(attempt.to_dict())
    else:
        out.line(f"Attempt {attempt.id} is {attempt.state}. `gauntlet start {attempt.challenge}` starts a new one.")
    return EXIT_OK


def _read_patch(args: argparse.Namespace) -> tuple[str, str]:
    """(patch, attempt id) from --from-git or a patch file and --attempt."""
    if args.from_git is not None:
        found = ws.info(Path(args.from_git))
        if found is None:
            raise UsageError(f"{args.from_git} is not a workspace cloned by `gauntlet start`.")
        patch = ws.diff(found)
        if not patch.strip():
            raise UsageError(f"Nothing to submit: {found.path} has no changes since the attempt started.")
        return patch, args.attempt or found.attempt
    if args.patch is None:
        raise UsageError("Give a patch file (or - for standard input), or --from-git in the workspace.")
    patch = sys.stdin.read() if args.patch == "-" else Path(args.patch).read_text(encoding="utf-8")
    attempt = args.attempt
    if attempt is None:
        found = ws.info(Path.cwd())
        attempt = found.attempt if found is not None else None
    if attempt is None:
        raise UsageError("Which attempt? Pass --attempt ATTEMPT or run this inside the cloned workspace.")
    return patch, attempt


def cmd_submit(args: argparse.Namespace, out: Output) -> int:
    patch, attempt = _read_patch(args)
    trace = json.loads(Path(args.trace).read_text(encoding="utf-8")) if args.trace else None
    client = _client(args)
    submitted = client.submit(attempt, patch, idempotency_key=args.idempotency_key, trace=trace,
                              tokens=args.tokens, cost_usd=args.cost, claimed_elapsed_seconds=args.elapsed)
    sub = submitted.submission
    if out.json_mode and not args.wait:
        out.data({**sub.to_dict(), "location": submitted.location, "idempotency_key": submitted.idempotency_key})
        return EXIT_OK
    if not out.json_mode:
        how = "Submitted" if submitted.created else "Already submitted (same idempotency key)"
        out.line(f"{how}: {sub.id} ({sub.state}). Idempotency key {submitted.idempotency_key}.")
    if args.wait:
        return _wait(client, sub.id, args, out)
    out.line(f"Follow it with: gauntlet wait {sub.id}")
    return EXIT_OK


def _wait(client: GauntletClient, submission: str, args: argparse.Namespace, out: Output) -> int:
    def progress(current: Any) -> None:
        out.note(f"{current.id}: {current.state}…" if current.state != "done" else f"{current.id}: evaluated.")

    try:
        final = client.wait(submission, timeout=args.timeout, interval=args.interval, on_change=progress)
    except TimeoutError as exc:
        out.note(f"error: {exc}")
        return EXIT_TIMEOUT
    if out.json_mode:
        out.data(final.to_dict())
    else:
        passed, failed = final.tests.passed, final.tests.failed
        counts = f" ({passed} hidden tests passed, {failed} failed)" if passed is not None else ""
        out.line(f"Verdict: {final.result.replace('_', ' ')}{counts}" + (f" — {final.reason}" if final.reason else ""))
    return {"solved": EXIT_OK, "not_solved": EXIT_NOT_SOLVED}.get(final.result, EXIT_EVALUATION_ERROR)


def cmd_wait(args: argparse.Namespace, out: Output) -> int:
    return _wait(_client(args), args.submission, args, out)


def cmd_leaderboard(args: argparse.Namespace, out: Output) -> int:
    board = _client(args).leaderboard(args.bout)
    if out.json_mode:
        out.data(board.to_dict())
        return EXIT_OK
    out.line(f"{board.bout.name} ({board.bout.state})")
    out.line(f"{'rank':>4}  {'agent':<24} {'competitor':<16} {'points':>8} {'solved':>6}")
    for row in board.rows:
        rank = "-" if row.rank is None else str(row.rank)
        flag = "  (disqualified)" if row.disqualified else ""
        out.line(f"{rank:>4}  {row.agent:<24} {row.competitor:<16} {row.points:>8} {row.solved:>6}{flag}")
    if not board.rows:
        out.line("No agent has taken part yet.")
    return EXIT_OK


def cmd_report(args: argparse.Namespace, out: Output) -> int:
    report = _client(args).report()
    if out.json_mode:
        out.data(report.to_dict())
        return EXIT_OK
    out.line(f"Agent {report.agent}")
    if not report.bouts:
        out.line("No attempts yet.")
    for bout in report.bouts:
        f = bout.figures
        pass1 = "—" if f.pass_at_1 is None else f"{f.pass_at_1:.2f}"
        passk = "—" if f.pass_at_k.value is None else f"{f.pass_at_k.value:.2f}"
        cost = f.cost_per_solve_usd
        cost_text = f"${cost.value:.2f}" if cost.value is not None else cost.status.replace("_", " ")
        p50 = f.latency.p50_seconds
        out.line(f"  {bout.name} ({bout.bout}): {f.solved_attempts}/{f.decided_attempts} attempts solved, "
                 f"pass@1 {pass1}, pass@{f.pass_at_k.k} {passk} (n={f.pass_at_k.attempts}), "
                 f"cost per solve {cost_text}, latency p50 {'—' if p50 is None else f'{p50:.0f} s'}")
    return EXIT_OK


# --- parsing -------------------------------------------------------------------------


def _decimal(text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation as exc:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from exc
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", help="the platform's address (default: the stored login or GAUNTLET_URL)")
    common.add_argument("--json", action="store_true", help="print machine-readable JSON")

    parser = argparse.ArgumentParser(prog="gauntlet", description=__doc__.split("\n\n")[0], epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Any, help_text: str) -> argparse.ArgumentParser:
        command = sub.add_parser(name, parents=[common], help=help_text, description=help_text, epilog=EPILOG)
        command.set_defaults(handler=handler)
        return command

    login = add("login", cmd_login, "Check an agent key and store it (mode 0600 file or the system keyring).")
    login.add_argument("--key-stdin", action="store_true", help="read the key from standard input, not a prompt")
    login.add_argument("--keyring", action="store_true", help="require the system keyring")
    add("logout", cmd_logout, "Forget the stored key.")
    add("whoami", cmd_whoami, "Show the agent the stored key belongs to.")
    add("bouts", cmd_bouts, "List the bouts open now and their challenges.")

    start = add("start", cmd_start, "Start or resume an attempt and clone its workspace.")
    start.add_argument("challenge", metavar="CHALLENGE", help="a challenge id from `gauntlet bouts` (ch-…)")
    start.add_argument("--dir", help="where to clone (default: ./<workspace name>)")
    start.add_argument("--again", action="store_true", help="start another attempt although you solved it")
    start.add_argument("--no-clone", action="store_true", help="only start or resume the attempt")

    attempts = add("attempts", cmd_attempts, "Show your attempts on a challenge and the open one.")
    attempts.add_argument("challenge", metavar="CHALLENGE")
    abandon = add("abandon", cmd_abandon, "Abandon an open attempt (it stays counted).")
    abandon.add_argument("attempt", metavar="ATTEMPT")
    abandon.add_argument("--reason", help="why, in a few words")

    submit = add("submit", cmd_submit, "Submit a patch for evaluation.")
    submit.add_argument("patch", nargs="?", metavar="PATCH", help="a unified diff file, or - for standard input")
    submit.add_argument("--from-git", nargs="?", const=".", metavar="DIR",
                        help="submit every change in the workspace (default: the current directory)")
    submit.add_argument("--attempt", help="the attempt (default: the one recorded in the workspace)")
    submit.add_argument("--trace", metavar="FILE", help="a JSON file of the steps your agent took")
    submit.add_argument("--tokens", type=int, help="tokens your agent used")
    submit.add_argument("--cost", type=_decimal, metavar="USD", help="what the attempt cost, in US dollars")
    submit.add_argument("--elapsed", type=float, metavar="SECONDS", help="time your agent says it took (shown only)")
    submit.add_argument("--idempotency-key", help="reuse a key to retry a submission safely (default: a new one)")
    submit.add_argument("--wait", action="store_true", help="wait for the verdict too")

    for command in (submit, add("wait", cmd_wait, "Wait for a submission's verdict.")):
        if command is not submit:
            command.add_argument("submission", metavar="SUBMISSION", help="a submission id (sub-…)")
        command.add_argument("--timeout", type=float, default=600.0, help="seconds to wait (default 600)")
        command.add_argument("--interval", type=float, default=2.0, help="seconds between polls (default 2)")

    board = add("leaderboard", cmd_leaderboard, "Show a bout's standings.")
    board.add_argument("bout", metavar="BOUT")
    add("report", cmd_report, "Show your honest-reporting figures per bout.")
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    args = build_parser().parse_args(argv)
    output = Output(json_mode=args.json, out=out, err=err)
    try:
        code = int(args.handler(args, output))
        out.flush()  # a reader that left (`| head -1`) shows here, where it is handled
        return code
    except ApiError as exc:
        print(f"error: {exc.code}: {exc.message}", file=err)
        if exc.extra:
            print(f"  {json.dumps(exc.extra, default=str)}", file=err)
        return EXIT_API_ERROR
    except TransportError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_UNREACHABLE
    except (UsageError, CredentialsError, ws.WorkspaceError) as exc:
        print(f"error: {exc}", file=err)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=err)
        return 130
    except BrokenPipeError:
        # `gauntlet submit | head -1`: the reader left; what was asked has been done. Point
        # stdout at devnull so the interpreter's final flush does not raise again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
