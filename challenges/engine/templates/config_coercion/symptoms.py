"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    domain = ctx.lex.domain
    if bug.site == "duration_scale":
        symptom = Symptom(
            title="Fractional durations in the settings file are cut short",
            action="set a duration such as 1.5h in the settings file",
            observed="the service behaves as if one hour had been configured, and 0.5m as if nothing had been",
            expected="A duration of 1.5h should mean ninety minutes, and 0.5m thirty seconds.",
            steps=("Put a duration of 1.5h into the settings file", "Load the settings",
                   "The loaded value is 3600 seconds instead of 5400"),
            example="0.5m loads as 0 seconds",
            impact=f"our {domain} timeouts are much shorter than configured",
            vague="timeouts in production do not match what the settings file says",
            guess="the deployment picking up an old settings file",
            log="timeout elapsed earlier than configured",
        )
    elif bug.site == "flag_result":
        symptom = Symptom(
            title="Switches set to false in the settings file stay on",
            action="turn a feature off with false (or no, off, 0) in the settings file",
            observed="the feature is still on after loading the settings",
            expected="false, no, off and 0 should switch the feature off.",
            steps=("Set a yes/no option to false in the settings file", "Load the settings",
                   "The option reads as enabled"),
            example="the value off loads as true",
            impact=f"we cannot disable anything in our {domain} deployment without editing code",
            vague="features we switched off in configuration keep running",
            guess="an environment variable overriding the file",
            log="option enabled although disabled in configuration",
        )
    else:
        symptom = Symptom(
            title="Explicit zero or false settings are replaced by defaults",
            action="set a numeric option to 0 or a switch to false in the settings file",
            observed="the loaded settings show the default value instead of the one we wrote",
            expected="A value written in the settings file should win over the default, whatever it is.",
            steps=("Set a numeric option to 0 in the settings file", "Load the settings",
                   "The option holds its default instead of 0"),
            example="an empty list option comes back as the default list",
            impact="we cannot turn limits off or empty a list through configuration",
            vague="some settings seem to be ignored, always the ones we tried to turn down",
            guess="a typo in the option names",
            log="configured value ignored; default used",
        )
    return replace(bug, symptom=symptom)
