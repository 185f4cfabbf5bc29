"""Benchmarks for the referee (run by hand, not by the test suite): `python -m tools.bench.engine`."""
