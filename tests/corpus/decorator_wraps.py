"""User decorators: ``functools.wraps``, a decorator factory with arguments, and stacked decorators."""

import functools

import torch

calls = []


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        calls.append(fn.__name__)
        return fn(*args, **kwargs)

    return wrapper


def repeat(times):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(x):
            for _ in range(times):
                x = fn(x)
            return x

        return wrapper

    return deco


@logged
@repeat(3)
def bump(x):
    return x * 1.5 + 0.5


@logged
def shrink(x):
    return x.sqrt()


y = shrink(bump(torch.ones(3)))
print(bump.__name__, bump.__wrapped__.__name__, calls, y.tolist())
