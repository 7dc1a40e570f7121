"""``nn.Module`` forward hooks and pre-hooks registered by the cell, one of them modifying the output; removed afterwards."""

import torch
from torch import nn

torch.manual_seed(5)
seen = []


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x).relu()


def pre_hook(module, args):
    seen.append(("pre", type(module).__name__, tuple(args[0].shape)))


def post_hook(module, args, output):
    seen.append(("post", type(module).__name__, tuple(output.shape)))
    return output + 1


net = Net()
h1 = net.register_forward_pre_hook(pre_hook)
h2 = net.fc.register_forward_hook(post_hook)
with torch.no_grad():
    y = net(torch.randn(2, 4))
h1.remove()
h2.remove()
with torch.no_grad():
    y2 = net(torch.randn(2, 4))
print(len(seen), sorted(set(seen)), y.shape, round(y.sum().item(), 4), round(y2.sum().item(), 4))
