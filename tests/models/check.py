#!/usr/bin/env python3
"""Model-checks one Promela model with spin (Debian package "spin").

    check.py MODEL.pml ok|violation [-DNAME ...]

Copies the models to a temporary folder, generates the verifier (spin -a,
with the given -D defines: the seeded bugs), compiles it (cc -DSAFETY:
assertions and invalid end states, i.e. lost wakeups and deadlocks), runs
it over the whole state space, and passes if it found no error ("ok") or at
least one ("violation", for a model with a seeded bug: proof that the check
can fail).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile


def main(argv):
    if len(argv) < 3 or argv[2] not in ("ok", "violation"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    model, expect, defines = argv[1], argv[2], argv[3:]
    here = os.path.dirname(os.path.abspath(model))
    with tempfile.TemporaryDirectory(prefix="wsync-spin-") as work:
        for pml in glob.glob(os.path.join(here, "*.pml")):
            shutil.copy(pml, work)
        name = os.path.basename(model)
        subprocess.run(["spin", *defines, "-a", name], cwd=work, check=True, capture_output=True)
        subprocess.run(["cc", "-O2", "-DSAFETY", "-o", "pan", "pan.c"], cwd=work, check=True, capture_output=True)
        run = subprocess.run(["./pan", "-m100000"], cwd=work, capture_output=True, text=True)
        out = run.stdout
    errors = re.search(r"errors: (\d+)", out)
    states = re.search(r"(\d+) states, stored", out)
    if not errors:
        print(out)
        print("check.py: no result from pan", file=sys.stderr)
        return 1
    found = int(errors.group(1))
    what = re.findall(r"pan:1: (.*) \(at depth", out)
    print("%s %s: %s states, errors: %d%s" % (name, " ".join(defines), states.group(1) if states else "?", found,
                                           (" (%s)" % what[0]) if what else ""))
    if "error: max search depth too small" in out:
        print("check.py: the search was cut short", file=sys.stderr)
        return 1
    return 0 if (found == 0) == (expect == "ok") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
