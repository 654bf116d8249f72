"""Check lexicon files from the command line.

    python -m challenges.engine.lexicons                 # the packaged pool
    python -m challenges.engine.lexicons new-domain.json  # given files only

Prints one line per lexicon (or per problem, with its code and key) and exits
non-zero if anything is invalid. The packaged pool is also checked for
cross-lexicon uniqueness and the minimum pool size.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from .errors import LexiconError
from .loader import DATA_DIR, check_pool, load_lexicon_file, load_lexicons_from


def main(argv: Sequence[str] | None = None) -> int:
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    failures = 0
    if paths:
        for path in paths:
            try:
                lexicon = load_lexicon_file(path)
            except (LexiconError, OSError) as exc:
                failures += 1
                print(f"FAIL {path}: {exc}")
            else:
                print(f"ok   {path}: {lexicon.domain}")
        return 1 if failures else 0
    try:
        pool = load_lexicons_from(DATA_DIR)
        check_pool(pool)
    except LexiconError as exc:
        print(f"FAIL {exc}")
        return 1
    print(f"ok   {len(pool)} lexicons in {DATA_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
