#pragma once
// OpenBLAS's thread pool, reached at run time: libblas.so.3 is whichever BLAS
// Debian's alternatives point at, and only OpenBLAS has these entry points.

namespace tracebench {

/// openblas_get_num_threads(), or 0 when OpenBLAS is not the loaded BLAS.
int openblas_threads();

/// openblas_set_num_threads(threads); does nothing when OpenBLAS is not loaded.
void set_openblas_threads(int threads);

}  // namespace tracebench
