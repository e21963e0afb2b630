#pragma once
// Waits out the threads that spin after a call.

namespace tracebench {

/// Returns once no other thread of this process is running (each one's
/// /proc state is not R), or after 100 ms. A thread pool's workers spin for
/// a while after each call before they sleep, each pool its own way;
/// measured here (2-core EPYC) as CPU time burnt in the idle 300 ms after one
/// call: LibTorch's OpenMP (libgomp) 3.4 ms, caffe2's pthreadpool under
/// XNNPACK 28 ms, ONNX Runtime's pool about 40 ms (in its worker, which waits
/// the same way: python/runtime_worker.py). A contender timed while another
/// pool's workers spin loses a core to them: on mobilenet_v2, eager ran
/// 1.5-2x its time alone between OpenVINO's and ONNX Runtime's samples.
/// Thread states, not CPU time: the kernel charges another core's running
/// thread in 4 ms ticks, too coarse to see a spin end. Under
/// --omp-wait active, OpenMP's threads never stop, hence the bound.
/// Returns whether the threads went quiet (false: the bound ended the wait).
bool wait_for_quiet_threads();

}  // namespace tracebench
