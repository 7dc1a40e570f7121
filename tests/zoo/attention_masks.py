# torch.compile: encode
"""torch.nn.TransformerEncoder with causal and padding masks, and a data-dependent length check."""

import torch
from torch import nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, batch_first=True, dropout=0.0)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).eval()


def encode(x, lengths):
    seq = x.shape[1]
    causal = nn.Transformer.generate_square_subsequent_mask(seq)
    padding = torch.arange(seq)[None, :] >= lengths[:, None]
    out = encoder(x, mask=causal, src_key_padding_mask=padding)
    longest = int(lengths.max().item())
    return out[:, :longest].mean(1)


with torch.no_grad():
    a = encode(torch.randn(3, 8, 32), torch.tensor([8, 5, 2]))
    b = encode(torch.randn(3, 8, 32), torch.tensor([6, 6, 1]))
print(a.shape, b.shape)
