"""One artifact kind, the dispatch view: how a call of each code Dynamo compiled is dispatched: its collector and the modules beside it.

- ``dispatch_view.py``: the collector
- ``dispatch_view_torch.py``: what it reads of torch's internals
"""
