#!/usr/bin/env python3
"""What one fuzz target's corpus reaches in the parsers it exercises: called by
`fuzz/run coverage` with the target, llvm-cov, the coverage-instrumented binary, the merged
profile and the repository root. Prints a Markdown section: per source file the functions
reached (of those compiled in), lines and regions covered, then every function never
reached (demangled, generic instances merged)."""

import json
import os
import re
import shutil
import subprocess
import sys

# The source files each target is about (repository-relative prefixes).
FILES = {
    "codec": ["crates/ledbat-utp/src/packet.rs"],
    "connection": ["crates/ledbat-utp/src/conn/", "crates/ledbat-utp/src/recv.rs"],
    "endpoint": ["crates/ledbat-utp/src/endpoint.rs", "crates/ledbat-utp/src/conn/",
                 "crates/ledbat-utp/src/recv.rs", "crates/ledbat-utp/src/packet.rs"],
    "wire": ["crates/ledbat-bt-proto/src/wire.rs", "crates/ledbat-bt-proto/src/bitfield.rs"],
    "ext_handshake": ["crates/ledbat-bt-proto/src/wire.rs", "crates/ledbat-bt-proto/src/bencode.rs"],
    "metainfo": ["crates/ledbat-bt/src/metainfo.rs", "crates/ledbat-bt-proto/src/bencode.rs"],
    "tracker": ["crates/ledbat-bt/src/tracker.rs", "crates/ledbat-bt-proto/src/bencode.rs"],
}


def demangle(names):
    tool = None
    for cand in ("llvm-cxxfilt-" + os.environ.get("LLVM_MAJOR", ""), "llvm-cxxfilt-22",
                 "llvm-cxxfilt", "c++filt"):
        if cand and shutil.which(cand):
            tool = cand
            break
    if tool is None:
        return names
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True).stdout
    return out.splitlines() if out else names


def clean(name):
    # Drop the legacy hash suffix and closures' numbering noise.
    return re.sub(r"::h[0-9a-f]{16}$", "", name)


def main():
    target, llvmcov, binary, profdata, root = sys.argv[1:6]
    root = os.path.realpath(root)
    data = json.loads(subprocess.run(
        [llvmcov, "export", binary, "-instr-profile", profdata, "-format=text"],
        capture_output=True, text=True, check=True).stdout)["data"][0]
    wanted = FILES[target]

    def rel(path):
        p = os.path.realpath(path)
        return os.path.relpath(p, root) if p.startswith(root + os.sep) else None

    def ours(path):
        r = rel(path)
        return r is not None and any(r.startswith(w) for w in wanted)

    files = {}
    for f in data["files"]:
        if ours(f["filename"]):
            s = f["summary"]
            files[rel(f["filename"])] = (s["lines"], s["regions"])
    funcs = {}
    for fn in data["functions"]:
        fs = [rel(x) for x in fn["filenames"] if ours(x)]
        if not fs:
            continue
        key = (fs[0], fn["name"])
        funcs[key] = max(funcs.get(key, 0), fn["count"])
    names = demangle([n for (_, n) in funcs])
    by_file = {}
    for ((f, _), count), name in zip(funcs.items(), names):
        d = by_file.setdefault(f, {})
        n = clean(name)
        d[n] = max(d.get(n, 0), count)
    print(f"### `{target}`\n")
    print("| file | functions reached | lines | regions |")
    print("|---|---|---|---|")
    for f in sorted(files):
        lines, regions = files[f]
        fnd = by_file.get(f, {})
        reached = sum(1 for c in fnd.values() if c > 0)
        print(f"| {f} | {reached}/{len(fnd)} | {lines['covered']}/{lines['count']} "
              f"({lines['percent']:.0f} %) | {regions['covered']}/{regions['count']} "
              f"({regions['percent']:.0f} %) |")
    print()
    never = sorted((f, n) for f, d in by_file.items() for n, c in d.items() if c == 0)
    if never:
        print("Never reached:\n")
        for f, n in never:
            print(f"- `{n}` ({f})")
    else:
        print("Every function compiled in was reached.")
    print()


if __name__ == "__main__":
    main()
