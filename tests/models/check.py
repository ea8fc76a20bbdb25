#!/usr/bin/env python3
"""Model-checks one Promela model with spin (Debian package "spin").

    check.py MODEL.pml ok|violation [--progress] [-DNAME ...]

Copies the models to a temporary folder, generates the verifier (spin -a,
with the given -D defines: the seeded bugs), compiles and runs it over the
whole state space, and passes if it found no error ("ok") or at least one
("violation", for a model with a seeded bug: proof that the check can fail).

Two searches:
  safety (default): cc -DSAFETY; assertions (mutual exclusion, invariants)
      and invalid end states: an agent asleep forever (a lost wakeup) or a
      deadlock.
  --progress: cc -DNP, pan -l -f; cycles in which nobody makes progress,
      under weak fairness (an agent that can always run eventually does).
      Every agent of these models does a finite amount of work, so any
      infinite run is a livelock: an agent that keeps running without ever
      getting anywhere, which the safety search cannot see (it never sleeps).
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
    model, expect, rest = argv[1], argv[2], argv[3:]
    progress = "--progress" in rest
    defines = [a for a in rest if a != "--progress"]
    cc_mode, pan_flags = (["-DNP"], ["-l", "-f"]) if progress else (["-DSAFETY"], [])
    here = os.path.dirname(os.path.abspath(model))
    with tempfile.TemporaryDirectory(prefix="wsync-spin-") as work:
        for pml in glob.glob(os.path.join(here, "*.pml")):
            shutil.copy(pml, work)
        name = os.path.basename(model)
        subprocess.run(["spin", *defines, "-a", name], cwd=work, check=True, capture_output=True)
        subprocess.run(["cc", "-O2", *cc_mode, "-o", "pan", "pan.c"], cwd=work, check=True, capture_output=True)
        run = subprocess.run(["./pan", *pan_flags, "-m100000"], cwd=work, capture_output=True, text=True)
        out = run.stdout
    errors = re.search(r"errors: (\d+)", out)
    states = re.search(r"(\d+) states, stored", out)
    if not errors:
        print(out)
        print("check.py: no result from pan", file=sys.stderr)
        return 1
    found = int(errors.group(1))
    what = re.findall(r"pan:1: (.*) \(at depth", out)
    print("%s %s: %s states, errors: %d%s" % (name, " ".join(rest), states.group(1) if states else "?", found,
                                           (" (%s)" % what[0]) if what else ""))
    if "error: max search depth too small" in out:
        print("check.py: the search was cut short", file=sys.stderr)
        return 1
    if progress and found and not all("non-progress cycle" in w for w in what):
        print("check.py: the progress search found something other than a non-progress cycle", file=sys.stderr)
        return 1
    return 0 if (found == 0) == (expect == "ok") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
