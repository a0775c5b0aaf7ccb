#!/usr/bin/env python3
"""Seed 001's Fig. 7 on the bed (testbed/README.md): `netbed.pingdelay` of the netbed package."""

import sys

from netbed.pingdelay import main

if __name__ == "__main__":
    sys.exit(main())
