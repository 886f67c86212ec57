#pragma once
// The Maxwellian in bolt's units (velocity in c0 = sqrt(2 R T0), density in n0, temperature in
// T0): f_M = n (pi T)^(-3/2) exp(-|xi - u|^2 / T).
#include <cmath>

#include "core/host_device.hpp"

namespace bolt {

constexpr double kPi = 3.14159265358979323846;

BOLT_HOST_DEVICE inline double maxwellian_prefactor(double n, double T) {
  return n / (kPi * T * std::sqrt(kPi * T));
}

template <class Real>
BOLT_HOST_DEVICE inline Real maxwellian(double prefactor, double inv_T, const double u[3], Real x,
                                        Real y, Real z) {
  const Real cx = x - Real(u[0]), cy = y - Real(u[1]), cz = z - Real(u[2]);
  return Real(prefactor) * exp(-(cx * cx + cy * cy + cz * cz) * Real(inv_T));
}

}  // namespace bolt
