#include "backends/lazy/lazy_segments.h"

#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "backends/graph/graph_cut.h"
#include "backends/lazy/flat_inputs.h"
#include "backends/lazy/lazy_capture.h"
#include "backends/lazy/lazy_training.h"

namespace tracebench::lazy {

namespace {

using torch::jit::Node;
using torch::jit::Value;

// Runs a piece's graph on `arguments`; returns the elements of its tuple.
std::vector<c10::IValue> run_piece(const torch::jit::Code& code,
                                   std::vector<c10::IValue> arguments) {
  torch::jit::InterpreterState(code).run(arguments);
  TORCH_INTERNAL_ASSERT(arguments.size() == 1);
  return arguments.front().toTupleRef().elements().vec();
}

bool is_packing(const Node* node) {
  return node->kind() == c10::prim::ListConstruct || node->kind() == c10::prim::TupleConstruct;
}
bool is_unpacking(const Node* node) {
  return node->kind() == c10::prim::ListUnpack || node->kind() == c10::prim::TupleUnpack ||
         node->kind() == c10::prim::TupleIndex || node->kind() == c10::aten::__getitem__;
}

bool holds_tensor_where(const c10::IValue& value, bool (*predicate)(const at::Tensor&)) {
  std::vector<at::Tensor> tensors;
  flatten_tensors(value, tensors);
  return std::any_of(tensors.begin(), tensors.end(), predicate);
}
bool lazy_cannot_hold(const at::Tensor& tensor) { return !lazy_can_hold(tensor); }
bool is_sparse(const at::Tensor& tensor) { return tensor.is_sparse() || tensor.is_sparse_csr(); }

c10::IValue lazy_copy_of(const c10::IValue& value) {
  std::vector<at::Tensor> tensors;
  flatten_tensors(value, tensors);
  for (auto& tensor : tensors) tensor = to_lazy_where_it_can(tensor);
  size_t next = 0;
  return unflatten_tensors(value, tensors, next);
}

// A list or tuple built only for eager nodes is built on the CPU right before
// them, and one an eager node returns is unpacked right after it: lazy
// segments then exchange plain tensors and scalars with the eager steps.
void keep_packing_with(std::unordered_set<Node*>& eager) {
  for (Node* node : std::vector<Node*>(eager.begin(), eager.end())) {
    for (Value* input : node->inputs()) {
      Node* producer = input->node();
      if (!is_packing(producer) || eager.count(producer)) continue;
      bool only_eager_users = true;
      for (const auto& use : input->uses()) only_eager_users &= eager.count(use.user) > 0;
      if (!only_eager_users) continue;
      producer->moveBefore(node);
      eager.insert(producer);
    }
    for (Value* output : node->outputs()) {
      for (const auto& use : std::vector<torch::jit::Use>(output->uses())) {
        if (!is_unpacking(use.user) || eager.count(use.user)) continue;
        use.user->moveAfter(node);
        eager.insert(use.user);
      }
    }
  }
}

// Consecutive top-level nodes that run the same way; constants belong to no
// run (each piece copies those it reads).
struct Run {
  bool eager;
  std::vector<Node*> nodes;
};

std::vector<Run> runs_of(torch::jit::Graph& graph, const std::unordered_set<Node*>& eager) {
  std::vector<Run> runs;
  for (Node* node : graph.nodes()) {
    if (node->kind() == c10::prim::Constant) continue;
    const bool is_eager = eager.count(node) > 0;
    if (runs.empty() || runs.back().eager != is_eager) runs.push_back({is_eager, {}});
    runs.back().nodes.push_back(node);
  }
  return runs;
}

// What `value` is a view of: the first input of the op that made it, as
// long as that op's schema says its result aliases that input (slice,
// select, view, transpose, an in-place op's result), else `value` itself.
const Value* view_base(const Value* value) {
  while (true) {
    const Node* node = value->node();
    const c10::FunctionSchema* schema = node->maybeSchema();
    if (!schema || node->inputs().empty() || schema->arguments().empty() ||
        value->offset() >= schema->returns().size()) {
      return value;
    }
    const c10::AliasInfo* returned = schema->returns()[value->offset()].alias_info();
    const c10::AliasInfo* first = schema->arguments()[0].alias_info();
    if (!returned || !first || returned->beforeSets() != first->beforeSets()) return value;
    value = node->input(0);
  }
}

// Positions of the arguments `node` writes in place, as its schema says.
std::vector<size_t> arguments_written(const Node* node) {
  std::vector<size_t> written;
  const c10::FunctionSchema* schema = node->maybeSchema();
  if (!schema) return written;
  for (size_t i = 0; i < schema->arguments().size() && i < node->inputs().size(); ++i) {
    const c10::AliasInfo* alias = schema->arguments()[i].alias_info();
    if (alias && alias->isWrite()) written.push_back(i);
  }
  return written;
}

// Positions of the piece's inputs that one of its ops writes in place
// (directly or through a view): a lazy segment writes a copy, so it returns
// them; an eager step writes the tensor itself, so it gets a copy of its own.
std::vector<size_t> inputs_written(const torch::jit::Graph& graph) {
  std::vector<size_t> written;
  for (const Node* node : graph.nodes()) {
    for (size_t i : arguments_written(node)) {
      const Value* base = view_base(node->input(i));
      for (size_t j = 0; j < graph.inputs().size(); ++j) {
        if (graph.inputs()[j] == base &&
            std::find(written.begin(), written.end(), j) == written.end()) {
          written.push_back(j);
        }
      }
    }
  }
  return written;
}

// A step's inputs cross the break as copies, and a step that writes one in
// place hands the written copy on in its slot. Anything else made before the
// step that is a view of the same tensor (the base of a view written
// through, another view of it) would miss the write: refused.
void check_written_value_is_unaliased(const Value* value, const std::vector<Node*>& step) {
  const Node* first = step.front();
  const Value* base = view_base(value);
  auto made_before_step = [&](const Value* other) {
    return other->node()->kind() == c10::prim::Param || other->node()->isBefore(first);
  };
  for (const Node* node = first; node != nullptr; node = node->next()) {
    for (const Value* input : node->inputs()) {
      TORCH_CHECK(input == value || !made_before_step(input) || view_base(input) != base,
                  "lazy_trace_once: a tensor written in place after a graph break is a view "
                  "shared with another value across the break (not supported); use "
                  "lazy_trace_everytime");
    }
    if (node->kind() == c10::prim::Return) break;
  }
}

bool is_model_tensor(const Value* value, size_t resident_count) {
  return value->node()->kind() == c10::prim::Param && value->offset() < resident_count;
}

// The graph's in-place writes to model tensors (its first `resident_count`
// inputs: a buffer an observer or a running statistic updates in forward).
struct ModelTensorWrites {
  std::unordered_set<Node*> nodes;    // the writing ops and the views they write through
  std::unordered_set<size_t> inputs;  // the positions of the tensors written
  int64_t writes = 0;                 // the writing ops
};

ModelTensorWrites model_tensor_writes(torch::jit::Graph& graph, size_t resident_count) {
  ModelTensorWrites found;
  for (Node* node : graph.nodes()) {
    bool writes = false;
    for (size_t i : arguments_written(node)) {
      const Value* base = view_base(node->input(i));
      if (!is_model_tensor(base, resident_count)) continue;
      writes = true;
      found.inputs.insert(base->offset());
      for (Value* view = node->input(i); view != base; view = view->node()->input(0)) {
        found.nodes.insert(view->node());
      }
    }
    if (!writes) continue;
    found.nodes.insert(node);
    ++found.writes;
  }
  return found;
}

// The model tensor `node` writes in place itself (not through a view), or null.
const Value* model_tensor_written_directly(const Node* node, size_t resident_count) {
  for (size_t i : arguments_written(node)) {
    if (is_model_tensor(node->input(i), resident_count)) return node->input(i);
  }
  return nullptr;
}

// Moves each direct write of a model tensor that nothing after it reads (an
// observer's: its buffer is read again only by the next call) to the end of
// the graph, so that the writes run as one eager step there rather than
// cutting the lazy graph wherever they occur. (The JIT's AliasDb would refuse
// most of these moves: it takes any two graph inputs to alias, and here they
// are distinct model tensors.)
void defer_model_tensor_writes(torch::jit::Graph& graph, size_t resident_count) {
  std::vector<Node*> deferred;
  for (Node* node : graph.nodes()) {
    const Value* written = model_tensor_written_directly(node, resident_count);
    if (!written) continue;
    bool read_later = false;
    for (const Value* output : node->outputs()) read_later |= output->hasUses();
    for (const Node* later = node->next(); later != graph.return_node() && !read_later;
         later = later->next()) {
      for (const Value* input : later->inputs()) read_later |= view_base(input) == written;
    }
    if (!read_later) deferred.push_back(node);
  }
  for (Node* node : deferred) node->moveBefore(graph.return_node());
}

// One segment or eager step, reading and writing slots of the call's values.
struct Step {
  std::unique_ptr<CompiledModel> lazy;      // a captured lazy segment, or
  std::unique_ptr<torch::jit::Code> eager;  // ops run on the CPU
  std::vector<size_t> reads;                // slots passed in (lazy: not resident)
  std::vector<size_t> writes;               // slots of the tuple's elements
  std::vector<size_t> written_in_place;     // slots the step modifies
};

class SegmentedModel final : public CompiledModel {
 public:
  SegmentedModel(std::vector<at::Tensor> resident, const OffTheLazyGraph& off_graph)
      : resident_(std::move(resident)),
        sparse_ops_(off_graph.sparse_ops),
        model_tensor_writes_(off_graph.model_tensor_writes) {}

