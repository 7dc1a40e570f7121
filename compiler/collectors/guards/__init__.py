"""One artifact kind, the guards of each cache entry, their tree, and the guards that failed on a recompile: its collector and the modules beside it.

- ``guards.py``: the collector
- ``guard_checks.py``: the guards checked again against the arguments that made a recompile
- ``guard_failures.py``: every guard of an old cache entry that failed, with what it expected and what the call brought
- ``guard_failures_torch.py``: what it reads of torch's guard internals
"""
