"""Per run of `beside` (testbed/netbed/simbeside.py): did our flow's 1 s rate rise to 20 %
of the link again after it first fell below it, while the cross flow ran (30-50 s)?

    python3 docs/sidebyside/kin-rule/resumed.py BIN SEEDS RTTS_MS CROSSES > OUT.json

Rows: [cross, base RTT ms, seed, first below 20 % (s after 30 s; null: never),
up to 20 % again (s after 30 s; null: never)]."""
import sys, os, tempfile, json, concurrent.futures as cf
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../testbed"))
from netbed.simbeside import jobs_for, run_sim, SCEN, LINK_BPS
from netbed.simseries import delivered

binary, seeds, rtts = sys.argv[1], int(sys.argv[2]), [float(x) for x in sys.argv[3].split(",")]
crosses = sys.argv[4].split(",")

def one(w):
    label, scen, sets, seed, rtt = w
    with tempfile.TemporaryDirectory() as tmp:
        res = run_sim(binary, os.path.join(SCEN, scen), seed, sets, os.path.join(tmp, "r"))
    wins = delivered(res["cols"], "scavenger").windowed(30, 50, 1.0, 0.1)
    low = next((k for k, (_, r) in enumerate(wins) if r < 0.2 * LINK_BPS), None)
    back = None if low is None else next(
        (s for s, r in wins[low:] if r >= 0.2 * LINK_BPS), None)
    return (label, rtt, seed, None if low is None else wins[low][0] + 1 - 30,
            None if back is None else back - 30)

work = [(l, sc, st, seed, rtt) for rtt in rtts for l, sc, st in jobs_for("beside", rtt, crosses)
        for seed in range(1, seeds + 1)]
with cf.ThreadPoolExecutor(2) as ex:
    rows = list(ex.map(one, work))
json.dump(rows, sys.stdout)
