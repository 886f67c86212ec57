#pragma once
// The time mean of a noisy diagnostic (a Monte Carlo run's D or G, one sample per monitor row)
// over the window after its transient, with the standard error of that mean.
//
// The window starts where the transient ends, found from the data by MSER-5 (White, Simulation
// 69 (1997) 323; Franklin and White, Proc. Winter Simulation Conf. 2008): the samples are
// averaged in groups of 5, and the window starts at the group d that minimises
//   MSER(d) = sum_{i >= d} (y_i - mean_d)^2 / (m - d)^2,
// the squared standard error of the mean of what is left (m groups). Keeping a transient's drift
// raises the sum more than the longer window lowers it, so the minimum lies past the drift. d is
// searched in the first half of the data; a minimum at that half's end means the drift has not
// ended yet (no window).
//
// The error is by batch means: the window is cut into `batches` equal batches, whose means are
// close to independent and normal when a batch is much longer than the correlation time of the
// noise (a flight time across the cavity, or the viscous time at large delta); then the standard
// error of the mean is sd(batch means) / sqrt(batches). Where batches are not that long, their
// means stay correlated, which sd / sqrt(batches) alone leaves out: the error is scaled by the
// first-order autoregressive approximation of the batch means' correlations, as the Skart
// procedure does (Tafazzoli, Wilson et al., IIE Transactions 43 (2011) 110),
//   error = sd / sqrt(batches) * sqrt((1 + rho) / (1 - rho))   (rho > 0),
// with rho the lag-1 autocorrelation of the batch means, corrected for the bias of its estimate
// from few of them, E[r] = rho - (1 + 3 rho) / batches (Marriott and Pope, Biometrika 41 (1954)
// 390): rho = (batches r + 1) / (batches - 3). Past rho = kMostBatchCorrelation the batches are
// too short for that approximation (fewer than ~3.5 independent batches' worth of information)
// and the window is not ready: the run goes on until they are longer. A slow drift left in the
// window (the approach to the steady state that MSER let in) biases the mean without much lag-1
// correlation at 20 batches, so the means of the window's two halves must also agree within two
// standard errors of their difference (2 error, 95 %).
#include <cstddef>
#include <vector>

namespace bolt {

struct WindowMean {
  bool found = false;       // a window after the transient, in batches of at least
                            // kLeastBatchSamples: the fields below hold its statistics; without
                            // one they are zero, which is no mean
  bool ready = false;       // a window after the transient: batch means correlated at most
                            // kMostBatchCorrelation, halves that agree
  std::size_t start = 0;    // its first sample
  int batches = 0;
  double mean = 0.0;
  double error = 0.0;       // standard error of `mean`
  double lag1 = 0.0;        // lag-1 autocorrelation of the batch means, as estimated
  double correlation = 0.0; // the same corrected for the estimate's bias (rho above)
  double drift = 0.0;       // mean of the window's second half minus that of its first
};

// The fewest samples per batch: below it the batch means are not near normal.
constexpr std::size_t kLeastBatchSamples = 5;

// The batches of the run's window means (-ts_mean_tol, the summary): 20 makes the error's own
// relative uncertainty about 1/sqrt(2 (20 - 1)) = 16 % for independent batch means.
constexpr int kWindowBatches = 20;

// The largest bias-corrected lag-1 correlation of the batch means a window is taken with: at
// 0.7 the error is scaled by up to sqrt(1.7 / 0.3) = 2.4.
constexpr double kMostBatchCorrelation = 0.7;

// The window mean of `samples` (in time order) with `batches` batch means (at least 4).
WindowMean window_mean(const std::vector<double>& samples, int batches);

}  // namespace bolt
