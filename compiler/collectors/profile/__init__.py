"""One artifact kind, ``--profile``'s artifact: what the run cost, measured by ``torch.profiler``: its collector and the modules beside it.

- ``profile.py``: the collector
- ``profile_analysis.py``: the reading of the profiler's events
- ``profile_report.py``: the report's profile part, built from what was measured
- ``profile_torch.py``: what it reads of torch's internals
"""
