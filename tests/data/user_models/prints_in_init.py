"""A small MLP whose constructor is chatty: it prints to stdout while it
builds, and nowhere else."""
import torch
import torch.nn as nn


class ChattyModel(nn.Module):
    def __init__(self, in_features=32, hidden=64, out_features=10):
        super().__init__()
        print("Building ChattyModel...")
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, out_features),
        )
        n_params = sum(p.numel() for p in self.parameters())
        print(f"  layers: {len(self.net)}")
        print(f"  parameters: {n_params:,}")
        print("ChattyModel ready.")

    def forward(self, x):
        return self.net(x)

    def get_example_inputs(self):
        return (torch.randn(4, 32),)
