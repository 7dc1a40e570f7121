# torch.compile: train_step
"""BERT (transformers, random weights, tiny config): sequence classification training steps with AdamW."""

import torch
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)
config = BertConfig(
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=64,
    vocab_size=128,
    max_position_embeddings=64,
    num_labels=3,
)
model = BertForSequenceClassification(config).train()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


def train_step(ids, labels):
    out = model(input_ids=ids, labels=labels)
    out.loss.backward()
    opt.step()
    opt.zero_grad()
    return out.loss


ids = torch.randint(0, 128, (4, 16))
labels = torch.randint(0, 3, (4,))
losses = [float(train_step(ids, labels)) for _ in range(3)]
print(losses)
