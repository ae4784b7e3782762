"""Design-space exploration: workloads timed over a space of NPUs, into a resumable store (docs/dse.md)."""
