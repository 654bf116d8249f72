"""A command-line entry point built on ``argparse`` subcommands.

Commands register with ``@router.command(...)`` and declare their arguments as
``(flags, options)`` pairs passed straight to ``add_argument``.  ``run(argv)``
returns a process exit status instead of exiting, so it can be called from
tests and from other code; output goes to the streams the router was given.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

Handler = Callable[[argparse.Namespace, TextIO], int | None]


class CommandError(Exception):
    """Raised by a command for an expected failure: printed without a traceback, exit status 1."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, stderr: TextIO, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._stderr = stderr

    def _print_message(self, message: str, file: Any = None) -> None:
        if message:
            (self._stderr if file is sys.stderr or file is None else file).write(message)

    def exit(self, status: int = 0, message: str | None = None) -> Any:
        if message:
            self._stderr.write(message)
        raise SystemExit(status)


class CommandRouter:
    """Subcommands, their arguments and their handlers."""

    def __init__(self, program: str = "app", description: str = "", stdout: TextIO | None = None,
                 stderr: TextIO | None = None) -> None:
        self.program = program
        self.description = description
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self._commands: dict[str, tuple[str, tuple[tuple[tuple[str, ...], dict[str, Any]], ...], Handler]] = {}

    def command(self, name: str, help: str = "",
                arguments: Sequence[tuple[tuple[str, ...], dict[str, Any]]] = ()) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            if name in self._commands:
                raise ValueError(f"command {name!r} is already registered")
            self._commands[name] = (help, tuple(arguments), handler)
            return handler

        return register

    def parser(self) -> argparse.ArgumentParser:
        parser = _Parser(prog=self.program, description=self.description, stderr=self.stderr)
        parser.print_help = lambda file=None: parser._print_message(parser.format_help(), self.stdout)
        subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
        subparsers.required = True
        for name in sorted(self._commands):
            help_text, arguments, _ = self._commands[name]
            sub = subparsers.add_parser(name, help=help_text, description=help_text, stderr=self.stderr)
            for flags, options in arguments:
                sub.add_argument(*flags, **options)
        return parser

    def run(self, argv: Sequence[str] | None = None) -> int:
        """Parse ``argv`` and run the command; returns the exit status."""
        try:
            args = self.parser().parse_args(list(sys.argv[1:] if argv is None else argv))
        except SystemExit as exc:
            return int(exc.code or 0)
        _, _, handler = self._commands[args.command]
        try:
            status = handler(args, self.stdout)
        except CommandError as exc:
            self.stderr.write(f"{self.program} {args.command}: {exc}\n")
            return 1
        return int(status or 0)

    def names(self) -> list[str]:
        return sorted(self._commands)


def cli_from_settings(settings: Mapping[str, object]) -> CommandRouter:
    """A router named and described by the ``cli`` section of ``settings``."""
    section = settings.get("cli", {}) or {}
    return CommandRouter(program=str(section.get("program", "app")),
                         description=str(section.get("description", "Operational commands")))
