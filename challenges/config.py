"""Staff-editable settings of the challenges app (spec numbers as defaults)."""

from core.config import Setting, declare, positive_int

declare(
    Setting("sandbox.cpu_seconds", 10, "CPU seconds one oracle run may use.", validate=positive_int, group="sandbox"),
    Setting("sandbox.wall_seconds", 30, "Wall-clock seconds before an oracle run is killed.",
            validate=positive_int, group="sandbox"),
    Setting("sandbox.memory_mb", 1024, "Memory (data segment) one oracle run may use, in MiB.",
            validate=positive_int, group="sandbox"),
    Setting("sandbox.max_processes", 64, "Processes one oracle run may have at once.",
            validate=positive_int, group="sandbox"),
)
