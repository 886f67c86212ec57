#include "scattering.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <string>

#include "core/error.hpp"

namespace bolt {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Gauss-Legendre nodes and weights on [0, 1] (Newton on P_n from the Chebyshev guesses).
struct GaussLegendre {
  std::vector<double> x, w;
  explicit GaussLegendre(int n) {
    for (int i = 0; i < n; ++i) {
      double z = std::cos(kPi * (i + 0.75) / (n + 0.5)), derivative = 0.0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        double p0 = 1.0, p1 = z;
        for (int k = 2; k <= n; ++k) {
          const double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        derivative = n * (z * p1 - p0) / (z * z - 1.0);
        const double step = p1 / derivative;
        z -= step;
        if (std::abs(step) < 1e-15) break;
      }
      x.push_back(0.5 * (1.0 - z));
      w.push_back(1.0 / ((1.0 - z * z) * derivative * derivative));
    }
  }
};

const GaussLegendre& quadrature() {
  static const GaussLegendre rule(128);
  return rule;
}

// The outermost root of F(r) = 1 - b^2 / r^2 - V(r) / E, scanning inwards then bisecting.
double turning_point(const Potential& potential, double b, double energy) {
  const auto F = [&](double r) { return 1.0 - (b * b) / (r * r) - potential(r) / energy; };
  double outer = std::max(b, 1.0) + 8.0;
  const double step = 1e-2;
  double inner = outer - step;
  while (F(inner) > 0.0) {
    outer = inner;
    inner -= step;
    require(inner > 0.0, "scattering: no turning point for b = ", b, ", E = ", energy);
  }
  // To the last bit: chi depends on 1 - b / r0 through a square root.
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (inner + outer);
    if (middle <= inner || middle >= outer) break;
    (F(middle) > 0.0 ? outer : inner) = middle;
  }
  return outer;
}

// Monchick & Mason's Omega(2,2)* for the Lennard-Jones 12-6 potential (delta* = 0).
constexpr std::array<double, 37> kTStar = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
                                           1.2, 1.4, 1.6, 1.8, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0,
                                           6.0, 7.0, 8.0, 9.0, 10.0, 12.0, 14.0, 16.0, 18.0,
                                           20.0, 25.0, 30.0, 35.0, 40.0, 50.0, 75.0, 100.0};
constexpr std::array<double, 37> kOmega22 = {
    4.1005, 3.2626, 2.8399, 2.531,  2.2837, 2.0838, 1.922,   1.7902,  1.6823,  1.5929,
    1.4551, 1.3551, 1.28,   1.2219, 1.1757, 1.0933, 1.0388,  0.99963, 0.96988, 0.92676,
    0.89616, 0.87272, 0.85379, 0.83795, 0.82435, 0.80184, 0.78363, 0.76834, 0.75518, 0.74364,
    0.71982, 0.70097, 0.68545, 0.67232, 0.65099, 0.61397, 0.5887};

}  // namespace

double lennard_jones(double r) {
  const double s6 = 1.0 / (r * r * r * r * r * r);
  return 4.0 * (s6 * s6 - s6);
}

double hard_sphere(double r) { return r < 1.0 ? std::numeric_limits<double>::infinity() : 0.0; }

double deflection_angle(const Potential& potential, double b, double energy) {
  require(energy > 0.0, "scattering: the energy ", energy, " must be positive");
  if (b <= 0.0) return kPi;
  const double r0 = turning_point(potential, b, energy), beta = b / r0;
  const GaussLegendre& rule = quadrature();
  double integral = 0.0;
  for (std::size_t i = 0; i < rule.x.size(); ++i) {
    const double w = rule.x[i], u = 1.0 - w * w;
    const double g = 1.0 - beta * beta * u * u - potential(r0 / u) / energy;
    if (g > 0.0) integral += rule.w[i] * 2.0 * w * beta / std::sqrt(g);
  }
  return kPi - 2.0 * integral;
}

double lennard_jones_omega22(double t) {
  require(t >= kTStar.front() && t <= kTStar.back(), "Lennard-Jones: T* = ", t,
          " outside the Omega(2,2)* table (0.1 .. 100; -projection_temperature, "
          "-projection_lj_well)");
  const auto above = std::upper_bound(kTStar.begin(), kTStar.end(), t);
  const int i = std::clamp(int(above - kTStar.begin()) - 1, 1, int(kTStar.size()) - 2);
  const double x = std::log(t);
  double result = 0.0;
  for (int j = i - 1; j <= i + 1; ++j) {
    double term = kOmega22[j];
    for (int k = i - 1; k <= i + 1; ++k)
      if (k != j) term *= (x - std::log(kTStar[k])) / (std::log(kTStar[j]) - std::log(kTStar[k]));
    result += term;
  }
  return result;
}

double omega22_of_deflection(const std::function<double(double b, double energy)>& chi,
                             double b_max, double t) {
  const GaussLegendre& rule = quadrature();
  // E over [0, 40 T*] (exp(-40) E^3 is negligible), b over [0, b_max].
  const double e_top = 40.0 * t;
  double outer = 0.0;
  for (std::size_t i = 0; i < rule.x.size(); ++i) {
    const double e = e_top * rule.x[i];
    double q2 = 0.0;
    for (std::size_t j = 0; j < rule.x.size(); ++j) {
      const double b = b_max * rule.x[j], c = std::cos(chi(b, e));
      q2 += rule.w[j] * b_max * (1.0 - c * c) * b;
    }
    outer += rule.w[i] * e_top * std::exp(-e / t) * e * e * e * 3.0 * q2;
  }
  return outer / (6.0 * t * t * t * t);
}

DeflectionTable::DeflectionTable(const Potential& potential, double b_max, double g_max,
                                 double energy_per_g2, int b_points, int g_points)
    : b_max_(b_max), g_max_(g_max), nb_(b_points), ng_(g_points),
      chi_(std::size_t(b_points) * g_points) {
  require(b_points >= 2 && g_points >= 2 && b_max > 0.0 && g_max > 0.0 && energy_per_g2 > 0.0,
          "scattering: a deflection table needs two points and a positive range per axis");
  std::string error;  // an exception must not leave an OpenMP region: the first, after it
#pragma omp parallel for schedule(dynamic)
  for (int j = 0; j < ng_; ++j) {
    // g = 0 has no deflection integral: its row takes that of the first positive speed, which
    // only terms of negligible weight (c is proportional to g) ever read.
    const double g = g_max_ * std::max(j, 1) / (ng_ - 1);
    try {
      for (int i = 0; i < nb_; ++i)
        chi_[std::size_t(j) * nb_ + i] =
            deflection_angle(potential, b_max_ * i / (nb_ - 1), energy_per_g2 * g * g);
    } catch (const std::exception& e) {
#pragma omp critical(bolt_deflection_table_error)
      if (error.empty()) error = e.what();
    }
  }
  require(error.empty(), error);
}

double DeflectionTable::operator()(double b, double g) const {
  const double x = std::clamp(b / b_max_, 0.0, 1.0) * (nb_ - 1);
  const double y = std::clamp(g / g_max_, 0.0, 1.0) * (ng_ - 1);
  const int i = std::min(int(x), nb_ - 2), j = std::min(int(y), ng_ - 2);
  const double fx = x - i, fy = y - j;
  const double* row = chi_.data() + std::size_t(j) * nb_;
  const double* next = row + nb_;
  return (1.0 - fy) * ((1.0 - fx) * row[i] + fx * row[i + 1]) +
         fy * ((1.0 - fx) * next[i] + fx * next[i + 1]);
}

}  // namespace bolt
