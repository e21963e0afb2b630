#include "settings/setting_field_builders.h"

#include "settings/sweep.h"

namespace tracebench {

using namespace setting_builders;

std::vector<SettingField> sampling_settings() {
  return {
      // The inputs.
      {"batch_size",
       {{"--batch-size", "Batch size for built-in models (default: each model's own, see `list`)",
         bound(&RunOptions::batch_size_sweep)}},
       kEachChild,
       kChangesNumbers,
       kSweepable,
       [](const RunOptions& o) {
         return swept_or_single(o.batch_size_sweep, std::optional<int64_t>());
       }},
      {"input_shapes",
       {{"--input-shapes",
         "Float input shapes instead of get_example_inputs, e.g. 1x3x224x224,1x10 (default: the "
         "model's get_example_inputs)",
         bound(&RunOptions::input_shapes)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::input_shapes)},
      {"inputs",
       {{"--inputs",
         "Inputs saved by Python's torch.save: a tuple, list or dict of tensors (one per input, "
         "as get_example_inputs returns them), or a list of such sets; used for timing, "
         "verification and accuracy (default: the model's example inputs)",
         bound(&RunOptions::inputs_file)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::inputs_file)},
      {"input_pool",
       {{"--input-pool",
         "Cycle the samples through N input sets: the --inputs file's first N, or the example "
         "inputs and N-1 seeded variations, so caches do not flatter a backend (default: every "
         "set of --inputs, else one)",
         bound(&RunOptions::input_pool)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::input_pool)},
      {"eval_inputs",
       {{"--eval-inputs",
         "Score each row that ran below float32 (bf16, int8) on N input sets against float32 "
         "eager: the --inputs file's first N, else N seeded ones apart from the timed inputs; "
         "its sqnr_db and top1_agreement columns (default: 16)",
         bound(&RunOptions::eval_inputs)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::eval_inputs)},
      {"shape_set",
       {{"--shape-set",
         "Time each sample at a shape drawn (seeded) from a set, as a served model sees many: "
         "batch=1,2,4,8 or dimK=32..512 (a doubling range), every input tensor tiled or cut "
         "along that dimension; rows give each shape's median (default: the inputs' one shape)",
         bound(&RunOptions::shape_set)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::shape_set)},

      // How samples are taken.
      {"repeat",
       {{"-n,--repeat", "Timed samples per backend", bound(&RunOptions::repeat)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::repeat)},
      {"warmup",
       {{"--warmup", "Untimed calls per backend before sampling", bound(&RunOptions::warmup)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::warmup)},
      {"iterations_per_run",
       {{"--iterations-per-run", "Model calls inside one timed sample",
         bound(&RunOptions::iterations_per_run)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::iterations_per_run)},
      {"flush_denormal",
       {{"--flush-denormal",
         "Flush denormal floats to zero (x86 FTZ/DAZ) for the run: random weights can leave "
         "activations denormal, and then the timings measure denormal arithmetic",
         bound(&RunOptions::flush_denormal)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::flush_denormal)},
      {"randomize_input",
       {{"--randomize-input",
         "New random float inputs (same shapes) for every sample; integer inputs kept",
         bound(&RunOptions::randomize_input)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::randomize_input)},
      {"threads",
       {{"--threads",
         "Intra-op threads (default: LibTorch's choice); OpenBLAS gets one thread unless "
         "OPENBLAS_NUM_THREADS is set",
         bound(&RunOptions::threads_sweep)}},
       kEachChild,
       kChangesNumbers,
       kSweepable,
       [](const RunOptions& o) {
         return swept_or_single(o.threads_sweep, std::optional<int64_t>(thread_counts(o)[0]));
       }},
      {"streams",
       {{"--streams",
         "Concurrent inference threads, each calling its own compiled instance with --threads "
         "intra-op threads; every request is timed (default: 1)",
         bound(&RunOptions::streams)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::streams)},
      {"device",
       {{"--devices", "Device to run on (this build: cpu)", bound(&RunOptions::device)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::device)},
      {"seed",
       {{"--seed", "Seed for parameters, inputs and the sample order", bound(&RunOptions::seed)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::seed)},
      {"weights",
       {{"--weights",
         "Load a built-in model's parameters from torch.save(model.state_dict(), FILE) "
         "(default: seeded initialization)",
         bound(&RunOptions::weights)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::weights)},
  };
}

}  // namespace tracebench
