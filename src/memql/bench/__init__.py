"""Benchmarks and data-set readers (`memql bench ...`)."""
