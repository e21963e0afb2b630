"""A two-layer graph convolutional network (Kipf and Welling) whose normalised
adjacency arrives as a sparse COO tensor, multiplied with torch.sparse.mm."""
import torch
import torch.nn as nn


class GCN(nn.Module):
    def __init__(self, features=16, hidden=32, classes=4, nodes=50):
        super().__init__()
        self.nodes = nodes
        self.features = features
        self.layer1 = nn.Linear(features, hidden)
        self.layer2 = nn.Linear(hidden, classes)

    def forward(self, x, adjacency):
        h = torch.relu(torch.sparse.mm(adjacency, self.layer1(x)))
        return torch.sparse.mm(adjacency, self.layer2(h)).log_softmax(-1)

    def get_example_inputs(self):
        generator = torch.Generator().manual_seed(0)
        edges = torch.randint(0, self.nodes, (2, 200), generator=generator)
        loops = torch.arange(self.nodes).repeat(2, 1)
        index = torch.cat([edges, loops], 1)
        degree = torch.zeros(self.nodes).index_add_(0, index[0], torch.ones(index.size(1)))
        values = degree[index[0]].rsqrt() * degree[index[1]].rsqrt()
        adjacency = torch.sparse_coo_tensor(index, values, (self.nodes, self.nodes)).coalesce()
        return torch.randn(self.nodes, self.features, generator=generator), adjacency
