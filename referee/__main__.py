"""`python -m referee …`: the same command line as `referee …`."""

from .server.cli import main

raise SystemExit(main())
