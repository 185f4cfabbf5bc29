"""`python -m referee …`: the same command line as `referee …`."""

from .cli import main

raise SystemExit(main())
