#include "backends/lazy/lazy_kernels.h"

#include <ATen/ATen.h>
#include <torch/csrc/lazy/core/metrics.h>
#include <torch/library.h>

#include <cmath>
#include <limits>
#include <mutex>
#include <tuple>

namespace tracebench::lazy {

namespace {

// The copy ops functionalization turns split / split_with_sizes / unbind
// into: one slice_copy or select_copy per element, which LTC lowers.
std::vector<at::Tensor> slices_of_sizes(const at::Tensor& self, at::IntArrayRef sizes,
                                        int64_t dim) {
  std::vector<at::Tensor> parts;
  parts.reserve(sizes.size());
  int64_t start = 0;
  for (int64_t size : sizes) {
    parts.push_back(at::slice_copy(self, dim, start, start + size, 1));
    start += size;
  }
  return parts;
}

std::vector<at::Tensor> slices_of_size(const at::Tensor& self, int64_t split_size, int64_t dim) {
  TORCH_CHECK(split_size >= 0, "split expects split_size be non-negative, but got ", split_size);
  const int64_t length = self.size(dim);
  std::vector<int64_t> sizes;
  // As aten::split: equal parts of split_size, the last one shorter; one empty
  // part for an empty dimension.
  for (int64_t start = 0; start < length || sizes.empty(); start += split_size) {
    sizes.push_back(std::min(split_size, length - start));
    if (split_size == 0) break;
  }
  return slices_of_sizes(self, sizes, dim);
}

std::vector<at::Tensor> selects(const at::Tensor& self, int64_t dim) {
  std::vector<at::Tensor> parts;
  const int64_t length = self.size(dim);
  parts.reserve(length);
  for (int64_t i = 0; i < length; ++i) parts.push_back(at::select_copy(self, dim, i));
  return parts;
}

// x[:, idx] with one integer index tensor among full slices (an
// embedding-table or relative-position lookup) is an index_select, which LTC
// lowers. Anything else (several index tensors, a boolean mask whose result
// shape depends on the data) runs on the CPU, counted as an eager fallback
// like LTC's own.
at::Tensor index_by_select(const at::Tensor& self,
                           const c10::List<c10::optional<at::Tensor>>& indices) {
  int64_t dim = -1;
  bool single_integer_index = true;
  for (size_t i = 0; i < indices.size(); ++i) {
    const c10::optional<at::Tensor> index = indices.get(i);
    if (!index || !index->defined()) continue;  // a full slice
    if (dim >= 0 || at::isFloatingType(index->scalar_type()) || index->scalar_type() == at::kBool ||
        index->scalar_type() == at::kByte) {
      single_integer_index = false;
    }
    dim = static_cast<int64_t>(i);
  }
  if (single_integer_index && dim >= 0) {
    const at::Tensor position = *indices.get(dim);
    const int64_t length = self.size(dim);
    // index_select takes no negative positions; aten::index counts them from
    // the end. (Not with where(), which LTC 1.13 does not lower.)
    const at::Tensor wrapped = position.lt(0).to(position.scalar_type()).mul(length).add(position);
    std::vector<int64_t> shape(self.sizes().begin(), self.sizes().begin() + dim);
    shape.insert(shape.end(), position.sizes().begin(), position.sizes().end());
    shape.insert(shape.end(), self.sizes().begin() + dim + 1, self.sizes().end());
    // view_copy, not reshape: below functionalization, LTC has no view ops.
    return at::view_copy(at::index_select(self, dim, at::view_copy(wrapped, {-1})), shape);
  }
  TORCH_LAZY_COUNTER("aten::index", 1);
  c10::List<c10::optional<at::Tensor>> cpu_indices;
  for (size_t i = 0; i < indices.size(); ++i) {
    const c10::optional<at::Tensor> index = indices.get(i);
    cpu_indices.push_back(index && index->defined() ? c10::optional<at::Tensor>(index->to(at::kCPU))
                                                    : c10::nullopt);
  }
  return at::index(self.to(at::kCPU), cpu_indices).to(self.device());
}

// x.fill_(t) with a 0-dim tensor t (torchvision's Swin builds its shifted
// window mask so; functionalization makes it fill.Tensor): t expanded to x's
// shape. The fallback would split the traced region, and an in-place copy_
// would sync it.
at::Tensor filled_like(const at::Tensor& self, const at::Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
              value.dim(), " dimensions.");
  return at::expand_copy(value.to(self.options()), self.sizes());
}

// roll as the two slices it swaps, per dimension (Swin's shifted windows).
at::Tensor rolled(const at::Tensor& self, at::IntArrayRef shifts, at::IntArrayRef dims) {
  if (dims.empty()) {
    TORCH_CHECK(shifts.size() == 1, "roll without dims takes one shift");
    return at::view_copy(rolled(at::view_copy(self, {-1}), shifts, {0}), self.sizes());
  }
  TORCH_CHECK(shifts.size() == dims.size(),
              "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", dims.size());
  at::Tensor result = self;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t length = result.size(dims[i]);
    if (length == 0) continue;
    const int64_t shift = ((shifts[i] % length) + length) % length;
    if (shift == 0) continue;
    result = at::cat({at::slice_copy(result, dims[i], length - shift, length),
                      at::slice_copy(result, dims[i], 0, length - shift)},
                     dims[i]);
  }
  return result.is_same(self) ? at::clone(self) : result;
}

