"""One artifact kind, inductor's generated code, its kernels and the FX nodes each computes: its collector and the modules beside it.

- ``output_code.py``: the collector
- ``output_code_torch.py``: what it reads of torch's internals
"""
