"""What users never run, kept out of the wheel: the test harness, the PostgreSQL test cluster, the benchmarks."""
