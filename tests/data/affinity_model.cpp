// A test double of a user model that says where it runs: its output is the
// CPUs its process may run on (sched_getaffinity), so that a test reads a
// model process's binding back through --save-outputs (tests/e2e/launcher_test.cpp).
#include <sched.h>
#include <tracebench/model.h>

#include <vector>

struct AffinityModel : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<float> cpus;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
      for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set)) cpus.push_back(static_cast<float>(cpu));
      }
    }
    return torch::tensor(cpus) + x;
  }

  std::vector<torch::Tensor> get_example_inputs() { return {torch::zeros({1})}; }
};
TRACEBENCH_REGISTER_MODEL(AffinityModel)
