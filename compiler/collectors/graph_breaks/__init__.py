"""One artifact kind, the graph breaks, from Dynamo's ``dynamo_graph_break_reason`` records: its collector and the modules beside it.

- ``graph_breaks.py``: the collector
- ``graph_breaks_torch.py``: what it reads of torch's internals
"""
