"""netbed: a real-kernel-bottleneck test bed and the interop harness (`pip install -e testbed`).

Shared: `proc` (bounded subprocesses, process groups, bounded waits), `topo` (namespaces,
veths, the tbf bottleneck, cleanup), `install` (apt packages and PyPI libtorrent the runs
need), `paths` (the repository and our binary).
The bed: `sampler` (periodic qdisc/counter sampling inside a namespace), `flows` (senders
and receivers as commands), `bittorrent` (real peers as flows), `delayline`, `bed` (one
scenario on a fresh bed), `measure` (rates, queueing delay, Jain index, time until below),
`scenarios` (definitions and assertions), `report` (the table), `bedrun` (`testbed/run.py`),
`sidebyside` (`testbed/sidebyside.py`).
Swarms (`testbed/swarm.py`): `swarm` (N peers behind tbf uplinks in one modem namespace,
the tracker), `swarmstats` (completion times, queues, byte shares, CPU), `svgplot`
(standard-library SVG charts), `swarmrun` (scenarios, runs, the report).
The real peers, run as `python3 -m netbed.X`: `lt_peer` (libtorrent for interop), `lt_bed`
(libtorrent for the bed), `lt_swarm` (libtorrent as a swarm member), `tr_seed`
(Transmission seeder), `qbt_watch` (qBittorrent's peer list). Interop: the `interop`
subpackage (`interop/run_interop.py`).
"""
