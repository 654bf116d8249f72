"""A template made to look staged, registered only while a test runs, and a fake model."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.ir import Module
from challenges.engine.model import registry

STAGED_SLUG = "staged-coercion"
STAGED_TEXT = ("# BUG #1: the flag parser returns truthiness\n"
               "# XXX the oracle harness hooks in here\n"
               "def hook():\n"
               "    return 'fault injector for the oracle harness'\n")


def staged_template_class():
    """A copy of config-coercion that adds marker-laden modules nothing imports."""
    base = registry()["config-coercion"]

    class StagedCoercion(base):
        spec = replace(base.spec, slug=STAGED_SLUG, title="Staged coercion")

        def build(self, ctx):
            blueprint = super().build(ctx)
            for name in ("inject", "fault", "probe"):
                blueprint.modules.append(Module(name, ctx.namer.file(name), STAGED_TEXT, role="util",
                                                feature="coercion"))
            return blueprint

    return StagedCoercion


#: What the fake closed-book model "remembers": path -> text.
RECALLED: dict[str, str] = {}
PROMPTS: list[str] = []


def recalling_model(prompt: str) -> str:
    """A stand-in for a tool-less model call: answers from ``RECALLED`` by the path in the prompt."""
    PROMPTS.append(prompt)
    for path, text in RECALLED.items():
        if f" {path} " in prompt:
            return text
    return "I do not know this file."


def not_a_probe_factory(params):
    return "not a probe"
