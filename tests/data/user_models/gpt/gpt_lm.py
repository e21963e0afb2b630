"""Wraps the GPT from the sibling model.py (imported as a top-level module, so
this file only imports when its own folder is on sys.path)."""
import torch
from torch import nn

from model import GPT, GPTConfig


class GPTLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        config = GPTConfig(
            block_size=32,
            vocab_size=256,
            n_layer=2,
            n_head=2,
            n_embd=64,
            dropout=0.0,
        )
        self.gpt = GPT(config)
        self.config = config

    def forward(self, idx):
        logits, _ = self.gpt(idx)
        return logits

    def get_example_inputs(self):
        return (torch.randint(0, self.config.vocab_size, (1, self.config.block_size), dtype=torch.long),)
