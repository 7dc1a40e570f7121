"""The "Compiling the optimizer" recipe: ``opt.step()`` wrapped in a compiled function, called in a loop."""

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(*[torch.nn.Linear(16, 16) for _ in range(3)])
x = torch.randn(8, 16)
model(x).sum().backward()

opt = torch.optim.Adam(model.parameters(), lr=torch.tensor(0.01))


@torch.compile(fullgraph=False, backend="eager")
def fn():
    opt.step()


for _ in range(3):
    fn()
print(round(float(model[0].weight.sum()), 4))
