"""Models from HuggingFace transformers and timm, by name, for tracebench's `--only`.

    --only=hf:TYPE[?KEY=VALUE&...]     transformers' AutoModel for a model type
                                       (bert, gpt2, t5, vit, whisper, ...), built from
                                       the type's default config with random weights
    --only=timm:NAME[?KEY=VALUE&...]   timm.create_model(NAME, pretrained=False, ...)

Nothing is downloaded: a type's default config is the base model's (bert: BERT-base,
t5: T5-small, gpt2: GPT-2 small) and the weights are random, which does not change what
a call costs. A timm net's batch norms get running statistics measured on seeded inputs,
as the built-in models' do (docs/models.md): with the constructor's (mean 0, variance 1)
activations shrink layer by layer to the noise floor, where no accuracy cost means anything. KEY=VALUE pairs override config fields (hf:bert?num_hidden_layers=2) or
become create_model's keyword arguments (timm:resnet18?num_classes=10); values are
Python literals, else strings.

tracebench's exporter (export_model.py) loads this file like any user's model file and
asks it for the class named by the whole spec: the module's __getattr__ answers with a
class built for that name, so hub models take the one loader every Python model takes,
its cache and its checks included. A name this file cannot build raises LookupError
with the fix.
"""

import ast

import torch

SEQUENCE_LENGTH = 128  # tokens per text input, as the built-in BERT takes
DECODER_LENGTH = 16  # target tokens given to an encoder-decoder's decoder


def parse_overrides(query):
    """'a=1&b=x' -> {'a': 1, 'b': 'x'}."""
    overrides = {}
    for pair in filter(None, query.split("&")):
        key, equals, text = pair.partition("=")
        if not equals or not key.isidentifier():
            raise LookupError(f"'{pair}' is not KEY=VALUE; write e.g. hf:bert?num_hidden_layers=2")
        try:
            overrides[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            overrides[key] = text
    return overrides


def import_or_explain(package, spec):
    try:
        return __import__(package)
    except ImportError as error:
        raise LookupError(f"{spec} needs the Python package {package} ({error}); pip install "
                          f"{package} into the python tracebench exports with (the 2.x build's "
                          f"venv has it: make torch2-env)")


def huggingface_model(model_type, overrides, spec):
    transformers = import_or_explain("transformers", spec)
    try:
        config = transformers.AutoConfig.for_model(model_type)
    except ValueError:
        raise LookupError(f"transformers {transformers.__version__} has no model type "
                          f"'{model_type}'; use a type such as bert, gpt2, t5, vit or whisper")
    for key, value in overrides.items():
        if not hasattr(config, key):
            raise LookupError(f"{type(config).__name__} has no field '{key}'; see its "
                              f"documentation for the names")
        setattr(config, key, value)
    # One forward pass, no key/value cache: the cache object is no tensor, and
    # a benchmark of one call has no later call to serve.
    if hasattr(config, "use_cache"):
        config.use_cache = False
    # The eager attention: the fused SDPA path is a single op that TorchScript's tracer
    # and the older backends see as opaque.
    config._attn_implementation = "eager"
    return transformers.AutoModel.from_config(config), config


def token_ids(config, length):
    return torch.randint(0, min(config.vocab_size, 30000), (1, length))


def huggingface_inputs(model, config):
    """Keyword inputs for the model's forward: its main input at the size its config
    expects, plus what an encoder-decoder needs for one decoder pass."""
    main = model.main_input_name
    if main == "input_ids":
        inputs = {"input_ids": token_ids(config, SEQUENCE_LENGTH),
                  "attention_mask": torch.ones(1, SEQUENCE_LENGTH, dtype=torch.long)}
    elif main == "pixel_values":
        size = config.image_size
        inputs = {"pixel_values": torch.randn(1, config.num_channels, size, size)}
    elif main == "input_features":  # speech: log-mel frames, the full 30 s window
        inputs = {"input_features": torch.randn(1, config.num_mel_bins,
                                                2 * config.max_source_positions)}
    else:
        raise LookupError(f"no example inputs for {type(model).__name__}'s '{main}'; write a "
                          f"model file with get_example_inputs instead (--only=path:FILE,class:NAME)")
    if config.is_encoder_decoder:
        inputs["decoder_input_ids"] = token_ids(config, DECODER_LENGTH)
    return inputs


def timm_model(name, overrides, spec):
    timm = import_or_explain("timm", spec)
    if name not in timm.list_models():
        raise LookupError(f"timm {timm.__version__} has no model '{name}'; timm.list_models() "
                          f"lists the names")
    return timm.create_model(name, pretrained=False, **overrides)


def timm_inputs(model):
    channels, height, width = model.pretrained_cfg["input_size"]
    return (torch.randn(1, channels, height, width),)


CALIBRATION_BATCHES = 2  # as the built-in models' (src/zoo/batch_norm_calibration.h)
CALIBRATION_BATCH_SIZE = 4
CALIBRATION_SEED = 20261207  # its own generator: the global seed, which drew the weights, stays


def calibrate_batch_norms(model, example):
    """Sets every batch norm's running statistics to the cumulative mean and variance over
    CALIBRATION_BATCHES seeded standard-normal batches shaped like `example`; momentum and
    training mode are kept. Nothing happens to a model without batch norms."""
    norms = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not norms:
        return
    momenta = [norm.momentum for norm in norms]
    for norm in norms:
        norm.reset_running_stats()
        norm.momentum = None  # a cumulative average, whatever the batch count
    was_training = model.training
    model.train()
    generator = torch.Generator().manual_seed(CALIBRATION_SEED)
    with torch.no_grad():
        for _ in range(CALIBRATION_BATCHES):
            model(torch.randn((CALIBRATION_BATCH_SIZE,) + tuple(example.shape[1:]),
                              generator=generator))
    for norm, momentum in zip(norms, momenta):
        norm.momentum = momentum
    model.train(was_training)


def hub_class(spec):
    """An nn.Module class for `spec`, as tracebench's exporter expects of a model class:
    it takes no constructor arguments and has get_example_inputs. The model is built
    here, so that a name that cannot be built fails on lookup with the LookupError's fix."""
    source, _, rest = spec.partition(":")
    name, _, query = rest.partition("?")
    overrides = parse_overrides(query)
    if source == "hf":
        model, config = huggingface_model(name, overrides, spec)
        inputs = huggingface_inputs(model, config)
    else:
        model = timm_model(name, overrides, spec)
        inputs = timm_inputs(model)
        calibrate_batch_norms(model, inputs[0])

    class HubModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *args, **kwargs):
            return self.model(*args, **kwargs)

        def get_example_inputs(self):
            return inputs

    return HubModel


def __getattr__(spec):
    if spec.partition(":")[0] not in ("hf", "timm") or not spec.partition(":")[2]:
        raise AttributeError(spec)
    return hub_class(spec)
