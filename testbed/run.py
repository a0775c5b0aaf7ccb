#!/usr/bin/env python3
"""The test bed (testbed/README.md): `netbed.bedrun` of the installed netbed package."""

import sys

from netbed.bedrun import main

if __name__ == "__main__":
    sys.exit(main())
