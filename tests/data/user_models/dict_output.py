"""A classifier that returns a dict, the way HuggingFace models return
ModelOutput objects: {"logits": ..., "hidden": ...}."""
import torch
import torch.nn as nn


class DictOutputModel(nn.Module):
    def __init__(self, vocab_size=1000, hidden_size=64, num_labels=3):
        super().__init__()
        self.vocab_size = vocab_size
        self.embeddings = nn.Embedding(vocab_size, hidden_size)
        self.encoder = nn.Sequential(
            nn.Linear(hidden_size, hidden_size),
            nn.GELU(),
            nn.LayerNorm(hidden_size),
        )
        self.classifier = nn.Linear(hidden_size, num_labels)

    def forward(self, input_ids):
        hidden = self.encoder(self.embeddings(input_ids))
        pooled = hidden.mean(dim=1)
        logits = self.classifier(pooled)
        return {"logits": logits, "hidden": hidden}

    def get_example_inputs(self):
        return (torch.randint(0, self.vocab_size, (2, 16)),)
