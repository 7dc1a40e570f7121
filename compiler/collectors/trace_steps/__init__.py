"""One artifact kind, ``--trace-steps``' artifact: Dynamo's symbolic execution of one frame, instruction by instruction: its collector and the modules beside it.

- ``trace_steps.py``: the collector
- ``trace_steps_torch.py``: what it reads of torch's internals
"""
