# torch.compile: classify
"""ViT (transformers, random weights, tiny config): image classification, softmax over labels."""

import torch
from transformers import ViTConfig, ViTForImageClassification

torch.manual_seed(0)
config = ViTConfig(
    image_size=32,
    patch_size=8,
    num_channels=3,
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=64,
    num_labels=5,
)
model = ViTForImageClassification(config).eval()


@torch.no_grad()
def classify(images):
    logits = model(pixel_values=images).logits
    return logits.softmax(-1).argmax(-1)


images = torch.randn(2, 3, 32, 32)
print(classify(images))