  c10::IValue run(const std::vector<c10::IValue>& nested_inputs) override {
    const auto inputs = flat_inputs(nested_inputs);
    std::vector<c10::IValue> slots(slot_count_);
    std::copy(resident_.begin(), resident_.end(), slots.begin());
    std::copy(inputs.begin(), inputs.end(), slots.begin() + resident_.size());
    for (const Step& step : steps_) run_step(step, slots);
    return slots.at(result_slot_);
  }

  std::map<std::string, double> counters() const override {
    std::map<std::string, double> summed;
    double segments = 0;
    for (const Step& step : steps_) {
      if (!step.lazy) continue;
      ++segments;
      for (const auto& [name, value] : step.lazy->counters()) summed[name] += value;
    }
    summed["lazy_segments"] = segments;
    summed["graph_breaks"] = static_cast<double>(steps_.size()) - segments;
    summed["sparse_ops_on_cpu"] = static_cast<double>(sparse_ops_);
    summed["model_writes_on_cpu"] = static_cast<double>(model_tensor_writes_);
    return summed;
  }

  std::vector<BackendWarning> warnings() const override {
    if (model_tensor_writes_ == 0) return {};
    return {
        {"model_writes_on_cpu",
         std::to_string(model_tensor_writes_) +
             " op(s) write a model tensor in place (a buffer updated in forward: an "
             "observer, a running statistic), which a replayed capture would not "
             "repeat: they run eagerly on the model's own tensors (after the lazy segments where "
             "nothing later reads them)"}};
  }

