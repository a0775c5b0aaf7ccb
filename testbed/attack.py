#!/usr/bin/env python3
"""A swarm with attackers in it (docs/attack-swarm.md): `netbed.attackswarm`."""

import sys

from netbed.attackswarm import main

if __name__ == "__main__":
    sys.exit(main())
