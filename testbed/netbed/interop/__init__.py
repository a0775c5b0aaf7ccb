"""Interop: BitTorrent over uTP between `ledbat torrent` and libtorrent, Transmission and
qBittorrent (`python3 -m netbed.interop.cli`, or `interop/run_interop.py`).

Modules: `cli` (arguments, the run, the table), `harness` (networks and one case),
`peers` (ours, libtorrent, Transmission), `qbt` (qBittorrent), `capture` (tshark and
what it proves).
"""
