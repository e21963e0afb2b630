"""A sentence encoder over padded batches: the padding mask is a bool input
(True = padding) passed to nn.TransformerEncoder as src_key_padding_mask.
Sequences start with a [CLS] token (id 1) whose output is the sentence vector.

In eval mode without grad, PyTorch 1.13's TransformerEncoder takes its
nested-tensor fast path and returns a sequence trimmed to the longest
unpadded length, so only position 0 is read from its output."""
import torch
import torch.nn as nn


class PaddingMaskEncoder(nn.Module):
    def __init__(self, vocab_size=500, d_model=64, nhead=4, num_layers=2, max_len=32):
        super().__init__()
        self.vocab_size = vocab_size
        self.max_len = max_len
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, max_len, d_model))
        encoder_layer = nn.TransformerEncoderLayer(d_model=d_model, nhead=nhead, dim_feedforward=128, batch_first=True)
        self.encoder = nn.TransformerEncoder(encoder_layer, num_layers=num_layers)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, tokens, padding_mask):
        x = self.embed(tokens) + self.pos[:, : tokens.size(1)]
        x = self.encoder(x, src_key_padding_mask=padding_mask)
        cls = x[:, 0]
        return torch.tanh(self.out(cls))

    def get_example_inputs(self):
        tokens = torch.randint(2, self.vocab_size, (2, 20))
        lengths = torch.tensor([20, 13])
        padding_mask = torch.arange(20).unsqueeze(0) >= lengths.unsqueeze(1)
        tokens[:, 0] = 1  # [CLS]
        tokens = tokens.masked_fill(padding_mask, 0)
        return tokens, padding_mask
