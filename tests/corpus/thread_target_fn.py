"""``threading.Thread`` whose target is the cell's own tensor function; results gathered after ``join``."""

import threading

import torch

torch.manual_seed(2)
results = {}
lock = threading.Lock()


def work(i, x):
    y = (x * i).sin().sum()
    with lock:
        results[i] = y


xs = [torch.randn(8) for _ in range(3)]
threads = [threading.Thread(target=work, args=(i, x)) for i, x in enumerate(xs)]
for t in threads:
    t.start()
for t in threads:
    t.join()
total = sum(results[i] for i in sorted(results))
print("threads done", len(results), round(total.item(), 4))
