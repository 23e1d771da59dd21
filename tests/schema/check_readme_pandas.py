#!/usr/bin/python3
"""The README's pandas example runs as printed (issue 18): its ```python block, five lines, is run with Debian's
python3 and python3-pandas in a folder holding session.json (the bundled session) and csv/ (written by
`ridgeline export session.json --csv csv`, as the example's comment says).

Usage: check_readme_pandas.py README.md RIDGELINE_BINARY SESSION.json
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile


def main():
    readme, ridgeline, session = sys.argv[1:4]
    with open(readme, encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    if len(blocks) != 1:
        print("FAIL: the README should hold exactly one ```python block, it holds %d" % len(blocks))
        return 1
    code = blocks[0]
    lines = [line for line in code.splitlines() if line.strip()]
    if len(lines) != 5:
        print("FAIL: the pandas example has %d lines, not five:\n%s" % (len(lines), code))
        return 1
    work = tempfile.mkdtemp(prefix="ridgeline-pandas-")
    try:
        shutil.copy(session, os.path.join(work, "session.json"))
        exported = subprocess.run([ridgeline, "export", "session.json", "--csv", "csv"], cwd=work,
                                  capture_output=True, text=True, check=False)
        if exported.returncode != 0:
            print("FAIL: ridgeline export: " + exported.stderr)
            return 1
        ran = subprocess.run([sys.executable, "-c", code], cwd=work, capture_output=True, text=True, check=False)
        print(ran.stdout)
        if ran.returncode != 0:
            print("FAIL: the README's pandas example failed:\n" + ran.stderr)
            return 1
        for expected in ("sgemm", "GFLOP_per_s", "DRAM"):
            if expected not in ran.stdout:
                print("FAIL: the example's output lacks '%s'" % expected)
                return 1
    finally:
        shutil.rmtree(work)
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
