"""One artifact kind, ``--check-numerics`` (issue 42): why compiled numbers differ from eager, per graph, against
float64: its collector and the modules beside it.

- ``numerics.py``: the collector (a copy of each Dynamo graph, the compiled function wrapped for its first N calls);
- ``compare.py``: one output judged against eager and float64 (torch's own rule);
- ``numerics_torch.py``: what it asks of torch (the graph's copy and float64 twin, random ops, the random state).
"""