  /// Adds `step` and runs it on `slots` (the example call that compile makes).
  void add_step(Step step, std::vector<c10::IValue>& slots) {
    run_step(step, slots);
    steps_.push_back(std::move(step));
  }

  size_t new_slot() { return slot_count_++; }
  void set_result_slot(size_t slot) { result_slot_ = slot; }

 private:
  static void run_step(const Step& step, std::vector<c10::IValue>& slots) {
    if (step.eager) {
      for (size_t slot : step.written_in_place) slots[slot] = slots[slot].toTensor().clone();
    }
    std::vector<c10::IValue> arguments;
    arguments.reserve(step.reads.size());
    for (size_t slot : step.reads) arguments.push_back(slots[slot]);
    std::vector<c10::IValue> results = step.lazy
                                           ? step.lazy->run(arguments).toTupleRef().elements().vec()
                                           : run_piece(*step.eager, std::move(arguments));
    for (size_t i = 0; i < step.writes.size(); ++i) slots[step.writes[i]] = results[i];
    if (step.lazy) {
      for (size_t i = 0; i < step.written_in_place.size(); ++i) {
        slots[step.written_in_place[i]] = results[step.writes.size() + i];
      }
    }
  }

  std::vector<at::Tensor> resident_;  // on the CPU, for eager steps
  int64_t sparse_ops_;
  int64_t model_tensor_writes_;
  size_t slot_count_ = 0;
  size_t result_slot_ = 0;
  std::vector<Step> steps_;
};

}  // namespace

OffTheLazyGraph nodes_off_the_lazy_graph(const ParameterizedGraph& traced,
                                         const std::vector<c10::IValue>& inputs, BreakAt break_at) {
  torch::NoGradGuard no_grad;
  WholeGraphScope whole_graph;
  OffTheLazyGraph off_graph;
  ModelTensorWrites writes;
  if (break_at == BreakAt::kEveryEagerOp) {
    defer_model_tensor_writes(*traced.graph, traced.resident.size());
    writes = model_tensor_writes(*traced.graph, traced.resident.size());
    off_graph.model_tensor_writes = writes.writes;
  }
  const auto& graph_inputs = traced.graph->inputs();
  std::unordered_map<const Value*, c10::IValue> values;
  for (size_t i = 0; i < traced.resident.size(); ++i) {
    values[graph_inputs[i]] = to_lazy_where_it_can(traced.resident[i]);
  }
  const auto lazy_inputs = to_lazy(inputs);
  for (size_t i = 0; i < lazy_inputs.size(); ++i) {
    values[graph_inputs[traced.resident.size() + i]] = lazy_inputs[i];
  }
  for (Node* node : traced.graph->nodes()) {
    if (node->kind() == c10::prim::Constant) continue;
    GraphPiece piece = cut_piece({node});
    std::vector<c10::IValue> arguments;
    bool on_cpu = writes.nodes.count(node) > 0;
    bool reads_sparse = false;
    for (const Value* input : piece.inputs) {
      arguments.push_back(values.at(input));
      on_cpu = on_cpu || holds_tensor_where(arguments.back(), lazy_cannot_hold);
      reads_sparse = reads_sparse || holds_tensor_where(arguments.back(), is_sparse);
    }
    off_graph.sparse_ops += reads_sparse ? 1 : 0;
    std::vector<c10::IValue> results;
    if (!on_cpu) {
      const auto fallbacks_before = eager_fallback_counts();
      const auto compiles_before = CompileCounts::now();
      try {
        results = run_piece(torch::jit::Code(piece.graph, "tracebench_lazy_probe"), arguments);
      } catch (const c10::Error&) {
        on_cpu = true;  // LTC cannot run it at all (a nested tensor, say)
      }
      const auto compiles = CompileCounts::now() - compiles_before;
      const bool left_the_graph =
          !fallbacks_since(fallbacks_before).empty() || compiles.cached + compiles.uncached > 0;
      if (!on_cpu && break_at == BreakAt::kEveryEagerOp && left_the_graph) {
        off_graph.nodes.push_back(node);
      }
    }
    if (on_cpu) {
      off_graph.nodes.push_back(node);
      redirect_device_constants(*piece.graph, c10::kLazy, c10::Device(c10::kCPU));
      for (auto& argument : arguments) argument = to_cpu(argument);
      results = run_piece(torch::jit::Code(piece.graph, "tracebench_cpu_probe"), arguments);
      for (auto& result : results) result = lazy_copy_of(result);
    }
    for (size_t i = 0; i < results.size(); ++i) values[piece.outputs[i]] = results[i];
  }
  return off_graph;
}

std::unique_ptr<CompiledModel> compile_in_segments(ParameterizedGraph traced,
                                                   const OffTheLazyGraph& off_graph,
                                                   const std::vector<c10::IValue>& example_inputs,
                                                   const SegmentCompiler& compile_segment) {
  torch::jit::Graph& graph = *traced.graph;
  std::unordered_set<Node*> eager(off_graph.nodes.begin(), off_graph.nodes.end());
  keep_packing_with(eager);
  // A model tensor that an eager step writes is no constant of the lazy
  // segments: each call passes them its current value.
  const std::unordered_set<size_t> written_model_tensors =
      model_tensor_writes(graph, traced.resident.size()).inputs;

  auto model = std::make_unique<SegmentedModel>(traced.resident, off_graph);
  std::unordered_map<const Value*, size_t> slot_of;
  std::vector<c10::IValue> slots;  // the example call's values
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    slot_of[graph.inputs()[i]] = model->new_slot();
    slots.push_back(i < traced.resident.size() ? c10::IValue(traced.resident[i])
                                               : example_inputs[i - traced.resident.size()]);
  }
  const size_t resident_count = traced.resident.size();
  auto is_resident = [&](const Value* value) {
    auto it = slot_of.find(value);
    return it != slot_of.end() && it->second < resident_count;
  };
  // What a lazy segment holds on the lazy device: a model tensor that no
  // eager step writes.
  auto is_segment_resident = [&](const Value* value) {
    return is_resident(value) && !written_model_tensors.count(slot_of.at(value));
  };

