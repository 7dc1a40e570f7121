"""``contextlib.contextmanager``, ``ExitStack``, ``suppress`` and ``redirect_stdout`` around tensor calls."""

import contextlib
import io

import torch

events = []


@contextlib.contextmanager
def tagged(tag):
    events.append(f"+{tag}")
    try:
        yield tag.upper()
    finally:
        events.append(f"-{tag}")


def double(x):
    return x * 2


with contextlib.ExitStack() as stack:
    tags = [stack.enter_context(tagged(t)) for t in ("p", "q")]
    a = double(torch.arange(4.0))
with contextlib.suppress(ZeroDivisionError):
    b = double(a) / 0
    ratio = 1 / 0
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer):
    print("captured", double(torch.ones(2)).tolist())
captured = buffer.getvalue()
print(events, tags, a.tolist(), b.tolist(), captured.strip())
