#include "case/velocity_coverage.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "kernels/maxwellian.hpp"

namespace bolt {

namespace {

struct GasOf {
  std::string what;  // "the initial state", "the wall of -bc_y_high", ...
  double u[3];
  double T;
};

std::string vector_text(const double u[3]) {
  char text[96];
  std::snprintf(text, sizeof text, "%g,%g,%g", u[0], u[1], u[2]);
  return text;
}

// The Maxwellians a run starts from or lets in.
std::vector<GasOf> coverage_states(const RunOptions& run) {
  std::vector<GasOf> states;
  const InitialState& init = run.initial;
  const double rest[3] = {0.0, 0.0, 0.0};
  switch (init.kind) {
    case InitKind::uniform:
      states.push_back({"the initial state (-init_)", {init.velocity[0], init.velocity[1],
                                                       init.velocity[2]}, init.temperature});
      break;
    case InitKind::riemann:
      states.push_back({"the left initial state (-init_left)", {init.left[1], 0, 0}, init.left[2]});
      states.push_back({"the right initial state (-init_right)", {init.right[1], 0, 0},
                        init.right[2]});
      break;
    case InitKind::bimaxwellian: {
      const double hottest =
          std::max({init.temperature_axes[0], init.temperature_axes[1], init.temperature_axes[2]});
      states.push_back({"the initial state (-init_temperature_axes)",
                        {init.velocity[0], init.velocity[1], init.velocity[2]}, hottest});
      if (init.second_density > 0.0)
        states.push_back({"the second initial Maxwellian (-init_second_)",
                          {init.second_velocity[0], init.second_velocity[1],
                           init.second_velocity[2]},
                          init.second_temperature});
      break;
    }
    case InitKind::fields: {
      // The file's hottest gas and its fastest.
      const std::vector<FieldsGas> gas = init.fields->gas_cells();
      const auto speed = [](const FieldsGas& g) {
        return g.u[0] * g.u[0] + g.u[1] * g.u[1] + g.u[2] * g.u[2];
      };
      const auto hottest = std::max_element(gas.begin(), gas.end(), [](const auto& a, const auto& b) {
        return a.T < b.T;
      });
      const auto fastest = std::max_element(gas.begin(), gas.end(), [&](const auto& a, const auto& b) {
        return speed(a) < speed(b);
      });
      for (const auto& [what, g] : {std::pair{"the hottest gas of -init_fields", hottest},
                                    std::pair{"the fastest gas of -init_fields", fastest}})
        if (g != gas.end()) states.push_back({what, {g->u[0], g->u[1], g->u[2]}, g->T});
      break;
    }
  }
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      const FaceSpec& f = run.faces[a][s];
      if (run.axes[a].cells <= 1 || (f.kind != FaceKind::wall && f.kind != FaceKind::inflow))
        continue;
      const std::string option = std::string("-bc_") + axis[a] + (s ? "_high" : "_low");
      states.push_back({std::string(f.kind == FaceKind::wall ? "the wall of " : "the inflow of ") +
                            option,
                        {f.velocity[0], f.velocity[1], f.velocity[2]}, f.temperature});
    }
  if (!run.geometry_solids.empty())
    states.push_back({"the solid walls (-geometry_solid_temperature)", {rest[0], rest[1], rest[2]},
                      run.solid_temperature});
  return states;
}

struct Held {
  double mass, energy;  // shares of the exact ones
};

// The mass and (thermal) energy of the Maxwellian of n = 1 at `state` summed on the grid.
Held held_by_grid(const GasOf& state, const VelocityGrid& vg) {
  const double prefactor = maxwellian_prefactor(1.0, state.T);
  double mass = 0.0, energy = 0.0;
  for (int v = 0; v < vg.size(); ++v) {
    const double f = maxwellian<double>(prefactor, 1.0 / state.T, state.u, vg.xi[0][v],
                                        vg.xi[1][v], vg.xi[2][v]) *
                     vg.reduced_factor(v, state.T);
    double c2 = 0.0;
    for (int k = 0; k < 3; ++k) c2 += (vg.xi[k][v] - state.u[k]) * (vg.xi[k][v] - state.u[k]);
    mass += vg.weight[v] * f;
    energy += vg.weight[v] * f * c2 + vg.h_weight_of(v) * f;  // h: the reduced axes' |c_r|^2
  }
  return {mass, energy / (1.5 * state.T)};  // of n = 1: int f |c|^2 = (3/2) n T (physics.md)
}

}  // namespace

double equilibrium_energy_error(const RunOptions& run, const VelocityGrid& vg) {
  double worst = 0.0;
  for (const GasOf& state : coverage_states(run)) {
    const Held held = held_by_grid(state, vg);
    if (held.mass > 0.0) worst = std::max(worst, std::abs(held.energy / held.mass - 1.0));
  }
  return worst;
}

void check_velocity_coverage(const RunOptions& run, const VelocityGrid& vg) {
  const double tolerance = run.velocity_tolerance;
  for (const GasOf& state : coverage_states(run)) {
    const auto [mass, energy] = held_by_grid(state, vg);
    if (std::abs(mass - 1.0) <= tolerance && std::abs(energy - 1.0) <= tolerance) continue;
    // The midpoint rule on exp(-x^2 / T) errs by 2 exp(-pi^2 T / h^2): nodes wider than where
    // that reaches the tolerance make the grid too coarse; narrower ones leave the box too small.
    double widest = 0.0;
    for (int a = 0; a < 3; ++a)
      if (!vg.reduced[a])  // a reduced axis is integrated exactly
        for (double w : vg.axes[a].widths) widest = std::max(widest, w);
    const bool coarse = widest > 3.14159265358979 * std::sqrt(state.T / std::log(2.0 / tolerance));
    const bool missing = !coarse;
    const VelocityGridSpec& spec = run.velocity_grid;
    char held[160];
    std::snprintf(held, sizeof held, "holds %.4g %% of the mass and %.4g %% of the energy",
                  100.0 * mass, 100.0 * energy);
    if (missing)
      fail("-vgrid_half_width ", spec.half_width, ": the velocity grid ", held, " of ", state.what,
           " (u = ", vector_text(state.u), ", T = ", state.T, "); widen it (-vgrid_half_width, ",
           "-vgrid_centre) or allow more with -vgrid_tolerance (", tolerance, ")");
    fail("-vgrid_n ", spec.nodes[0], ",", spec.nodes[1], ",", spec.nodes[2], ": the velocity grid ",
         held, " of ", state.what, " (u = ", vector_text(state.u), ", T = ", state.T,
         "): too coarse; refine it (-vgrid_n) or allow more with -vgrid_tolerance (", tolerance,
         ")");
  }
}

}  // namespace bolt
