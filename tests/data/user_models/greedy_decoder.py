"""A GRU encoder-decoder that decodes greedily for a fixed number of steps and
returns, as seq2seq libraries do, its settings and bookkeeping beside the
tensors: a dict with Python ints, a string and None in it."""
import torch
import torch.nn as nn


class GreedyDecoder(nn.Module):
    def __init__(self, vocab_size=300, hidden=48, max_steps=6, bos_id=1):
        super().__init__()
        self.vocab_size = vocab_size
        self.max_steps = max_steps
        self.bos_id = bos_id
        self.embedding = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.decoder = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, src):
        _, state = self.encoder(self.embedding(src))
        state = state[0]
        token = torch.full((src.size(0),), self.bos_id, dtype=torch.long)
        tokens, scores = [], []
        for _ in range(self.max_steps):
            state = self.decoder(self.embedding(token), state)
            logits = self.out(state)
            score, token = logits.log_softmax(-1).max(-1)
            tokens.append(token)
            scores.append(score)
        return {
            "tokens": torch.stack(tokens, 1),
            "scores": torch.stack(scores, 1).sum(1),
            "steps": self.max_steps,
            "strategy": "greedy",
            "attention": None,
        }

    def get_example_inputs(self):
        return (torch.randint(2, self.vocab_size, (3, 9)),)
