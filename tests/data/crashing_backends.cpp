// Backends that take their process down on purpose, for the containment
// tests (docs/robustness.md): a crash in one backend must cost that backend's
// row only. Load with --backend-plugin tests/data/crashing_backends.cpp.
#include <tracebench/backend.h>

#include <csignal>
#include <cstdlib>
#include <cstdio>

namespace {

// Calls abort() in compile, after a last word on stderr as a glog CHECK would.
class AbortsInCompile : public tracebench::Backend {
 public:
  std::string name() const override { return "aborts_in_compile"; }
  std::string description() const override { return "calls abort() in compile (a test)"; }
  std::unique_ptr<tracebench::CompiledModel> compile(tracebench::Model&,
                                                     const tracebench::CompileOptions&) override {
    std::fprintf(stderr, "F0000 00:00:00.000000 1 crashing_backends.cpp:1] Check failed: on purpose\n");
    std::abort();
  }
};

class SegfaultingModel : public tracebench::CompiledModel {
 public:
  c10::IValue run(const std::vector<c10::IValue>&) override {
    std::raise(SIGSEGV);
    return c10::IValue();
  }
};

// Compiles fine, then dies by SIGSEGV in its first run.
class SegfaultsInRun : public tracebench::Backend {
 public:
  std::string name() const override { return "segfaults_in_run"; }
  std::string description() const override { return "raises SIGSEGV in run (a test)"; }
  std::unique_ptr<tracebench::CompiledModel> compile(tracebench::Model&,
                                                     const tracebench::CompileOptions&) override {
    return std::make_unique<SegfaultingModel>();
  }
};

}  // namespace

TRACEBENCH_REGISTER_BACKEND(aborts_in_compile, AbortsInCompile)
TRACEBENCH_REGISTER_BACKEND(segfaults_in_run, SegfaultsInRun)
