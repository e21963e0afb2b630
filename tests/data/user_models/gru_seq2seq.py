"""GRU encoder-decoder with teacher forcing: the decoder reads the shifted
target tokens and starts from the encoder's final hidden state."""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hid_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hid_dim, batch_first=True)

    def forward(self, src):
        embedded = self.embedding(src)
        outputs, hidden = self.rnn(embedded)
        return outputs, hidden


class Decoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hid_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hid_dim, batch_first=True)
        self.fc_out = nn.Linear(hid_dim, vocab_size)

    def forward(self, tgt, hidden):
        embedded = self.embedding(tgt)
        output, hidden = self.rnn(embedded, hidden)
        return self.fc_out(output)


class GRUSeq2Seq(nn.Module):
    def __init__(self, src_vocab=500, tgt_vocab=400, emb_dim=32, hid_dim=64):
        super().__init__()
        self.src_vocab = src_vocab
        self.tgt_vocab = tgt_vocab
        self.encoder = Encoder(src_vocab, emb_dim, hid_dim)
        self.decoder = Decoder(tgt_vocab, emb_dim, hid_dim)

    def forward(self, src, tgt):
        _, hidden = self.encoder(src)
        logits = self.decoder(tgt, hidden)
        return logits

    def get_example_inputs(self):
        src = torch.randint(0, self.src_vocab, (2, 12))
        tgt = torch.randint(0, self.tgt_vocab, (2, 10))
        return src, tgt
