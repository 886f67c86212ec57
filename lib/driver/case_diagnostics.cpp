#include "driver/case_diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "diagnostics/cavity.hpp"
#include "diagnostics/window_mean.hpp"
#include "diagnostics/field_access.hpp"
#include "diagnostics/shock.hpp"
#include "diagnostics/shock_tube.hpp"
#include "core/error.hpp"
#include "physics/rankine_hugoniot.hpp"
#include "physics/riemann.hpp"

namespace bolt {

namespace {

// Mean over a face of one flux component (5 per position, see Engine::face_fluxes).
double mean_face_flux(DomainView& domain, int axis, int side, int component) {
  const std::vector<double> fluxes = domain.face_fluxes(axis, side);
  double sum = 0.0;
  const std::size_t positions = fluxes.size() / 5;
  for (std::size_t p = 0; p < positions; ++p) sum += fluxes[p * 5 + component];
  return sum / positions;
}

// Couette: -P_xy / (p0 dv / c0) from the x-momentum flux into the upper (y-high) wall.
double couette_shear(const RunOptions& run, DomainView& domain) {
  const double dv = run.faces[1][1].velocity[0] - run.faces[1][0].velocity[0];
  return -2.0 * mean_face_flux(domain, 1, 1, 1) / dv;
}

// L1 error of the density against the exact Euler solution (gamma = 5/3), relative to the mean.
double riemann_density_error(const RunOptions& run, const PhysicalGrid& grid,
                             const std::vector<double>& fields, double time) {
  const InitialState& s = run.initial;
  // Pressure in bolt units is n T (p0); velocity in c0; the Euler equations are scale-free.
  const PrimitiveState left{s.left[0], s.left[1], s.left[0] * s.left[2]};
  const PrimitiveState right{s.right[0], s.right[1], s.right[0] * s.right[2]};
  // Euler in (rho, u, p) with rho = n m, p = n k T: with m = 1 and k = 1/2 in c0 units the sound
  // speed sqrt(gamma p / rho) must be sqrt(gamma T / 2): use p = n T / 2.
  const PrimitiveState l{left.rho, left.u, 0.5 * left.p}, r{right.rho, right.u, 0.5 * right.p};
  const RiemannStar star = solve_riemann(l, r, kGammaMonatomic);
  const FieldView view{fields, grid};
  double error = 0.0, norm = 0.0;
  for (int i = 0; i < grid.cells(0); ++i) {
    const double xi = (grid.axes[0].centres[i] - s.interface) / time;
    const double exact = sample_riemann(l, r, kGammaMonatomic, star, xi).rho;
    error += std::abs(view.at(i, 0, 0, kN) - exact) * grid.axes[0].widths[i];
    norm += exact * grid.axes[0].widths[i];
  }
  return error / norm;
}

// Mean and sample standard deviation (NaN for fewer than two values: written as null).
std::pair<double, double> mean_and_deviation(const std::vector<double>& values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (values.empty()) return {nan, nan};
  double mean = 0.0;
  for (double v : values) mean += v;
  mean /= double(values.size());
  if (values.size() < 2) return {mean, nan};
  double sum2 = 0.0;
  for (double v : values) sum2 += (v - mean) * (v - mean);
  return {mean, std::sqrt(sum2 / double(values.size() - 1))};
}

// The case history's series with their names in a checkpoint.
std::vector<std::pair<const char*, std::vector<double> CaseHistory::*>> case_series() {
  return {{"case_time", &CaseHistory::time},
          {"case_shock_x", &CaseHistory::shock_x},
          {"case_drag", &CaseHistory::drag},
          {"case_drag_top_row", &CaseHistory::drag_top_row},
          {"case_flow_rate", &CaseHistory::flow_rate}};
}

}  // namespace

void save_case_history(const CaseHistory& history, CheckpointHistory& saved) {
  for (const auto& [name, series] : case_series()) {
    const std::vector<double>& values = history.*series;
    const std::size_t kept = std::min(history.regular, values.size());
    saved.emplace_back(name, std::vector<double>(values.begin(), values.begin() + kept));
  }
}

CaseHistory restore_case_history(const CheckpointHistory& saved, const std::string& file) {
  CaseHistory history;
  for (const auto& [name, series] : case_series())
    history.*series = history_entry(saved, name, file);
  history.regular = history.time.size();
  for (const auto& [name, series] : case_series()) {
    const std::size_t size = (history.*series).size();
    require(size == 0 || size == history.regular, file, ": /history/", name, " has ", size,
            " samples, /history/case_time ", history.regular);
  }
  return history;
}

NamedValues monitor_diagnostics(const RunOptions& run, const PhysicalGrid& grid,
                                const Geometry& geometry, DomainView& domain,
                                const std::vector<double>& fields, double time,
                                CaseHistory& history) {
  switch (run.case_kind) {
    case CaseKind::shock_tube: {
      // The test section is the last box; its shock is the one the theory values refer to.
      const double x = shock_position(grid, fields, geometry.boxes.back());
      if (history.time.empty() || time > history.time.back()) {
        history.time.push_back(time);
        history.shock_x.push_back(x);
      }
      const auto mach = shock_mach_numbers(history.time, history.shock_x,
                                           sound_speed(run.initial.right[2]));
      return {{"shock_x", x}, {"shock_mach", mach.back()}};
    }
    case CaseKind::cavity: {
      const auto d = cavity_diagnostics(grid, fields, domain.face_fluxes(1, 1),
                                        run.faces[1][1].velocity[0]);
      if (history.time.empty() || time > history.time.back()) {
        history.time.push_back(time);
        history.drag.push_back(d.drag);
        history.drag_top_row.push_back(d.drag_top_row);
        history.flow_rate.push_back(d.flow_rate);
      }
      return {{"D", d.drag}, {"G", d.flow_rate}, {"D_top_row", d.drag_top_row}};
    }
    case CaseKind::shock: {
      const auto d = shock_diagnostics(grid, fields);
      return {{"reciprocal_thickness", d.reciprocal_thickness},
              {"centre", d.centre},
              {"cell_flux_variation", std::max({d.flux_variation[0], d.flux_variation[1],
                                           d.flux_variation[2]})}};
    }
    case CaseKind::couette: return {{"minus_pxy", couette_shear(run, domain)}};
    case CaseKind::heat: return {{"qy_high_wall", mean_face_flux(domain, 1, 1, 4)}};
    case CaseKind::riemann:
      return time > 0 ? NamedValues{{"density_l1_vs_euler", riemann_density_error(run, grid, fields, time)}}
                      : NamedValues{};
    case CaseKind::homogeneous: {
      const FieldView view{fields, grid};
      // Pressure tensor in p0 units is 2 P.
      return {{"pxy", 2.0 * view.at(0, kPxy)},
              {"pxx_minus_pyy", 2.0 * (view.at(0, kPxx) - view.at(0, kPyy))},
              {"T", view.at(0, kT)}};
    }
    case CaseKind::generic: return {};
  }
  return {};
}

nlohmann::json summary_diagnostics(const RunOptions& run, const PhysicalGrid& grid,
                                   const Geometry& geometry, const VelocityGrid& velocities,
                                   double dt, DomainView& domain, const std::vector<double>& fields,
                                   double time, CaseHistory& history) {
  nlohmann::json j;
  for (const auto& [name, value] :
       monitor_diagnostics(run, grid, geometry, domain, fields, time, history))
    j[name] = value;
  if (run.case_kind == CaseKind::shock_tube) {
    const double a = sound_speed(run.initial.right[2]);
    // NaN (no shock in the section yet, or no earlier position) is written as null.
    const std::vector<double> mach = shock_mach_numbers(history.time, history.shock_x, a);
    j["shock_time"] = history.time;
    j["shock_position"] = history.shock_x;
    j["shock_mach_history"] = mach;
    // One-dimensional theory: the exact Euler Riemann problem of the two initial states.
    const InitialState& s = run.initial;
    const PrimitiveState l{s.left[0], s.left[1], 0.5 * s.left[0] * s.left[2]};
    const PrimitiveState r{s.right[0], s.right[1], 0.5 * s.right[0] * s.right[2]};
    j["mach_theory_1d"] = solve_riemann(l, r, kGammaMonatomic).shock_speed_right / a;
  }
  const FieldView view{fields, grid};
  if (run.case_kind == CaseKind::cavity) {
    j["time_history"] = history.time;
    j["D_history"] = history.drag;
    j["D_top_row_history"] = history.drag_top_row;
    j["G_history"] = history.flow_rate;
    const auto late = [&](const std::vector<double>& values) {
      std::vector<double> kept;
      for (std::size_t i = 0; i < values.size(); ++i)
        if (history.time[i] >= 0.5 * time) kept.push_back(values[i]);
      return kept;
    };
    const auto [d_mean, d_std] = mean_and_deviation(late(history.drag));
    const auto [d_row_mean, d_row_std] = mean_and_deviation(late(history.drag_top_row));
    const auto [g_mean, g_std] = mean_and_deviation(late(history.flow_rate));
    j["steady_from_time"] = 0.5 * time;
    j["steady_samples"] = late(history.drag).size();
    j["D_mean"] = d_mean;
    j["D_std"] = d_std;
    j["D_top_row_mean"] = d_row_mean;
    j["D_top_row_std"] = d_row_std;
    j["G_mean"] = g_mean;
    j["G_std"] = g_std;
    // The window means after the transient with their standard errors (window_mean.hpp).
    for (const auto& [name, series] : {std::pair{"D", &history.drag},
                                       std::pair{"D_top_row", &history.drag_top_row},
                                       std::pair{"G", &history.flow_rate}}) {
      const WindowMean w = window_mean(*series, kWindowBatches);
      const std::string key = std::string(name) + "_window";
      // Without a window (the transient not over, too few rows) its statistics are null: a zero
      // would read as a mean of 0.
      const auto statistic = [&](double value) {
        return w.found ? nlohmann::json(value) : nlohmann::json(nullptr);
      };
      j[key + "_mean"] = statistic(w.mean);
      j[key + "_error"] = statistic(w.error);
      j[key + "_ready"] = w.ready;
      j[key + "_lag1"] = statistic(w.lag1);
      j[key + "_correlation"] = statistic(w.correlation);
      j[key + "_drift"] = statistic(w.drift);
      j[key + "_from_time"] = w.start < history.time.size() ? history.time[w.start] : time;
    }
    j["window_batches"] = kWindowBatches;
    j["centre_line_y"] = grid.axes[1].centres;
    j["centre_line_ux_over_vw"] = centre_line_velocity(grid, fields, run.faces[1][1].velocity[0]);
  }
  if (run.case_kind == CaseKind::shock) {
    const auto d = shock_diagnostics(grid, fields);
    const GasState up{1.0, run.shock_mach * sound_speed(1.0), 1.0};
    const GasState down = rankine_hugoniot_downstream(run.shock_mach, up);
    j["mach"] = run.shock_mach;
    j["cell_flux_variation_components"] = d.flux_variation;
    if (run.order == 1 && grid.axes[0].uniform) {
      const auto v = interface_flux_variation(grid, velocities, domain.state(), dt);
      j["interface_flux_variation_components"] = v;
      j["flux_variation"] = std::max({v[0], v[1], v[2]});
    }
    j["upstream"] = d.upstream;
    j["downstream"] = d.downstream;
    j["rankine_hugoniot_downstream"] = {down.n, down.u, down.T};
    const FaceSpec& inflow = run.faces[0][1];  // corrected for the discrete velocity grid
    j["discrete_downstream"] = {inflow.density, inflow.velocity[0], inflow.temperature};
    // lambda_HS = (16/5) mu / (rho sqrt(2 pi R T)) = 8 / (5 sqrt(pi)) lambda0.
    j["reciprocal_thickness_hs_mfp"] = d.reciprocal_thickness * 8.0 / (5.0 * std::sqrt(M_PI)) /
                                       run.gas.delta;
  }
  if (run.case_kind == CaseKind::couette || run.case_kind == CaseKind::heat ||
      run.case_kind == CaseKind::riemann || run.case_kind == CaseKind::shock) {
    const int axis = run.case_kind == CaseKind::riemann || run.case_kind == CaseKind::shock ? 0 : 1;
    j["profile_coordinate"] = grid.axes[axis].centres;
    std::vector<double> n, ux, uy, T;
    for (int c = 0; c < grid.cells(axis); ++c) {
      const int i = axis == 0 ? c : 0, jj = axis == 1 ? c : 0;
      n.push_back(view.at(i, jj, 0, kN));
      ux.push_back(view.at(i, jj, 0, kUx));
      uy.push_back(view.at(i, jj, 0, kUy));
      T.push_back(view.at(i, jj, 0, kT));
    }
    j["profile_n"] = n;
    j["profile_ux"] = ux;
    j["profile_uy"] = uy;
    j["profile_T"] = T;
  }
  return j;
}

}  // namespace bolt
