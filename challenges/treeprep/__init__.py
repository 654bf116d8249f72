"""Preparing the tree an evaluation runs on, so that nothing the patch says can leave it.

Pure Python and git, no Django. The boundary is built from three mechanisms, each of which
would hold alone against the attacks the others stop:

- git reads the patch (``gitpatch``): the paths, modes and rename/copy sources it reports
  are checked (regular files only, nothing absolute, ``..`` or ``.git``, sources from the
  clean workspace), and git applies it in a private copy with no repository above it;
- the tree is walked after applying (``fsops.walk``): a symbolic link, a hard link or a
  special file anywhere refuses it;
- every later write or removal walks paths from a directory descriptor with
  ``O_NOFOLLOW`` (``fsops``), so even a link that got in could not be followed.

Refusals raise ``TreeRefused`` with a stable code (``errors``).
"""

from challenges.treeprep.errors import CODES, TreeRefused
from challenges.treeprep.gitpatch import PatchEntry, git_env
from challenges.treeprep.prepare import PreparedTree, check_patch_applies, is_test_path, prepare_tree

__all__ = ["CODES", "PatchEntry", "PreparedTree", "TreeRefused", "check_patch_applies", "git_env", "is_test_path",
           "prepare_tree"]
