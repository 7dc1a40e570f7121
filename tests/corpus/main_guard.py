"""The ``if __name__ == "__main__": main()`` idiom, with ``__file__`` and ``sys.argv`` read by the script."""

import os
import sys

import torch


def normalize(x):
    return x / x.norm()


def main():
    x = normalize(torch.tensor([3.0, 4.0]))
    print(os.path.basename(__file__), os.path.basename(sys.argv[0]), x.tolist())
    return x


if __name__ == "__main__":
    result = main()
