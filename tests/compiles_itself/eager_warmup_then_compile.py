"""A model run eagerly first (a warm-up and a reference), then compiled and compared with the reference."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        return self.fc(x.mean(dim=(2, 3)))


torch.manual_seed(0)
net = Net().eval()
x = torch.randn(2, 3, 8, 8)
with torch.no_grad():
    reference = net(x)
    compiled = torch.compile(net, backend="eager")
    out = compiled(x)
print(torch.allclose(reference, out), tuple(out.shape))
