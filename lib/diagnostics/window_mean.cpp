#include "diagnostics/window_mean.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bolt {

namespace {

constexpr std::size_t kGroup = 5;  // MSER-5

// The first sample of the window by MSER-5, or samples.size() where the transient is not over.
std::size_t mser_start(const std::vector<double>& samples) {
  const std::size_t m = samples.size() / kGroup;
  if (m < 4) return samples.size();
  // Group means, the latest groups aligned to the end of the series.
  const std::size_t offset = samples.size() - m * kGroup;
  std::vector<double> y(m, 0.0);
  for (std::size_t g = 0; g < m; ++g) {
    for (std::size_t k = 0; k < kGroup; ++k) y[g] += samples[offset + g * kGroup + k];
    y[g] /= double(kGroup);
  }
  // Suffix sums give each MSER(d) in O(1).
  std::vector<double> sum(m + 1, 0.0), sum2(m + 1, 0.0);
  for (std::size_t g = m; g-- > 0;) {
    sum[g] = sum[g + 1] + y[g];
    sum2[g] = sum2[g + 1] + y[g] * y[g];
  }
  std::size_t best = 0;
  double least = std::numeric_limits<double>::infinity();
  const std::size_t half = m / 2;
  for (std::size_t d = 0; d <= half; ++d) {
    const double left = double(m - d);
    const double squares = sum2[d] - sum[d] * sum[d] / left;
    const double mser = std::max(squares, 0.0) / (left * left);
    if (mser < least) {
      least = mser;
      best = d;
    }
  }
  if (best == half) return samples.size();
  return offset + best * kGroup;
}

}  // namespace

WindowMean window_mean(const std::vector<double>& samples, int batches) {
  WindowMean w;
  w.batches = batches;
  w.start = mser_start(samples);
  if (batches < 4) return w;  // before the division: 0 or a negative count has no batches
  const std::size_t length = samples.size() - w.start;
  const std::size_t per_batch = length / std::size_t(batches);
  if (per_batch < kLeastBatchSamples) return w;
  // The batches end at the last sample; the window's first few samples (length % batches) are
  // left out.
  const std::size_t first = samples.size() - per_batch * std::size_t(batches);
  std::vector<double> means(std::size_t(batches), 0.0);
  for (int b = 0; b < batches; ++b) {
    for (std::size_t k = 0; k < per_batch; ++k) means[b] += samples[first + b * per_batch + k];
    means[b] /= double(per_batch);
  }
  double mean = 0.0;
  for (double m : means) mean += m;
  mean /= double(batches);
  double var = 0.0, cov = 0.0;
  for (int b = 0; b < batches; ++b) {
    const double d = means[b] - mean;
    var += d * d;
    if (b + 1 < batches) cov += d * (means[b + 1] - mean);
  }
  w.found = true;
  w.start = first;
  w.mean = mean;
  w.lag1 = var > 0.0 ? cov / var : 0.0;
  // Equal batch means (no noise) have no correlation to correct.
  w.correlation = var > 0.0 ? (double(batches) * w.lag1 + 1.0) / double(batches - 3) : 0.0;
  // Negative correlations are taken as none: from 20 batch means they are mostly the estimate's
  // noise, and would shrink the error.
  const double rho = std::clamp(w.correlation, 0.0, kMostBatchCorrelation);
  w.error = std::sqrt(var / double(batches - 1) / double(batches) * (1.0 + rho) / (1.0 - rho));
  // The drift left in the window: the means of its two halves, whose difference has the standard
  // error 2 w.error (two means of B/2 batch means each).
  const int half = batches / 2;
  double early = 0.0, late = 0.0;
  for (int b = 0; b < half; ++b) early += means[b] / double(half);
  for (int b = batches - half; b < batches; ++b) late += means[b] / double(half);
  w.drift = late - early;
  w.ready = w.correlation <= kMostBatchCorrelation && std::abs(w.drift) <= 2.0 * (2.0 * w.error);
  return w;
}

}  // namespace bolt
