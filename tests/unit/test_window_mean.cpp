// The window mean of a noisy diagnostic (lib/diagnostics/window_mean.hpp): MSER-5 finds the end
// of a decaying transient, the batch-means error matches the exact standard error of white
// noise, correlated noise in batches shorter than its correlation time fails the lag-1 test, and
// a drift left in the window fails the test of its two halves.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "diagnostics/window_mean.hpp"

namespace bolt {
namespace {

// 1 + a exp(-i / decay) + sigma * white noise.
std::vector<double> transient_and_noise(std::size_t n, double a, double decay, double sigma,
                                        unsigned seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = 1.0 + a * std::exp(-double(i) / decay) + sigma * normal(random);
  return x;
}

TEST(WindowMean, StartsAfterTheTransientAndEstimatesTheStandardError) {
  // 2000 samples, a transient of 0.5 decaying over 100 samples (below the noise 1e-3 after
  // ~620), noise 1e-3: the window must start after ~400 (where the drift is still 9 times the
  // noise) and hold the mean 1 within 4 standard errors. Over 200 series, the batch error's mean
  // against the exact sigma / sqrt(window): 1 within 10 % without the transient (its own spread
  // over 20 batches is 16 % per series, 1.1 % for the mean of 200), and with it at most 30 %
  // above (what MSER leaves of the drift in the first batches adds to their spread: measured
  // 17 %; the error errs on the safe side).
  for (const double transient : {0.0, 0.5}) {
    double error_ratio = 0.0;
    int ready = 0;
    const int series = 200;
    for (int s = 0; s < series; ++s) {
      const std::vector<double> x = transient_and_noise(2000, transient, 100.0, 1e-3, 1234 + s);
      const WindowMean w = window_mean(x, kWindowBatches);
      ready += w.ready;
      if (transient > 0.0) {
        ASSERT_GE(w.start, 400u) << "series " << s;
        ASSERT_LT(w.start, 1000u) << "series " << s;
      }
      EXPECT_NEAR(w.mean, 1.0, 4.0 * w.error + 1e-6) << "series " << s;
      error_ratio += w.error / (1e-3 / std::sqrt(double(x.size() - w.start)));
    }
    // The lag-1 test refuses 5 % of independent batch sets (its size), more where drift is left.
    EXPECT_GE(ready, series * 8 / 10) << "transient " << transient;
    if (transient == 0.0)
      EXPECT_NEAR(error_ratio / series, 1.0, 0.1);
    else
      EXPECT_LE(error_ratio / series, 1.3);
  }
}

TEST(WindowMean, NoWindowWhileTheDriftGoesOn) {
  // A transient that decays over the whole series: its minimum MSER lies at the end of the
  // searched half, so there is no window yet.
  const std::vector<double> x = transient_and_noise(400, 0.5, 2000.0, 1e-4, 7);
  EXPECT_FALSE(window_mean(x, kWindowBatches).ready);
}

TEST(WindowMean, CorrelatedBatchesFailTheLagOneTest) {
  // AR(1) noise with correlation time 200 samples and batches of 10: neighbouring batch means
  // share most of their noise (lag-1 near 1), so the error would be far too small; the test
  // refuses it. With the same noise in batches of 2000 (20 correlation times) it passes.
  std::mt19937_64 random(99);
  std::normal_distribution<double> normal(0.0, 1.0);
  const double rho = std::exp(-1.0 / 200.0);
  auto ar1 = [&](std::size_t n) {
    std::vector<double> x(n);
    double e = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      e = rho * e + std::sqrt(1.0 - rho * rho) * normal(random);
      x[i] = 1.0 + 1e-3 * e;
    }
    return x;
  };
  EXPECT_FALSE(window_mean(ar1(200), kWindowBatches).ready);
  int passed = 0;
  for (int s = 0; s < 20; ++s) passed += window_mean(ar1(40000), kWindowBatches).ready;
  EXPECT_GE(passed, 15);  // the test's size: 5 % of independent batch sets fail it, plus MSER
}

TEST(WindowMean, ASlowDriftIsNotAWindow) {
  // White noise 1e-3 on a linear drift of 1e-3 over 2000 samples (the window's halves differ by
  // ~5e-4, 10 times their standard error of ~4.5e-5): MSER finds no transient to cut, the lag-1
  // test alone may pass, the halves' test refuses it.
  std::mt19937_64 random(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> x(2000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = 1.0 + 1e-3 * double(i) / double(x.size()) + 1e-3 * normal(random);
  const WindowMean w = window_mean(x, kWindowBatches);
  EXPECT_GT(w.drift, 2e-4);
  EXPECT_FALSE(w.ready);
}

TEST(WindowMean, TooFewSamples) {
  EXPECT_FALSE(window_mean(std::vector<double>(50, 1.0), kWindowBatches).ready);
}

TEST(WindowMean, TooFewBatches) {
  // Fewer than 4 batches (0 and negative counts too) give no window, never a division by zero.
  const std::vector<double> x(2000, 1.0);
  for (const int batches : {-1, 0, 3}) EXPECT_FALSE(window_mean(x, batches).ready) << batches;
  EXPECT_TRUE(window_mean(x, 4).ready);
}

}  // namespace
}  // namespace bolt
