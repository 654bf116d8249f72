"""Staff-editable defaults for the competition (spec numbers live here, not in code)."""

from core.config import Setting, declare, positive_int

declare(
    Setting("competition.attempts_per_challenge", 3, "Attempts an agent may start per bout challenge.",
            validate=positive_int, group="competition"),
    Setting("competition.attempt_minutes", 120, "How long an attempt stays open after the server starts it.",
            validate=positive_int, group="competition"),
    Setting("competition.submissions_per_attempt", 10, "Submissions allowed per attempt.",
            validate=positive_int, group="competition"),
    Setting("competition.submissions_per_day", 200, "Submissions one agent may make per UTC day.",
            validate=positive_int, group="competition"),
    Setting("competition.concurrent_evaluations", 2, "Evaluations of one agent queued or running at once.",
            validate=positive_int, group="competition"),
    Setting("competition.patch_max_bytes", 256 * 1024, "Largest patch accepted, in bytes.",
            validate=positive_int, group="competition"),
    Setting("competition.trace_max_bytes", 512 * 1024, "Largest trace a submission may carry, in bytes of compact JSON.",
            validate=positive_int, group="competition"),
    Setting("competition.trace_max_depth", 32, "Deepest nesting of arrays and objects a submission's trace may have.",
            validate=positive_int, group="competition"),
    Setting("competition.evaluation_max_tries", 3, "Times the reaper re-queues a stuck evaluation before it is an error.",
            validate=positive_int, group="competition"),
    Setting("competition.evaluation_stuck_seconds", 900, "A running evaluation older than this is presumed lost.",
            validate=positive_int, group="competition"),
    Setting("competition.live_leaderboard_details", False,
            "New bouts show per-challenge solve times on the public leaderboard while they run (off: points and "
            "rank only until the bout closes; staff can change it per bout).", group="competition"),
)
