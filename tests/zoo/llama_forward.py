# torch.compile: model
"""Llama (transformers, random weights, tiny config): forward with a padding mask, two batch shapes."""

import torch
from transformers import LlamaConfig, LlamaForCausalLM

torch.manual_seed(0)
config = LlamaConfig(
    hidden_size=32,
    intermediate_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    vocab_size=128,
    max_position_embeddings=64,
)
model = LlamaForCausalLM(config).eval()
with torch.no_grad():
    for seq in (8, 12):
        ids = torch.randint(0, 128, (2, seq))
        mask = torch.ones_like(ids)
        mask[1, :3] = 0
        logits = model(input_ids=ids, attention_mask=mask).logits
print(logits.shape)
