"""A BERT-like encoder called the HuggingFace way: with keyword arguments,
some of them optional. get_example_inputs returns a dict of those keywords."""
import torch
import torch.nn as nn


class KeywordInputsModel(nn.Module):
    def __init__(self, vocab_size=1000, hidden_size=64, max_position=64, type_vocab_size=2, num_heads=2, num_layers=2):
        super().__init__()
        self.vocab_size = vocab_size
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_position, hidden_size)
        self.token_type_embeddings = nn.Embedding(type_vocab_size, hidden_size)
        self.layer_norm = nn.LayerNorm(hidden_size, eps=1e-12)
        layer = nn.TransformerEncoderLayer(
            hidden_size, num_heads, dim_feedforward=hidden_size * 2, batch_first=True, activation="gelu"
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.pooler = nn.Linear(hidden_size, hidden_size)

    def forward(self, input_ids, attention_mask=None, token_type_ids=None):
        batch_size, seq_length = input_ids.shape
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        position_ids = torch.arange(seq_length, device=input_ids.device).unsqueeze(0).expand(batch_size, -1)

        embeddings = (
            self.word_embeddings(input_ids)
            + self.position_embeddings(position_ids)
            + self.token_type_embeddings(token_type_ids)
        )
        embeddings = self.layer_norm(embeddings)
        hidden = self.encoder(embeddings, src_key_padding_mask=attention_mask == 0)
        pooled = torch.tanh(self.pooler(hidden[:, 0]))
        return pooled

    def get_example_inputs(self):
        input_ids = torch.randint(1, self.vocab_size, (2, 16))
        attention_mask = torch.ones(2, 16, dtype=torch.long)
        attention_mask[1, 12:] = 0
        token_type_ids = torch.zeros(2, 16, dtype=torch.long)
        token_type_ids[:, 8:] = 1
        return {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids}
