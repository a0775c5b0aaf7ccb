#!/usr/bin/env python3
"""Replays a `LEDBAT_REPRO_TRACE` file of `ledbat repro --quick seed003` through the
time-left estimate of crates/ledbat-repro/src/progress.rs, with each run's measured time,
on 2 workers taking the runs heaviest first (src/schedule.rs), the swarms re-weighted as
`FACTOR x leechers x file / mss` (quick mode: 40 leechers of 4 MiB for swarm.toml and
swarm-target.toml, 20 for swarm-flashcrowd.toml). Prints the estimate against the real
time left at 15 s, 30 s, 1, 2 and 4 min.

Usage: python3 docs/repro/eta-replay.py TRACE FACTOR
"""
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
factor = float(sys.argv[2])
workers = 2
swarm_packets = {
    "seed003/swarm.toml": 40 * 4194304 / 1500,
    "seed003/swarm-target.toml": 40 * 4194304 / 1500,
    "seed003/swarm-flashcrowd.toml": 20 * 4194304 / 1500,
}


def weight(r):
    f = r[6].split(" ")[0]
    return factor * swarm_packets[f] if f in swarm_packets else float(r[2])


inst = [int(r[1]) for r in rows]
secs = [float(r[3]) for r in rows]
w = [weight(r) for r in rows]
iw = dict(zip(inst, w))
order = sorted(range(len(rows)), key=lambda j: -w[j])
free = [0.0] * workers
slots = []
for j in order:
    k = min(range(workers), key=lambda k: free[k])
    start = free[k]
    free[k] = start + secs[j]
    slots.append((start, free[k], j))
end = max(s[1] for s in slots)
events = sorted([(s[0], 1, s[2]) for s in slots] + [(s[1], 0, s[2]) for s in slots])
state, sim_runs, sim_secs = {}, {}, {}
secs_sim = weight_sim = 0.0


def eta(t):
    if weight_sim <= 0:
        return None
    work = longest = 0.0
    left = 0
    for j in range(len(rows)):
        st = state.get(j)
        if st == "done":
            continue
        i = inst[j]
        exp = sim_secs[i] / sim_runs[i] if sim_runs.get(i) else iw[i] * secs_sim / weight_sim
        rest = exp if st is None else max(exp - (t - st), 0.0)
        work += rest
        longest = max(longest, rest)
        left += 1
    return max(work / min(workers, max(left, 1)), longest)


print(f"swarm factor {factor}: makespan {end:.1f} s, run time {sum(secs):.1f} s")
n = 0
for t in [15, 30, 60, 120, 240]:
    while n < len(events) and events[n][0] <= t:
        tt, kind, j = events[n]
        if kind == 1:
            state[j] = tt
        else:
            state[j] = "done"
            i = inst[j]
            sim_runs[i] = sim_runs.get(i, 0) + 1
            sim_secs[i] = sim_secs.get(i, 0.0) + secs[j]
            secs_sim += secs[j]
            weight_sim += iw[i]
        n += 1
    e = eta(t)
    shown = "estimating" if e is None else f"{e:.1f} s ({e / (end - t):.2f})"
    print(f"at {t} s: estimate {shown}, truth {end - t:.1f} s")
