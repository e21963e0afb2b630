"""python/hub_models.py's batch-norm calibration for timm nets built from random weights: the
running statistics come from seeded inputs (not the constructor's mean 0, variance 1), so the
outputs keep their scale instead of shrinking to the noise floor. Run by ctest with Debian's
Python; needs torch only (no timm)."""
import os
import sys
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import hub_models  # noqa: E402


def deep_convnet():
    torch.manual_seed(0)
    layers = []
    for _ in range(12):
        layers += [torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU()]
    return torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), *layers).eval()


class BatchNormCalibration(unittest.TestCase):
    def setUp(self):
        self.example = torch.randn(1, 3, 16, 16)

    def output_std(self, model):
        with torch.no_grad():
            return model(self.example).std().item()

    def test_outputs_keep_their_scale(self):
        model = deep_convnet()
        before = self.output_std(model)
        hub_models.calibrate_batch_norms(model, self.example)
        after = self.output_std(model)
        # Default statistics: each conv shrinks the activations; twelve of them leave ~1e-3.
        self.assertLess(before, 0.05)
        self.assertGreater(after, 0.2)

    def test_seeded_and_keeps_momentum_and_mode(self):
        first, second = deep_convnet(), deep_convnet()
        global_state = torch.random.get_rng_state()
        hub_models.calibrate_batch_norms(first, self.example)
        hub_models.calibrate_batch_norms(second, self.example)
        self.assertTrue(torch.equal(torch.random.get_rng_state(), global_state))
        norm_first, norm_second = first[2], second[2]
        self.assertTrue(torch.equal(norm_first.running_var, norm_second.running_var))
        self.assertFalse(torch.equal(norm_first.running_var, torch.ones(8)))
        self.assertEqual(norm_first.momentum, 0.1)
        self.assertFalse(first.training)

    def test_a_model_without_batch_norms_is_untouched(self):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.LayerNorm(14))
        state = {k: v.clone() for k, v in model.state_dict().items()}
        hub_models.calibrate_batch_norms(model, self.example)
        for key, value in model.state_dict().items():
            self.assertTrue(torch.equal(value, state[key]), key)


if __name__ == "__main__":
    unittest.main()
