"""Text classification with nn.EmbeddingBag (the torchtext tutorial model):
a flat tensor of token ids plus offsets marking where each text starts."""
import torch
import torch.nn as nn


class EmbeddingBagClassifier(nn.Module):
    def __init__(self, vocab_size=5000, embed_dim=32, num_class=4):
        super().__init__()
        self.vocab_size = vocab_size
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, mode="mean", sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)

    def get_example_inputs(self):
        text = torch.randint(0, self.vocab_size, (40,))
        offsets = torch.tensor([0, 7, 19, 26], dtype=torch.long)
        return text, offsets
