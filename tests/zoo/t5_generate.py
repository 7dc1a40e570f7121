# torch.compile: translate
"""T5 (transformers, random weights, tiny config): encoder-decoder greedy generate() of 3 tokens."""

import torch
from transformers import T5Config, T5ForConditionalGeneration

torch.manual_seed(0)
config = T5Config(
    vocab_size=128,
    d_model=32,
    d_kv=8,
    d_ff=64,
    num_layers=2,
    num_decoder_layers=2,
    num_heads=2,
    decoder_start_token_id=0,
    pad_token_id=0,
    eos_token_id=1,
)
model = T5ForConditionalGeneration(config).eval()


def translate(ids):
    return model.generate(ids, max_new_tokens=3, do_sample=False)


ids = torch.randint(2, 128, (1, 6))
print(translate(ids))
