"""Checks that a wasm binary's futex instructions come from wsync's own code.

Usage: check_wasm_futex.py WASM_DIS FILE.wasm

wasm-dis prints one `(func $name ...)` per function; the binary is linked with
--profiling-funcs so the names survive. Passes when some function whose name
mentions wsync contains memory.atomic.wait32 and some contains
memory.atomic.notify, and prints every function that holds either.
"""
import re
import subprocess
import sys

wasm_dis, wasm = sys.argv[1], sys.argv[2]
text = subprocess.run([wasm_dis, wasm], check=True, capture_output=True, text=True).stdout

holders = {"memory.atomic.wait32": set(), "memory.atomic.notify": set()}
current = None
for line in text.splitlines():
    match = re.match(r"\s*\(func \$(\S+)", line)
    if match:
        current = match.group(1)
        continue
    for instruction, names in holders.items():
        if instruction in line and current:
            names.add(current)

ok = True
for instruction, names in holders.items():
    ours = sorted(n for n in names if "wsync" in n)
    print(f"{instruction}: {len(names)} functions, from wsync: {', '.join(ours) or 'none'}")
    ok = ok and bool(ours)
sys.exit(0 if ok else 1)
