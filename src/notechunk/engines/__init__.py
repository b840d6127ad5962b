"""Where per-file work runs: `local` (this machine's cores, a process pool)."""
