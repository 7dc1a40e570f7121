"""An ``async def main()`` run by ``asyncio.run(main())``; the coroutine awaits a tensor function."""

import asyncio

import torch

torch.manual_seed(0)


def scale(x, k):
    return torch.relu(x) * k + 1


async def step(x, k):
    await asyncio.sleep(0)
    return scale(x, k)


async def main():
    x = torch.randn(6)
    out = await step(x, 2.0)
    out = await step(out, 0.5)
    return out


result = asyncio.run(main())
print("result", [round(v, 4) for v in result.tolist()])
