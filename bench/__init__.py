"""Benchmarks (`make bench`): each bench_*.py module has main(); figures are printed, never asserted."""
