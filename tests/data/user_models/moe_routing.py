"""A mixture-of-experts layer with a top-2 softmax router: tokens are sent to
their experts with index_select and the results summed back with index_add_."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class MoERouting(nn.Module):
    def __init__(self, dim=64, hidden=128, num_experts=4, top_k=2):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden) for _ in range(num_experts)])

    def forward(self, x):
        batch, seq, dim = x.shape
        tokens = x.reshape(-1, dim)

        router_logits = self.router(tokens)
        routing_weights = F.softmax(router_logits, dim=-1)
        topk_weights, topk_idx = torch.topk(routing_weights, self.top_k, dim=-1)
        topk_weights = topk_weights / topk_weights.sum(dim=-1, keepdim=True)

        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            # which (token, slot) pairs picked expert e
            token_idx, slot_idx = torch.where(topk_idx == e)
            expert_in = tokens.index_select(0, token_idx)
            expert_out = expert(expert_in) * topk_weights[token_idx, slot_idx].unsqueeze(-1)
            out.index_add_(0, token_idx, expert_out)
        return out.reshape(batch, seq, dim), router_logits

    def get_example_inputs(self):
        return (torch.randn(2, 16, 64),)
