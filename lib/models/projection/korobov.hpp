#pragma once
// Korobov lattice rules in 8 dimensions ("optimal coefficients"): the integration grid of the
// projection method's collision integral (paper 003). Point s = 0 .. p-1 of the rule (p, z),
// shifted by a vector c in [0, 1)^8, is x_j = frac(c_j + a_j (s + 1) / p), a_j = z^(j-1) mod p.
// The (p, z) pairs are the published table (../shared/refdata/projection/
// korobov_optimal_coefficients.md, rows of the form z^(j-1) mod p).
#include <array>
#include <cstdint>
#include <vector>

namespace bolt {

constexpr int kKorobovDimensions = 8;

struct KorobovRule {
  std::int64_t p = 0;                                 // points (prime)
  std::array<std::int64_t, kKorobovDimensions> a{};  // a_j = z^(j-1) mod p
};

// The rule of the table with the fewest points at least `points` (an error above the largest).
KorobovRule korobov_rule(std::int64_t points);
// The primes of the table, smallest first.
std::vector<std::int64_t> korobov_sizes();

// Point s of the rule shifted by `shift` (each in [0, 1)).
std::array<double, kKorobovDimensions> korobov_point(const KorobovRule& rule, std::int64_t s,
                                                      const std::array<double, kKorobovDimensions>& shift);

}  // namespace bolt
