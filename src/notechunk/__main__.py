"""`python -m notechunk` runs the CLI."""

from notechunk.cli import main

raise SystemExit(main())
