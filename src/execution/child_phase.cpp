#include "execution/child_phase.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>

namespace tracebench {

namespace {

// The file's layout: fixed size, so both sides agree without a parser.
struct Board {
  int phase;
  int baseline;
  char backend[248];   // NUL-terminated, cut to fit
  char candidate[64];  // likewise
};

void copy_cut(char* to, size_t size, const std::string& text) {
  const size_t length = std::min(text.size(), size - 1);
  std::memcpy(to, text.data(), length);
  to[length] = '\0';
}

Board* board = nullptr;

}  // namespace

std::string ChildActivity::describe() const {
  const std::string subject = baseline            ? "the eager baseline"
                              : candidate.empty() ? backend
                                                  : backend + "'s candidate " + candidate;
  switch (phase) {
    case ChildPhase::kStarting:
      return "starting";
    case ChildPhase::kLoading:
      return "loading the model";
    case ChildPhase::kCompiling:
      return "compiling " + subject;
    case ChildPhase::kRunning:
      return "running " + subject;
    case ChildPhase::kSampling:
      return "sampling " + subject;
  }
  return "starting";
}

void open_child_phase_board(const std::string& path) {
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;  // the parent then only knows that the child died
  if (ftruncate(fd, sizeof(Board)) == 0) {
    void* mapped = mmap(nullptr, sizeof(Board), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped != MAP_FAILED) board = static_cast<Board*>(mapped);
  }
  close(fd);  // the mapping keeps the file
}

void publish_child_phase(ChildPhase phase, const std::string& backend, bool baseline,
                         const std::string& candidate) {
  if (!board) return;
  copy_cut(board->backend, sizeof board->backend, backend);
  copy_cut(board->candidate, sizeof board->candidate, candidate);
  board->baseline = baseline ? 1 : 0;
  board->phase = static_cast<int>(phase);
}

ChildActivity read_child_phase_board(const std::string& path) {
  Board stored{};
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(&stored), sizeof stored)) return {};
  stored.backend[sizeof(stored.backend) - 1] = '\0';
  stored.candidate[sizeof(stored.candidate) - 1] = '\0';
  ChildActivity activity;
  if (stored.phase >= static_cast<int>(ChildPhase::kStarting) &&
      stored.phase <= static_cast<int>(ChildPhase::kSampling)) {
    activity.phase = static_cast<ChildPhase>(stored.phase);
  }
  activity.backend = stored.backend;
  activity.baseline = stored.baseline != 0;
  activity.candidate = stored.candidate;
  return activity;
}

}  // namespace tracebench
