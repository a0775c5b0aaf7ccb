#!/usr/bin/env python3
"""Interop with real peers (interop/README.md): `netbed.interop.cli` of the netbed package
(`python3 -m pip install -e ./testbed` first)."""

import sys

from netbed.interop.cli import main

if __name__ == "__main__":
    sys.exit(main())
