"""One artifact kind, the cache story of every compile (issue 41 item 3): inductor's FX graph cache and AOTAutograd's
cache, hit, miss or bypass, and for a miss what differs from the nearest earlier entry: its collector and the modules
beside it.

- ``caches.py``: the collector (a live run's records);
- ``cache_story.py``: the one reader of torch's cache records, for a live run and a structured trace alike;
- ``caches_torch.py``: AOTAutograd's cache logger, turned to DEBUG for the run, quietly, so its key's components exist.
"""
