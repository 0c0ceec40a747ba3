"""Shared parts of the benchmark scripts in ``bench/`` (run as ``python bench/<script>.py``, which
puts ``bench/`` on the import path, so scripts import ``lib.<module>``).

- ``datasets``: the shared data beside the repository (``../shared/bench``): the one LoCoMo
  loader, the retrieval_ja set, memory-style texts;
- ``metrics``: LoCoMo context-budget scoring, rank metrics, a BM25 baseline, timing statistics;
- ``harness``: an Omoide to measure — ``omoide serve`` on a free port with a temporary data
  folder and an HTTP client that calls the API as a client does, or an in-process app;
- ``reports``: the markdown table helper, result files, machine facts, logging;
- ``cli``: the argument parser every script starts from;
- ``synthetic``: a deterministic synthetic memory corpus for the latency benchmarks.
"""
