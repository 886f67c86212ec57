#include "riemann.hpp"

#include <cmath>

#include "core/error.hpp"

namespace bolt {

namespace {

// Toro's pressure function f_K(p) and its derivative for one side.
void pressure_function(double p, const PrimitiveState& s, double gamma, double& f, double& df) {
  const double a = std::sqrt(gamma * s.p / s.rho);
  if (p > s.p) {  // shock
    const double A = 2.0 / ((gamma + 1.0) * s.rho), B = (gamma - 1.0) / (gamma + 1.0) * s.p;
    const double root = std::sqrt(A / (p + B));
    f = (p - s.p) * root;
    df = root * (1.0 - 0.5 * (p - s.p) / (p + B));
  } else {  // rarefaction
    const double ratio = p / s.p;
    f = 2.0 * a / (gamma - 1.0) * (std::pow(ratio, (gamma - 1.0) / (2.0 * gamma)) - 1.0);
    df = 1.0 / (s.rho * a) * std::pow(ratio, -(gamma + 1.0) / (2.0 * gamma));
  }
}

double star_density(double p, const PrimitiveState& s, double gamma) {
  if (p > s.p) {
    const double r = p / s.p, g = (gamma - 1.0) / (gamma + 1.0);
    return s.rho * (r + g) / (g * r + 1.0);
  }
  return s.rho * std::pow(p / s.p, 1.0 / gamma);
}

}  // namespace

RiemannStar solve_riemann(const PrimitiveState& left, const PrimitiveState& right, double gamma) {
  require(left.rho > 0 && right.rho > 0 && left.p > 0 && right.p > 0,
          "Riemann problem: densities and pressures must be positive");
  double p = 0.5 * (left.p + right.p);
  for (int it = 0; it < 100; ++it) {
    double fl, dfl, fr, dfr;
    pressure_function(p, left, gamma, fl, dfl);
    pressure_function(p, right, gamma, fr, dfr);
    const double next = std::max(1e-14, p - (fl + fr + right.u - left.u) / (dfl + dfr));
    const bool converged = std::abs(next - p) < 1e-15 * (next + p);
    p = next;
    if (converged) break;
  }
  double fl, dfl, fr, dfr;
  pressure_function(p, left, gamma, fl, dfl);
  pressure_function(p, right, gamma, fr, dfr);
  RiemannStar star;
  star.p = p;
  star.u = 0.5 * (left.u + right.u) + 0.5 * (fr - fl);
  star.rho_left = star_density(p, left, gamma);
  star.rho_right = star_density(p, right, gamma);
  const double ar = std::sqrt(gamma * right.p / right.rho);
  star.shock_speed_right =
      right.u + ar * std::sqrt((gamma + 1.0) / (2.0 * gamma) * p / right.p + (gamma - 1.0) / (2.0 * gamma));
  return star;
}

PrimitiveState sample_riemann(const PrimitiveState& left, const PrimitiveState& right,
                              double gamma, const RiemannStar& star, double s) {
  const double g1 = (gamma - 1.0) / (gamma + 1.0);
  if (s <= star.u) {  // left of the contact
    const double al = std::sqrt(gamma * left.p / left.rho);
    if (star.p > left.p) {
      const double speed = left.u - al * std::sqrt((gamma + 1.0) / (2.0 * gamma) * star.p / left.p +
                                                   (gamma - 1.0) / (2.0 * gamma));
      return s < speed ? left : PrimitiveState{star.rho_left, star.u, star.p};
    }
    const double head = left.u - al;
    const double a_star = al * std::pow(star.p / left.p, (gamma - 1.0) / (2.0 * gamma));
    const double tail = star.u - a_star;
    if (s < head) return left;
    if (s > tail) return {star.rho_left, star.u, star.p};
    const double c = 2.0 / (gamma + 1.0) + g1 / al * (left.u - s);
    return {left.rho * std::pow(c, 2.0 / (gamma - 1.0)),
            2.0 / (gamma + 1.0) * (al + (gamma - 1.0) / 2.0 * left.u + s),
            left.p * std::pow(c, 2.0 * gamma / (gamma - 1.0))};
  }
  const double ar = std::sqrt(gamma * right.p / right.rho);
  if (star.p > right.p) {
    return s > star.shock_speed_right ? right : PrimitiveState{star.rho_right, star.u, star.p};
  }
  const double head = right.u + ar;
  const double a_star = ar * std::pow(star.p / right.p, (gamma - 1.0) / (2.0 * gamma));
  const double tail = star.u + a_star;
  if (s > head) return right;
  if (s < tail) return {star.rho_right, star.u, star.p};
  const double c = 2.0 / (gamma + 1.0) - g1 / ar * (right.u - s);
  return {right.rho * std::pow(c, 2.0 / (gamma - 1.0)),
          2.0 / (gamma + 1.0) * (-ar + (gamma - 1.0) / 2.0 * right.u + s),
          right.p * std::pow(c, 2.0 * gamma / (gamma - 1.0))};
}

}  // namespace bolt
