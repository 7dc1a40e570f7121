# torch.compile: loss_and_grads
"""Qwen2 (transformers, random weights, tiny config): causal-LM loss, backward, gradient norm."""

import torch
from transformers import Qwen2Config, Qwen2ForCausalLM

torch.manual_seed(0)
config = Qwen2Config(
    hidden_size=32,
    intermediate_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    vocab_size=128,
    max_position_embeddings=64,
)
model = Qwen2ForCausalLM(config).train()


def loss_and_grads(ids):
    loss = model(input_ids=ids, labels=ids).loss
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    model.zero_grad()
    return loss, norm


ids = torch.randint(0, 128, (2, 10))
print(loss_and_grads(ids))
