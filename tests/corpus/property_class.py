"""Properties (getter, setter, deleter) and ``__slots__`` on a class that wraps a tensor."""

import torch


class Box:
    __slots__ = ("_data", "history")

    def __init__(self, data):
        self._data = data
        self.history = []

    @property
    def data(self):
        return self._data

    @data.setter
    def data(self, value):
        self.history.append(tuple(value.shape))
        self._data = value

    @data.deleter
    def data(self):
        self._data = torch.zeros(1)

    @property
    def energy(self):
        return (self._data**2).sum()


box = Box(torch.arange(3.0))
e1 = box.energy
box.data = torch.ones(2, 2)
e2 = box.energy
del box.data
e3 = box.energy
print(e1.item(), e2.item(), e3.item(), box.history)