  for (const Run& run : runs_of(graph, eager)) {
    GraphPiece piece = cut_piece(run.nodes, is_segment_resident);
    const std::vector<size_t> written = inputs_written(*piece.graph);
    Step step;
    for (Value* output : piece.outputs) {
      step.writes.push_back(model->new_slot());
      slot_of[output] = step.writes.back();
      slots.emplace_back();
    }
    for (size_t i : written) {
      const bool model_tensor = is_resident(piece.inputs[i]);
      TORCH_CHECK(!model_tensor || run.eager,
                  "a lazy segment between graph breaks writes a model tensor in place (not "
                  "supported); lazy_trace_once runs such writes eagerly");
      check_written_value_is_unaliased(piece.inputs[i], run.nodes);
      // An eager step writes a model tensor itself, as the model does; any
      // other value it writes is a copy of its own.
      if (!(model_tensor && run.eager))
        step.written_in_place.push_back(slot_of.at(piece.inputs[i]));
    }
    if (run.eager) {
      redirect_device_constants(*piece.graph, c10::kLazy, c10::Device(c10::kCPU));
      for (const Value* input : piece.inputs) step.reads.push_back(slot_of.at(input));
      step.eager = std::make_unique<torch::jit::Code>(piece.graph, "tracebench_eager_step");
      model->add_step(std::move(step), slots);
      continue;
    }
    // A lazy segment: its resident inputs lead, and live on the lazy device.
    ParameterizedGraph segment{piece.graph, {}};
    std::vector<c10::IValue> example;
    for (const Value* input : piece.inputs) {
      const size_t slot = slot_of.at(input);
      if (is_segment_resident(input)) {
        segment.resident.push_back(traced.resident[slot]);
        continue;
      }
      TORCH_CHECK(!holds_nested_tensors(input->type()), "lazy_trace_once: a ", input->type()->str(),
                  " crosses a graph break into a lazy segment (not supported)");
      step.reads.push_back(slot);
      example.push_back(slots[slot]);
    }
    if (!written.empty()) {
      // Return the written inputs after the outputs.
      Node* tuple = piece.graph->outputs()[0]->node();
      for (size_t i : written) tuple->addInput(piece.graph->inputs()[i]);
      std::vector<c10::TypePtr> types;
      for (const Value* element : tuple->inputs()) types.push_back(element->type());
      tuple->output()->setType(c10::TupleType::create(types));
    }
    step.lazy = compile_segment(std::move(segment), example);
    model->add_step(std::move(step), slots);
  }
  model->set_result_slot(slot_of.at(graph.outputs()[0]));
  return model;
}

}  // namespace tracebench::lazy
