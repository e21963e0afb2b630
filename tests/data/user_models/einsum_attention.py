"""Multi-head attention written with torch.einsum, plus a feed-forward
layer, as in many research codebases."""
import torch
import torch.nn as nn


class EinsumAttention(nn.Module):
    def __init__(self, dim=64, heads=4, dim_head=16):
        super().__init__()
        inner_dim = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x, context):
        h = self.heads
        b, n, _ = x.shape
        x_norm = self.norm(x)
        q = self.to_q(x_norm)
        k, v = self.to_kv(context).chunk(2, dim=-1)

        q = q.view(b, n, h, -1)
        k = k.view(b, k.shape[1], h, -1)
        v = v.view(b, v.shape[1], h, -1)

        sim = torch.einsum("bihd,bjhd->bhij", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        out = torch.einsum("bhij,bjhd->bihd", attn, v)
        out = out.reshape(b, n, -1)
        x = x + self.to_out(out)
        return x + self.ff(x)

    def get_example_inputs(self):
        return torch.randn(2, 16, 64), torch.randn(2, 24, 64)
