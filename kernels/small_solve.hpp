#pragma once
// Dense Gaussian elimination with partial pivoting for the small systems solved per cell (the 5 x 5
// Newton step of the conservative equilibrium). Runs on host and device; every thread of a team
// performs the same operations on the same data, so all get the same answer.
#include <cmath>

#include "core/host_device.hpp"

namespace bolt {

// Solves A x = b in place (b becomes x). Returns false for a singular matrix.
template <int N>
BOLT_HOST_DEVICE inline bool solve_dense(double A[N][N], double b[N]) {
  for (int col = 0; col < N; ++col) {
    int pivot = col;
    for (int row = col + 1; row < N; ++row)
      if (fabs(A[row][col]) > fabs(A[pivot][col])) pivot = row;
    if (A[pivot][col] == 0.0) return false;
    if (pivot != col) {
      for (int k = 0; k < N; ++k) {
        const double t = A[col][k];
        A[col][k] = A[pivot][k];
        A[pivot][k] = t;
      }
      const double t = b[col];
      b[col] = b[pivot];
      b[pivot] = t;
    }
    for (int row = col + 1; row < N; ++row) {
      const double factor = A[row][col] / A[col][col];
      for (int k = col; k < N; ++k) A[row][k] -= factor * A[col][k];
      b[row] -= factor * b[col];
    }
  }
  for (int row = N - 1; row >= 0; --row) {
    double sum = b[row];
    for (int k = row + 1; k < N; ++k) sum -= A[row][k] * b[k];
    b[row] = sum / A[row][row];
  }
  return true;
}

}  // namespace bolt
