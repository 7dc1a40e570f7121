"""Functions created by ``exec`` of a string, values from ``eval``, and a ``compile``d expression, all on tensors."""

import torch

scope = {"torch": torch}
exec("def made(x):\n    return x.pow(3) - x\n", scope)  # noqa: S102 - exec of a string is what this cell exercises
made = scope["made"]
value = eval("made(torch.arange(4.0)).sum()", {"made": made, "torch": torch})
expr = compile("t * 2 + 1", "<expr>", "eval")
evaluated = eval(expr, {"t": torch.ones(2)})
print(made(torch.tensor([2.0])).tolist(), value.item(), evaluated.tolist())
