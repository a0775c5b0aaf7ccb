"""netbed: a real-kernel-bottleneck test bed (namespaces, tbf, samplers, scenarios).

Modules: `topo` (namespaces, veths, the tbf bottleneck, cleanup, tool install), `proc`
(bounded subprocesses), `sampler` (periodic qdisc/counter sampling inside a namespace),
`flows` (senders and receivers as commands), `bed` (one scenario on a fresh bed),
`measure` (rates, queueing delay, Jain index, time until below), `scenarios` (definitions
and assertions), `report` (the table).
"""
