#include "host_bandwidth.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace bolt {

std::size_t default_stream_array_bytes() {
  const long cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const std::size_t lower = std::size_t(256) << 20, upper = std::size_t(1) << 30;
  return std::clamp(cache > 0 ? 4 * std::size_t(cache) : lower, lower, upper);
}

HostStream::HostStream(std::size_t array_bytes)
    : n_(std::max<std::size_t>(array_bytes / sizeof(double), 1)),
      a_(new double[n_]), b_(new double[n_]), c_(new double[n_]) {
  double *a = a_.get(), *b = b_.get(), *c = c_.get();
  const std::int64_t n = std::int64_t(n_);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.0;
  }
}

HostStream::~HostStream() = default;

void HostStream::measure(int passes) {
  using clock = std::chrono::steady_clock;
  double *a = a_.get(), *b = b_.get(), *c = c_.get();
  const std::int64_t n = std::int64_t(n_);
  const double scalar = 3.0;
  for (int pass = 0; pass < passes; ++pass) {
    const auto t0 = clock::now();
#pragma omp parallel for simd schedule(static)
    for (std::int64_t i = 0; i < n; ++i) c[i] = a[i];
    const auto t1 = clock::now();
#pragma omp parallel for simd schedule(static)
    for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
    const auto t2 = clock::now();
    const double copy = std::chrono::duration<double>(t1 - t0).count();
    const double triad = std::chrono::duration<double>(t2 - t1).count();
    best_copy_ = passes_ == 0 ? copy : std::min(best_copy_, copy);
    best_triad_ = passes_ == 0 ? triad : std::min(best_triad_, triad);
    ++passes_;
  }
}

double HostStream::copy_bytes_per_second() const {
  return best_copy_ > 0.0 ? 2.0 * double(array_bytes()) / best_copy_ : 0.0;
}

double HostStream::triad_bytes_per_second() const {
  return best_triad_ > 0.0 ? 3.0 * double(array_bytes()) / best_triad_ : 0.0;
}

}  // namespace bolt
