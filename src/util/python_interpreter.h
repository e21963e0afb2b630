#pragma once
// The Python that runs tracebench's exporters (python/): the one whose torch
// is the LibTorch this build links, so that what it writes loads here.

#include <string>

namespace tracebench {

/// $TRACEBENCH_PYTHON, else the build's own: Debian's /usr/bin/python3 (which
/// has python3-torch; a python3 earlier on PATH may not) for the Debian build,
/// the virtual environment's for the PyTorch 2.x build.
std::string python_interpreter();

/// $TRACEBENCH_RUNTIME_PYTHON, else the build's: the Python of the peer
/// runtimes' environment (scripts/setup-peers.sh), which runs the worker of
/// the Python-run backends (backends/python_worker.h).
std::string runtime_python();

}  // namespace tracebench
