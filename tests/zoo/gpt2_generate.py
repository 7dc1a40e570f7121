# torch.compile: gen
"""GPT-2 (transformers, random weights, tiny config): greedy generate() of 4 tokens."""

import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
config = GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=128, n_positions=64)
model = GPT2LMHeadModel(config).eval()
ids = torch.randint(0, 128, (1, 5))


def gen(ids):
    return model.generate(ids, max_new_tokens=4, do_sample=False, pad_token_id=0)


out = gen(ids)
print(out.shape)
