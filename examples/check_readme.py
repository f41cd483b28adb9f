#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Every README code block introduced by "<!-- copied from examples/PATH -->" must be a verbatim,
# contiguous part of that file, so the README's snippets compile as the examples do.
#   check_readme.py SOURCE_DIR
import os
import re
import sys

root = sys.argv[1]
readme = open(os.path.join(root, "README.md")).read()
blocks = re.findall(r"<!-- copied from (examples/[\w./]+) -->\n```[\w+]*\n(.*?)```", readme, re.S)
if not blocks:
    sys.exit("README.md has no block marked <!-- copied from examples/... -->")
for path, body in blocks:
    if body not in open(os.path.join(root, path)).read():
        sys.exit("README.md: the block copied from %s differs from the file; copy it again" % path)
print("README.md: %d blocks match their examples" % len(blocks))
