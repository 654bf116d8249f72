"""A command table for operator consoles and scripts.

A line such as ``reindex orders batch=500 --dry-run`` is split into a command
name, positional words, ``key=value`` options and ``--flags``.  Commands may
have aliases; an unknown name gets "did you mean" suggestions.  Handlers return
the text to print, which keeps them trivial to test.
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

Handler = Callable[["Invocation"], str]


@dataclass(frozen=True)
class Invocation:
    command: str
    words: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()

    def option(self, name: str, default: str | None = None, cast: Callable[[str], object] = str) -> object:
        if name not in self.options:
            return default
        try:
            return cast(self.options[name])
        except ValueError:
            raise ValueError(f"option {name}={self.options[name]!r} is not valid") from None


@dataclass(frozen=True)
class _Command:
    name: str
    handler: Handler
    summary: str
    aliases: tuple[str, ...]


def parse_line(line: str) -> Invocation:
    """Split one command line (shell quoting rules) into an ``Invocation``."""
    parts = shlex.split(line)
    if not parts:
        raise ValueError("empty command")
    words, options, flags = [], {}, set()
    for part in parts[1:]:
        if part.startswith("--") and len(part) > 2:
            flags.add(part[2:])
        elif "=" in part and not part.startswith("="):
            key, value = part.split("=", 1)
            options[key] = value
        else:
            words.append(part)
    return Invocation(parts[0], tuple(words), options, frozenset(flags))


class CommandTable:
    """Named commands and their aliases."""

    def __init__(self, suggest: bool = True, max_suggestions: int = 3) -> None:
        self.suggest = suggest
        self.max_suggestions = max_suggestions
        self._commands: dict[str, _Command] = {}
        self._names: dict[str, str] = {}

    def add(self, name: str, handler: Handler, summary: str = "", aliases: tuple[str, ...] = ()) -> None:
        for key in (name, *aliases):
            if key in self._names:
                raise ValueError(f"{key!r} is already taken by {self._names[key]!r}")
        self._commands[name] = _Command(name, handler, summary, aliases)
        for key in (name, *aliases):
            self._names[key] = name

    def command(self, name: str, summary: str = "", aliases: tuple[str, ...] = ()) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self.add(name, handler, summary, aliases)
            return handler

        return register

    def resolve(self, name: str) -> str:
        if name in self._names:
            return self._names[name]
        message = f"unknown command {name!r}"
        if self.suggest:
            close = difflib.get_close_matches(name, list(self._names), n=self.max_suggestions, cutoff=0.6)
            if close:
                message += "; did you mean " + " or ".join(repr(c) for c in close) + "?"
        raise LookupError(message)

    def execute(self, line: str) -> str:
        invocation = parse_line(line)
        name = self.resolve(invocation.command)
        return self._commands[name].handler(
            Invocation(name, invocation.words, invocation.options, invocation.flags))

    def help(self) -> str:
        rows = []
        for name in sorted(self._commands):
            command = self._commands[name]
            also = f" (also: {', '.join(command.aliases)})" if command.aliases else ""
            rows.append(f"{name:<16}{command.summary}{also}".rstrip())
        return "\n".join(rows)


def command_table_from_settings(settings: Mapping[str, object]) -> CommandTable:
    """A command table configured from the ``cli`` section of ``settings``."""
    section = settings.get("cli", {}) or {}
    return CommandTable(suggest=bool(section.get("suggest", True)),
                        max_suggestions=int(section.get("max_suggestions", 3)))
