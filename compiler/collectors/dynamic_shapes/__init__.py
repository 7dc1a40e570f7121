"""One artifact kind, the dynamic-shape symbols, their specialisations and shape guards: its collector and the modules beside it.

- ``dynamic_shapes.py``: the collector
- ``dynamic_shapes_torch.py``: what it reads of torch's internals
"""
