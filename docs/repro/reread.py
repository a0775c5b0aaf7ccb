#!/usr/bin/env python3
"""Draw the rows of the coverage map for a fresh line-by-line re-read (docs/repro/reread.md).

Loads every `[[statement]]` of docs/repro/coverage/*.toml (files in name order, rows in file
order), then draws N rows without replacement with `random.Random(SEED).sample`. Rows of every
status are eligible. Prints one line per drawn row (draw order: id, status, claims) and the
status mix of the draw.

    python3 docs/repro/reread.py                 # seed 20261129, 40 rows
    python3 docs/repro/reread.py --seed 7 -n 10
"""
import argparse
import collections
import glob
import os
import random
import sys
import tomllib

SEED = 20261129
N = 40


def rows(root):
    out = []
    for path in sorted(glob.glob(os.path.join(root, "docs/repro/coverage/*.toml"))):
        with open(path, "rb") as f:
            data = tomllib.load(f)
        for st in data.get("statement", []):
            out.append((os.path.basename(path), st))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("-n", type=int, default=N)
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    every = rows(root)
    if args.n > len(every):
        sys.exit(f"reread.py: asked for {args.n} rows, the map has {len(every)}")
    drawn = random.Random(args.seed).sample(every, args.n)
    print(f"# {len(every)} rows in the map; seed {args.seed}; {args.n} drawn")
    for i, (fname, st) in enumerate(drawn, 1):
        claims = ",".join(st.get("claims", []) + st.get("tried", []))
        print(f"{i:2} {st['id']:<22} {st['status']:<8} {fname:<20} {claims}")
    mix = collections.Counter(st["status"] for _, st in drawn)
    print("# status mix: " + ", ".join(f"{k} {mix[k]}" for k in
                                        ("checked", "weak", "missing", "n/a") if mix[k]))


if __name__ == "__main__":
    main()
