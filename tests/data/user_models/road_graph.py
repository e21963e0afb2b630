"""A traffic-forecasting style graph network over one fixed road graph: the
graph's normalised adjacency is built once in __init__ and kept as a sparse
COO buffer (register_buffer), so it travels with the weights; forward mixes
each node's features with its neighbours' through torch.sparse.mm, then a GRU
cell updates each node's state. Only dense tensors come in."""
import torch
import torch.nn as nn


def ring_road_adjacency(nodes, shortcuts, generator):
    """Each junction linked to its two neighbours on a ring, plus random shortcuts and
    self-loops, symmetric and normalised as D^-1/2 A D^-1/2."""
    ring = torch.arange(nodes)
    source = torch.cat([ring, ring, torch.randint(0, nodes, (shortcuts,), generator=generator)])
    target = torch.cat([(ring + 1) % nodes, ring, torch.randint(0, nodes, (shortcuts,),
                                                                generator=generator)])
    index = torch.cat([torch.stack([source, target]), torch.stack([target, source])], 1)
    ones = torch.ones(index.size(1))
    adjacency = torch.sparse_coo_tensor(index, ones, (nodes, nodes)).coalesce()
    adjacency = torch.sparse_coo_tensor(adjacency.indices(), torch.ones_like(adjacency.values()),
                                        (nodes, nodes)).coalesce()
    degree = torch.sparse.sum(adjacency, 1).to_dense()
    row, column = adjacency.indices()
    values = degree[row].rsqrt() * degree[column].rsqrt()
    return torch.sparse_coo_tensor(adjacency.indices(), values, (nodes, nodes)).coalesce()


class RoadGraphForecaster(nn.Module):
    def __init__(self, nodes=64, features=8, hidden=32, horizon=3):
        super().__init__()
        self.nodes = nodes
        self.features = features
        generator = torch.Generator().manual_seed(7)
        self.register_buffer("adjacency", ring_road_adjacency(nodes, 40, generator))
        self.embed = nn.Linear(features, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.head = nn.Linear(hidden, horizon)

    def forward(self, readings, state):
        mixed = torch.sparse.mm(self.adjacency, self.embed(readings))
        state = self.cell(torch.relu(mixed), state)
        return self.head(torch.sparse.mm(self.adjacency, state)), state

    def get_example_inputs(self):
        return torch.randn(self.nodes, self.features), torch.zeros(self.nodes, self.cell.hidden_size)
