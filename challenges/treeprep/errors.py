"""Why a tree could not be prepared: one exception, a stable code per reason."""

from __future__ import annotations

# Stable codes. The ``patch_*`` ones are the agent's doing and are shown to it; the ``tree_*``
# ones mean a tree held something no workspace of ours may hold (a link, a device, ...).
PATCH_EMPTY = "patch_empty"
PATCH_MALFORMED = "patch_malformed"
PATCH_BINARY = "patch_binary"
PATCH_DOES_NOT_APPLY = "patch_does_not_apply"
PATCH_PATH_OUTSIDE = "patch_path_outside"
PATCH_PATH_INVALID = "patch_path_invalid"
PATCH_SYMLINK = "patch_symlink"
PATCH_SUBMODULE = "patch_submodule"
PATCH_MODE_INVALID = "patch_mode_invalid"
PATCH_COPY_SOURCE = "patch_copy_source"
TREE_SYMLINK = "tree_symlink"
TREE_HARDLINK = "tree_hardlink"
TREE_SPECIAL_FILE = "tree_special_file"
TREE_CONFLICT = "tree_conflict"
ORACLE_PATH_INVALID = "oracle_path_invalid"

CODES = frozenset({
    PATCH_EMPTY, PATCH_MALFORMED, PATCH_BINARY, PATCH_DOES_NOT_APPLY, PATCH_PATH_OUTSIDE, PATCH_PATH_INVALID,
    PATCH_SYMLINK, PATCH_SUBMODULE, PATCH_MODE_INVALID, PATCH_COPY_SOURCE, TREE_SYMLINK, TREE_HARDLINK,
    TREE_SPECIAL_FILE, TREE_CONFLICT, ORACLE_PATH_INVALID,
})


class TreeRefused(Exception):
    """The tree was not prepared; nothing outside the private directory was touched."""

    def __init__(self, code: str, message: str, path: str | None = None):
        assert code in CODES, code
        super().__init__(message)
        self.code, self.message, self.path = code, message, path

    def __str__(self) -> str:
        return self.message
