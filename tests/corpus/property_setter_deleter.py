"""A ``property`` with a setter and a deleter, an inherited one overridden with ``super()``, read, written and
deleted from the top level: the getter runs as the user's function, the setter and deleter as Python runs them."""

import torch


class Box:
    def __init__(self):
        self._value = torch.zeros(2)
        self.events = []

    @property
    def value(self):
        self.events.append("get")
        return self._value + 1

    @value.setter
    def value(self, v):
        self.events.append("set")
        self._value = v * 2

    @value.deleter
    def value(self):
        self.events.append("del")
        self._value = torch.zeros(2)


class LoudBox(Box):
    @property
    def value(self):
        return super().value * 10

    @value.setter
    def value(self, v):
        Box.value.fset(self, v)

    @value.deleter
    def value(self):
        Box.value.fdel(self)


b = LoudBox()
first = b.value
b.value = torch.ones(2)
second = b.value
del b.value
third = Box.value.fget(b)
print(first.tolist(), second.tolist(), third.tolist(), b.events)
