"""Benchmarks for the referee (run by hand, not by the test suite): `python -m referee.bench.engine`."""
