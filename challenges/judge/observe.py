"""Running probes in the sandbox and reading what they observed (the host side of the channel).

``observe`` starts the language's probe driver in the sandbox on a prepared tree (the probe
files already written where the hidden tests go), reads the record channel with a byte cap
and decodes it with ``records.parse_stream``. It returns the events and what the host itself
knows about the run (stopped by the sandbox, channel overflow); it judges nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from challenges.judge.judge import RunStatus
from challenges.judge.kit import ProbeSuite
from challenges.judge.languages import get_language
from challenges.judge.records import Event, parse_stream
from challenges.sandbox.core import default_layout, resolve_mode, run_prepared, validate_workdir
from challenges.sandbox.env import sandbox_env
from challenges.sandbox.layout import DRIVERS_DIR, SANDBOX_RUNNER_DIR, HostLayout
from challenges.sandbox.process import open_channel
from challenges.sandbox.types import Limits, RunResult, SandboxInputError

CHANNEL_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class ObservedRun:
    events: list[Event]
    status: RunStatus
    result: RunResult
    channel_bytes: int


def observe(tree: Path, *, suite: ProbeSuite, limits: Limits | None = None, allow_unsafe: bool = False,
            layout: HostLayout | None = None) -> ObservedRun:
    """Run ``suite``'s probes (already in ``tree``) in the sandbox and decode the channel."""
    language = get_language(suite.language)
    root = validate_workdir(tree)
    layout = layout or default_layout()
    sandboxed = resolve_mode(layout, allow_unsafe)
    interpreter = language.interpreter(layout, sandboxed)
    if not interpreter:
        raise SandboxInputError("language_unavailable", f"no interpreter for {suite.language}", field="language")
    for path in suite.files:
        if not (root / path).is_file():
            raise SandboxInputError("test_paths_invalid", f"probe {path!r} is not in the tree", field="test_paths")
    runner_dir = SANDBOX_RUNNER_DIR if sandboxed else str(DRIVERS_DIR)
    extra_files = {f"{SANDBOX_RUNNER_DIR}/{name}": str(DRIVERS_DIR / name) for name in language.driver_files}
    channel = open_channel(CHANNEL_BYTES)
    try:
        argv = language.argv(runner_dir=runner_dir, interpreter=interpreter, record_fd=channel.write_fd,
                             paths=sorted(suite.files))
        result = run_prepared(argv, workdir=root, limits=limits or Limits(), env=sandbox_env(None), layout=layout,
                              sandboxed=sandboxed, channels=[channel], extra_files=extra_files)
    finally:
        channel.close()
    raw = bytes(channel.data)
    status = RunStatus(timed_out=result.timed_out, killed_reason=result.killed_reason,
                       channel_overflowed=channel.truncated)
    return ObservedRun(parse_stream(raw), status, result, len(raw))
