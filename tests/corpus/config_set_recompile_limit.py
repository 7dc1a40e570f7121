"""The cell sets ``torch._dynamo.config.recompile_limit = 2`` and then calls a function with more dtypes than that."""

import torch

torch._dynamo.config.recompile_limit = 2


def g(x):
    return x + x


compiled_g = torch.compile(g, backend="eager")
outs = [compiled_g(torch.ones(2, dtype=dt)) for dt in (torch.float32, torch.float64, torch.int32, torch.int64)]
direct = [g(torch.ones(2, dtype=dt)) for dt in (torch.float16, torch.bfloat16, torch.int16)]
limit_seen = torch._dynamo.config.recompile_limit
print(limit_seen, [str(o.dtype) for o in outs + direct], [o.sum().item() for o in outs + direct])