// floor_divide rounds down since PyTorch 1.13: div with rounding_mode floor.
at::Tensor floor_divided(const at::Tensor& self, const at::Tensor& other) {
  return at::div(self, other, "floor");
}

// nn.MultiheadAttention's inference fast path (torchvision's ViT, self-attention
// with batch_first) records the fused _native_multi_head_attention, which LTC
// cannot lower. The same computation from lowered ops: q, k, v projections,
// q scaled by 1/sqrt(head_dim) (where the fused op scales it), softmax over
// keys, the output projection. Copy ops throughout: below functionalization
// LTC has no view ops. Only the masks the fast path passes on 1.13 (none, or
// a key-padding mask, mask_type 1); any other mask throws, and the segmented
// capture runs the op on the CPU instead.
std::tuple<at::Tensor, at::Tensor> multi_head_attention(
    const at::Tensor& query, const at::Tensor& key, const at::Tensor& value, int64_t embed_dim,
    int64_t num_heads, const at::Tensor& qkv_weight, const at::Tensor& qkv_bias,
    const at::Tensor& proj_weight, const at::Tensor& proj_bias,
    const c10::optional<at::Tensor>& mask, bool need_weights, bool average_weights,
    c10::optional<int64_t> mask_type) {
  const bool masked = mask && mask->defined();
  TORCH_CHECK(!masked || (mask_type == 1 && mask->scalar_type() == at::kBool),
              "lazy _native_multi_head_attention takes a boolean key-padding mask only");
  TORCH_CHECK(query.dim() == 3 && embed_dim % num_heads == 0,
              "lazy _native_multi_head_attention takes batched (B, L, E) inputs");
  const int64_t batch = query.size(0);
  const int64_t head_dim = embed_dim / num_heads;
  // (B, len, E) -> the rows of one projection, as (B, heads, len, head_dim).
  auto heads_of = [&](const at::Tensor& x, int64_t part) {
    const int64_t length = x.size(1);
    const auto weight = at::slice_copy(qkv_weight, 0, part * embed_dim, (part + 1) * embed_dim);
    const auto bias = at::slice_copy(qkv_bias, 0, part * embed_dim, (part + 1) * embed_dim);
    const auto projected = at::addmm(bias, at::view_copy(x, {batch * length, embed_dim}),
                                     at::transpose_copy(weight, 0, 1));
    return at::permute_copy(at::view_copy(projected, {batch, length, num_heads, head_dim}),
                            {0, 2, 1, 3});
  };
  const at::Tensor q = heads_of(query, 0).mul(1.0 / std::sqrt(static_cast<double>(head_dim)));
  const at::Tensor k = heads_of(key, 1);
  const at::Tensor v = heads_of(value, 2);
  const int64_t target = q.size(2);
  const int64_t source = k.size(2);
  at::Tensor scores = at::view_copy(
      at::bmm(at::view_copy(q, {batch * num_heads, target, head_dim}),
              at::transpose_copy(at::view_copy(k, {batch * num_heads, source, head_dim}), 1, 2)),
      {batch, num_heads, target, source});
  if (masked) {
    const auto padding = at::expand_copy(at::view_copy(*mask, {batch, 1, 1, source}),
                                         {batch, num_heads, target, source});
    scores = scores.masked_fill(padding, -std::numeric_limits<double>::infinity());
  }
  const at::Tensor weights = at::_softmax(scores, -1, false);
  const auto context = at::bmm(at::view_copy(weights, {batch * num_heads, target, source}),
                               at::view_copy(v, {batch * num_heads, source, head_dim}));
  const auto rows = at::view_copy(
      at::permute_copy(at::view_copy(context, {batch, num_heads, target, head_dim}), {0, 2, 1, 3}),
      {batch * target, embed_dim});
  const auto output =
      at::view_copy(at::addmm(proj_bias, rows, at::transpose_copy(proj_weight, 0, 1)),
                    {batch, target, embed_dim});
  if (!need_weights) return {output, at::Tensor()};
  return {output, average_weights ? weights.sum(1).div(num_heads) : weights};
}

}  // namespace

void register_lazy_kernels() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Never destroyed: the registrations must outlive every lazy tensor.
    auto* library = new torch::Library(torch::Library::IMPL, "aten", c10::DispatchKey::Lazy,
                                       __FILE__, __LINE__);
    library->impl("split_copy.Tensor", TORCH_FN(slices_of_size));
    library->impl("split_with_sizes_copy", TORCH_FN(slices_of_sizes));
    library->impl("unbind_copy.int", TORCH_FN(selects));
    library->impl("unsafe_split.Tensor", TORCH_FN(slices_of_size));
    library->impl("unsafe_split_with_sizes", TORCH_FN(slices_of_sizes));
    library->impl("index.Tensor", TORCH_FN(index_by_select));
    library->impl("fill.Tensor", TORCH_FN(filled_like));
    library->impl("roll", TORCH_FN(rolled));
    library->impl("floor_divide", TORCH_FN(floor_divided));
    library->impl("_native_multi_head_attention", TORCH_FN(multi_head_attention));
  });
}

}  // namespace tracebench::lazy
