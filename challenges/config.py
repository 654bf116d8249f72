"""Staff-editable settings of the challenges app (spec numbers as defaults)."""

from core.config import Setting, declare, positive_int, unit_interval

declare(
    Setting("sandbox.cpu_seconds", 10, "CPU seconds one oracle run may use.", validate=positive_int, group="sandbox"),
    Setting("sandbox.wall_seconds", 30, "Wall-clock seconds before an oracle run is killed.",
            validate=positive_int, group="sandbox"),
    Setting("sandbox.memory_mb", 1024, "Memory one oracle run may use, in MiB: all its processes and the files "
            "it writes together.", validate=positive_int, group="sandbox"),
    Setting("sandbox.max_processes", 64, "Processes one oracle run may have at once.",
            validate=positive_int, group="sandbox"),
    Setting("sandbox.workspace_mb", 256, "Size of one oracle run's writable workspace, in MiB.",
            validate=positive_int, group="sandbox"),
    Setting("sandbox.cpu_percent", 100, "CPU one oracle run may use at once, in percent of one core.",
            validate=positive_int, group="sandbox"),
)

declare(
    Setting("generation.max_collisions", 5, "Consecutive fingerprint collisions before rotating to another template.",
            validate=positive_int, group="generation"),
    Setting("generation.max_passes", 12, "Pipeline passes per requested instance before giving up.",
            validate=positive_int, group="generation"),
    Setting("generation.mutation_threshold", 0.90, "Share of mutants the oracle must kill (spec 001 calls 0.80 adequate).",
            validate=unit_interval, group="generation"),
    Setting("generation.max_mutants", 60, "Mutants tried per instance in the mutation-adequacy gate.",
            validate=positive_int, group="generation"),
    Setting("generation.gate_workers", 2, "Parallel sandbox runs while gating one instance.",
            validate=positive_int, group="generation"),
    Setting("generation.forgeable_f2p_share", 1.0,
            "Largest share of fail-to-pass tests a constant-guessing forger may pass (0 = none may). Whatever "
            "this is, at least one fail-to-pass test must defeat the forger, or no instance is released.",
            validate=unit_interval, group="generation"),
    Setting("generation.silent_visible_tier", 3,
            "From this tier on no visible test may fail because of the bug (the task statement is the only "
            "symptom); the misleading-test red herring is not drawn there. Red-herring failures unrelated to "
            "the bug stay allowed.", validate=positive_int, group="generation"),
    Setting("generation.hint_tier", 3,
            "From this tier on the hint audit refuses any comment, docstring or README sentence near the "
            "faulty code that restates the rule the bug breaks.", validate=positive_int, group="generation"),
    Setting("generation.hint_window_lines", 12,
            "How many lines around the faulty region the hint audit reads (the module docstring always counts).",
            validate=positive_int, group="generation"),
    Setting("generation.statement_identifier_tier", 4,
            "From this tier on the task statement may not name any identifier of the faulty code.",
            validate=positive_int, group="generation"),
    Setting("generation.statement_ngram", 3,
            "Length of the word runs the task statement may not share with the lines the fix adds.",
            validate=positive_int, group="generation"),
    Setting("generation.max_run_count", 200, "Largest number of instances one generation run may request.",
            validate=positive_int, group="generation"),
)
