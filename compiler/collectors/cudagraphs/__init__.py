"""One artifact kind, CUDA graphs under reduce-overhead: inductor's per-graph decisions, recordings and skips: its collector and the modules beside it.

- ``cudagraphs.py``: the collector
- ``cudagraphs_report.py``: the pure part: each graph's decision and events, summarised
- ``cudagraphs_torch.py``: what it reads of inductor's internals
"""
