# torch.compile: step
"""A small ResNet-style convnet (BatchNorm, residual blocks): SGD training steps, then eval."""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(y)))


class Net(nn.Module):
    def __init__(self, ch=8, classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, ch, 3, padding=1)
        self.blocks = nn.Sequential(Block(ch), Block(ch))
        self.head = nn.Linear(ch, classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(x.mean((2, 3)))


torch.manual_seed(0)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)


def step(x, y):
    loss = nn.functional.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


x, y = torch.randn(4, 3, 16, 16), torch.randint(0, 10, (4,))
losses = [step(x, y) for _ in range(3)]
net.eval()
preds = step(x, y)
print(losses, preds)
