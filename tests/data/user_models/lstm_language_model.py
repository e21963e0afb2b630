"""pytorch/examples' word_language_model, as people write it: forward(input,
hidden) takes the LSTM's state as a tuple (h, c) and returns the next state
beside the decoded scores, so a caller can carry it from batch to batch."""
import torch
import torch.nn as nn


class LSTMLanguageModel(nn.Module):
    def __init__(self, ntoken=400, ninp=48, nhid=64, nlayers=2, dropout=0.2):
        super().__init__()
        self.nlayers = nlayers
        self.nhid = nhid
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return nn.functional.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))

    def get_example_inputs(self):
        batch = 4
        tokens = torch.randint(0, self.encoder.num_embeddings, (12, batch))
        hidden = tuple(torch.randn_like(state) for state in self.init_hidden(batch))
        return tokens, hidden
