"""Part-of-speech style sequence tagger: embedding -> LSTM -> linear -> log_softmax."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMTagger(nn.Module):
    def __init__(self, vocab_size=1000, embedding_dim=32, hidden_dim=64, tagset_size=12, num_layers=2):
        super().__init__()
        self.vocab_size = vocab_size
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, num_layers=num_layers, batch_first=True)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds)
        tag_space = self.hidden2tag(lstm_out)
        tag_scores = F.log_softmax(tag_space, dim=-1)
        return tag_scores

    def get_example_inputs(self):
        return (torch.randint(0, self.vocab_size, (2, 16)),)
