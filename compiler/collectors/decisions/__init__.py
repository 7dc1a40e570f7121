"""One artifact kind, ``--decisions``' artifact: Dynamo's inline / skip decision for each call it met: its collector and the modules beside it.

- ``decisions.py``: the collector
- ``decisions_torch.py``: what it reads of torch's internals
"""
