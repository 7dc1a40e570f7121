"""Several coroutines run concurrently by ``asyncio.gather`` inside ``asyncio.run``; each calls a tensor function."""

import asyncio

import torch

torch.manual_seed(1)


def blend(a, b):
    return (a * 0.25 + b * 0.75).tanh()


async def worker(i, a, b):
    for _ in range(i):
        await asyncio.sleep(0)
    return i, blend(a, b + i)


async def main(xs):
    pairs = await asyncio.gather(*(worker(i, x, x.flip(0)) for i, x in enumerate(xs)))
    return dict(pairs)


inputs = [torch.randn(4) for _ in range(3)]
outputs = asyncio.run(main(inputs))
for i in sorted(outputs):
    print(i, round(outputs[i].sum().item(), 4))
