#!/usr/bin/env python3
"""Swarms of real clients on the kernel (testbed/README.md): `netbed.swarmrun`."""

import sys

from netbed.swarmrun import main

if __name__ == "__main__":
    sys.exit(main())
