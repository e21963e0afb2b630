"""Translation-style encoder-decoder on nn.Transformer, with sinusoidal
positional encoding and a causal target mask."""
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=128):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        # x: (seq_len, batch, d_model)
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class TransformerSeq2Seq(nn.Module):
    def __init__(self, src_vocab=300, tgt_vocab=300, d_model=64, nhead=2, num_layers=2, dim_feedforward=128):
        super().__init__()
        self.d_model = d_model
        self.src_vocab = src_vocab
        self.tgt_vocab = tgt_vocab
        self.src_tok_emb = nn.Embedding(src_vocab, d_model)
        self.tgt_tok_emb = nn.Embedding(tgt_vocab, d_model)
        self.positional_encoding = PositionalEncoding(d_model)
        self.transformer = nn.Transformer(
            d_model=d_model,
            nhead=nhead,
            num_encoder_layers=num_layers,
            num_decoder_layers=num_layers,
            dim_feedforward=dim_feedforward,
            dropout=0.1,
        )
        self.generator = nn.Linear(d_model, tgt_vocab)

    def forward(self, src, tgt):
        # src: (S, N), tgt: (T, N) -- sequence-first, the nn.Transformer default
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt.size(0)).to(tgt.device)
        src_emb = self.positional_encoding(self.src_tok_emb(src) * math.sqrt(self.d_model))
        tgt_emb = self.positional_encoding(self.tgt_tok_emb(tgt) * math.sqrt(self.d_model))
        outs = self.transformer(src_emb, tgt_emb, tgt_mask=tgt_mask)
        return self.generator(outs)

    def get_example_inputs(self):
        src = torch.randint(0, self.src_vocab, (12, 2))
        tgt = torch.randint(0, self.tgt_vocab, (10, 2))
        return (src, tgt)
