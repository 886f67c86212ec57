#include "case/case_setup.hpp"

#include <algorithm>
#include <cmath>

#include "boundary/discrete_shock_states.hpp"
#include "core/error.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/macroscopic.hpp"
#include "kernels/maxwellian.hpp"
#include "case/velocity_coverage.hpp"

namespace bolt {

double max_collision_frequency(const RunOptions& run) {
  auto nu = [&](double n, double T) { return run.model->collision_frequency(run.gas, n, T); };
  const InitialState& i = run.initial;
  double worst = nu(i.density, i.temperature);
  if (i.kind == InitKind::riemann)
    worst = std::max({worst, nu(i.left[0], i.left[2]), nu(i.right[0], i.right[2])});
  if (i.kind == InitKind::bimaxwellian) {
    const double T = (i.temperature_axes[0] + i.temperature_axes[1] + i.temperature_axes[2]) / 3.0;
    worst = std::max(worst, nu(i.density + i.second_density, std::max(T, i.second_temperature)));
  }
  if (i.kind == InitKind::fields)
    for (const FieldsGas& gas : i.fields->gas_cells())
      worst = std::max(worst, nu(i.fields_scale * gas.n, gas.T));
  for (const auto& axis : run.faces)
    for (const auto& face : axis)
      if (face.kind == FaceKind::inflow) worst = std::max(worst, nu(face.density, face.temperature));
  return worst;
}

namespace {

// -team_size 0: a cell's team shares the per-cell work of a step (the moments' team reduction,
// the target), which each of its threads repeats or waits on while it holds no values of f to
// stream: the fewer values a thread holds, the more of its time goes to that work. So 256 threads
// for more than 4096 values per cell; up to that, teams in which each thread holds at least 32
// values, down to one warp: 16^3 velocities take 128 (twice the teams of 256 a multiprocessor
// holds, each thread 32 values, not 16), the reduced velocity spaces one warp (docs/benchmarks.md,
// "Explicit step, one GPU" and "Teams that fill a multiprocessor").
int default_team_size(int values_per_cell) {
  if (values_per_cell > 4096) return 256;
  int threads = 128;
  while (threads > 32 && values_per_cell < 32 * threads) threads /= 2;
  return threads;
}

// -init_type fields: the file must span this grid, and every gas cell here must have gas cells of
// the file around it; the density is then scaled so that the run starts with the file's mass
// (interpolation alone would change a closed domain's mass by the grids' difference).
void fit_initial_fields(const PhysicalGrid& grid, const Geometry& geometry, InitialState& init) {
  const InitialFields& file = *init.fields;
  const char* names = "xyz";
  for (int a = 0; a < 3; ++a) {
    const Axis& axis = grid.axes[a];
    const double lo = axis.faces.front(), hi = axis.faces.back();
    const double slack = 1e-9 * (hi - lo);
    require(!grid.active[a] ||
                (std::abs(file.lo(a) - lo) <= slack && std::abs(file.hi(a) - hi) <= slack),
            "-init_fields ", init.fields_file, ": its ", names[a], " axis spans [", file.lo(a), ", ",
            file.hi(a), "], this grid [", lo, ", ", hi, "]; the file must cover the same domain");
  }
  double mass = 0.0;
  for (int k = 0; k < grid.cells(2); ++k)
    for (int j = 0; j < grid.cells(1); ++j)
      for (int i = 0; i < grid.cells(0); ++i) {
        if (!geometry.fluid(i, j, k)) continue;
        const double p[3] = {grid.axes[0].centres[i], grid.axes[1].centres[j],
                             grid.axes[2].centres[k]};
        FieldsGas gas;
        require(file.at(p, gas), "-init_fields ", init.fields_file, ": cell (", i, ", ", j, ", ",
                k, ") at (", p[0], ", ", p[1], ", ", p[2],
                ") is gas here, but every cell of the file around it is solid");
        mass += gas.n * grid.axes[0].widths[i] * grid.axes[1].widths[j] * grid.axes[2].widths[k];
      }
  init.fields_scale = file.mass() / mass;
}

// The time the errors of a collision step accumulate over: the run's (its steps, or its final
// time), but at most the time the gas keeps them: walls and open faces take its heat away within
// the flight time l or conduction's delta l^2 over the domain's smallest extent l, and inflows
// replace it within l / |u_n| along their axis.
double accumulation_span(const RunOptions& run, double dt) {
  double span = double(run.max_steps) * dt;
  if (run.final_time > 0.0) span = std::min(span, run.final_time);
  double extent = 0.0;
  bool open = !run.geometry_solids.empty();
  for (int a = 0; a < 3; ++a) {
    if (run.axes[a].cells <= 1) continue;
    const double l = run.axes[a].hi - run.axes[a].lo;
    extent = extent > 0.0 ? std::min(extent, l) : l;
    double slowest = 0.0;  // the slowest inflow's normal speed on this axis
    for (const FaceSpec& face : run.faces[a]) {
      open = open || face.kind == FaceKind::wall || face.kind == FaceKind::inflow ||
             face.kind == FaceKind::outflow;
      const double speed = std::abs(face.velocity[a]);
      if (face.kind == FaceKind::inflow && speed > 0.0)
        slowest = slowest > 0.0 ? std::min(slowest, speed) : speed;
    }
    if (slowest > 0.0) span = std::min(span, l / slowest);
  }
  if (open && extent > 0.0) span = std::min(span, extent * std::max(1.0, run.gas.delta * extent));
  return span;
}

StepAccuracy step_accuracy(const CaseSetup& setup) {
  StepAccuracy step;
  step.gas = setup.run.gas;
  step.dt = setup.time_step.dt;
  step.max_frequency = max_collision_frequency(setup.run);
  step.span = accumulation_span(setup.run, step.dt);
  step.energy_error = equilibrium_energy_error(setup.run, setup.engine.velocities);
  step.tolerance = setup.run.velocity_tolerance;
  step.velocities = &setup.engine.velocities;
  return step;
}

}  // namespace

CaseSetup make_case_setup(const RunOptions& options) {
  CaseSetup setup;
  setup.run = options;
  RunOptions& run = setup.run;
  EngineConfig& e = setup.engine;
  e.backend = run.backend;
  e.precision = run.precision;
  e.velocities = make_velocity_grid(run.velocity_grid);
  check_velocity_coverage(run, e.velocities);
  if (run.case_kind == CaseKind::shock) {
    // The downstream inflow state that the discrete upstream fluxes require.
    const GasState up{run.initial.left[0], run.initial.left[1], run.initial.left[2]};
    const GasState rh{run.initial.right[0], run.initial.right[1], run.initial.right[2]};
    const GasState down = discrete_downstream(e.velocities, up, rh);
    const double right[3] = {down.n, down.u, down.T};
    for (int i = 0; i < 3; ++i) run.initial.right[i] = right[i];
    run.faces[0][1].density = down.n;
    run.faces[0][1].velocity[0] = down.u;
    run.faces[0][1].temperature = down.T;
  }
  // Build the grid once with the scheme's own ghost depth to measure Courant numbers, then again
  // with the depth the chosen time step needs.
  const PhysicalGrid probe = make_physical_grid(run.axes, run.order);
  TimeStepLimits limits;
  limits.max_courant = run.max_courant;
  limits.collision_fraction = run.collision_fraction;
  limits.max_collision_frequency = max_collision_frequency(run);
  limits.fixed_dt = run.dt;
  setup.time_step = choose_time_step(probe, e.velocities, limits, run.order);
  if (setup.time_step.ghost > run.order)  // whole-cell shifts
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        const FaceKind kind = run.faces[a][s].kind;
        require(!probe.active[a] || (kind != FaceKind::wall && kind != FaceKind::specular),
                "time step: Courant number ", setup.time_step.courant,
                " >= 1 (whole-cell shifts; set by -ts_max_courant or -ts_dt) needs inflow, outflow ",
                "or periodic faces; walls conserve mass only below 1 (face -bc_", "xyz"[a],
                s ? "_high" : "_low", ")");
      }
  const std::string refusal = run.model->time_step_refusal(setup.time_step.dt);
  require(refusal.empty(), refusal);
  const std::string inaccurate = run.model->accuracy_refusal(step_accuracy(setup));
  require(inaccurate.empty(), inaccurate);
  e.grid = make_physical_grid(run.axes, setup.time_step.ghost);
  e.model = run.model;
  e.gas = run.gas;
  e.dt = setup.time_step.dt;
  e.order = run.order;
  e.limiter = run.limiter;
  e.splitting = run.splitting;
  e.faces = run.faces;
  e.team_size = run.team_size > 0 ? run.team_size : default_team_size(e.velocities.size());
  e.team_size_chosen = run.team_size == 0;
  for (int a = 0; a < 3; ++a) {
    if (!e.grid.active[a]) continue;
    for (int s = 0; s < 2; ++s) {
      const FaceSpec& face = run.faces[a][s];
      if (face.kind == FaceKind::periodic)
        require(e.grid.axes[a].uniform, "-bc_", "xyz"[a],
                "_low periodic: a periodic axis must be uniform (no -grid_stretch)");
    }
  }
  setup.geometry = make_geometry({e.grid.cells(0), e.grid.cells(1), e.grid.cells(2)},
                                 parse_boxes(run.geometry_boxes, "-geometry_boxes"),
                                 parse_boxes(run.geometry_solids, "-geometry_solids"),
                                 "-geometry_boxes", "-geometry_solids");
  if (run.initial.kind == InitKind::fields) fit_initial_fields(e.grid, setup.geometry, run.initial);
  return setup;
}

InitialMaxwellians initial_state_maxwellians(const RunOptions& run, const PhysicalGrid& grid) {
  const std::array<int, 2> n{grid.cells(0), grid.cells(1)};
  return [init = run.initial, x = grid.axes[0].centres, y = grid.axes[1].centres,
          z = grid.axes[2].centres, n](std::int64_t cell, InitialMaxwellian out[2]) {
    const std::int64_t nx = n[0];
    const auto isotropic = [](double density, const double* u, double T) {
      InitialMaxwellian m;
      m.n = density;
      for (int a = 0; a < 3; ++a) {
        m.u[a] = u[a];
        m.T[a] = T;
      }
      return m;
    };
    switch (init.kind) {
      case InitKind::uniform:
        out[0] = isotropic(init.density, init.velocity, init.temperature);
        return 1;
      case InitKind::riemann: {
        const double* s = x[cell % nx] < init.interface ? init.left : init.right;
        const double u[3] = {s[1], 0.0, 0.0};
        out[0] = isotropic(s[0], u, s[2]);
        return 1;
      }
      case InitKind::bimaxwellian: {
        out[0] = isotropic(init.density, init.velocity, 0.0);
        for (int a = 0; a < 3; ++a) out[0].T[a] = init.temperature_axes[a];
        if (init.second_density <= 0.0) return 1;
        out[1] = isotropic(init.second_density, init.second_velocity, init.second_temperature);
        return 2;
      }
      case InitKind::fields: {
        // A cell with no gas of the file around it is solid here too (fit_initial_fields): its
        // state is never used.
        const double p[3] = {x[cell % nx], y[cell / nx % n[1]], z[cell / nx / n[1]]};
        FieldsGas gas{init.density, {init.velocity[0], init.velocity[1], init.velocity[2]},
                      init.temperature};
        init.fields->at(p, gas);
        out[0] = isotropic(init.fields_scale * gas.n, gas.u, gas.T);
        for (int k = 0; k < 6; ++k) out[0].stress[k] = init.fields_scale * gas.stress[k];
        for (int a = 0; a < 3; ++a) out[0].heat[a] = init.fields_scale * gas.heat[a];
        return 1;
      }
    }
    return 0;
  };
}

StateRows initial_state_rows(const RunOptions& run, const PhysicalGrid& grid,
                             const VelocityGrid& velocities, int velocity_lo, int velocity_count) {
  // Copies of what a row needs: the engine calls it from its threads, after this returns.
  std::array<std::vector<double>, 3> xi;
  for (int a = 0; a < 3; ++a)
    xi[a].assign(velocities.xi[a].begin() + velocity_lo,
                 velocities.xi[a].begin() + velocity_lo + velocity_count);
  // A reduced set (Chu): the node's g or h of the Maxwellian (VelocityGrid::reduced_factor).
  VelocityGrid reduction;
  if (velocities.is_reduced()) {
    reduction.reduced = velocities.reduced;
    reduction.h_weight.assign(velocities.h_weight.begin() + velocity_lo,
                              velocities.h_weight.begin() + velocity_lo + velocity_count);
  }
  // The whole set's extent, for the Grad terms' bound (InitialMaxwellian::grad_scale).
  double extent[3][2];
  for (int a = 0; a < 3; ++a) {
    const auto [lo, hi] = std::minmax_element(velocities.xi[a].begin(), velocities.xi[a].end());
    extent[a][0] = *lo;
    extent[a][1] = *hi;
  }
  return [maxwellians = initial_state_maxwellians(run, grid), xi = std::move(xi),
          reduction = std::move(reduction), extent](std::int64_t cell, double* row) {
    InitialMaxwellian m[2];
    const int count = maxwellians(cell, m);
    const std::size_t nv = xi[0].size();
    std::fill_n(row, nv, 0.0);
    for (int i = 0; i < count; ++i) {
      const double prefactor = m[i].prefactor();
      double largest[3];
      for (int a = 0; a < 3; ++a)
        largest[a] =
            std::max(std::abs(extent[a][0] - m[i].u[a]), std::abs(extent[a][1] - m[i].u[a]));
      const double grad = m[i].grad_scale(largest);
      for (std::size_t v = 0; v < nv; ++v) {
        double exponent = 0.0, c[3];
        for (int a = 0; a < 3; ++a) {
          c[a] = xi[a][v] - m[i].u[a];
          exponent += c[a] * c[a] / m[i].T[a];
        }
        row[v] += prefactor * std::exp(-exponent) * reduction.reduced_factor(int(v), m[i].T) *
                  (1.0 + grad * m[i].grad_factor(c));
      }
    }
  };
}

namespace {

// Adds the raw moments of Maxwellian m on the full box of `axes`: with
// S_a(p) = sum_j w_j e_j x_j^p along axis a (e_j = exp(-(x_j - u_a)^2 / T_a)) and A the
// Maxwellian's prefactor, sum w f xi_x^p xi_y^q xi_z^r = A S_x(p) S_y(q) S_z(r).
void add_factorised_moments(const std::array<Axis, 3>& axes, const InitialMaxwellian& m,
                            Sums<kRawMoments>& s) {
  double S[3][4] = {};
  for (int a = 0; a < 3; ++a)
    for (int j = 0; j < axes[a].cells(); ++j) {
      const double x = axes[a].centres[j], c = x - m.u[a];
      const double e = axes[a].widths[j] * std::exp(-c * c / m.T[a]);
      S[a][0] += e;
      S[a][1] += e * x;
      S[a][2] += e * x * x;
      S[a][3] += e * x * x * x;
    }
  const double A = m.prefactor();
  // The product over the axes of S_a(power[a]).
  const auto product = [&](int px, int py, int pz) { return A * S[0][px] * S[1][py] * S[2][pz]; };
  s[kM0] += product(0, 0, 0);
  s[kM1 + 0] += product(1, 0, 0);
  s[kM1 + 1] += product(0, 1, 0);
  s[kM1 + 2] += product(0, 0, 1);
  s[kM2 + 0] += product(2, 0, 0);
  s[kM2 + 1] += product(0, 2, 0);
  s[kM2 + 2] += product(0, 0, 2);
  s[kM2 + 3] += product(1, 1, 0);
  s[kM2 + 4] += product(1, 0, 1);
  s[kM2 + 5] += product(0, 1, 1);
  s[kM3 + 0] += product(3, 0, 0) + product(1, 2, 0) + product(1, 0, 2);
  s[kM3 + 1] += product(2, 1, 0) + product(0, 3, 0) + product(0, 1, 2);
  s[kM3 + 2] += product(2, 0, 1) + product(0, 2, 1) + product(0, 0, 3);
}

}  // namespace

std::vector<double> initial_raw_moments(const RunOptions& run, const PhysicalGrid& grid,
                                        const VelocityGrid& velocities) {
  const std::int64_t cells = grid.interior_cells();
  std::vector<double> moments(std::size_t(cells) * kRawMoments, 0.0);
  // A uniform state: one cell's sums, copied.
  const std::int64_t distinct = run.initial.kind == InitKind::uniform ? 1 : cells;
  const InitialMaxwellians maxwellians = initial_state_maxwellians(run, grid);
  // Grad's terms do not factorise by axis: such a state is summed row by row.
  const bool factorised = velocities.full_box && !(run.initial.kind == InitKind::fields &&
                                                   run.initial.fields->non_equilibrium());
  const StateRows rows = factorised
                             ? StateRows{}
                             : initial_state_rows(run, grid, velocities, 0, velocities.size());
  const Velocities<double> all{velocities.xi[0].data(),
                               velocities.xi[1].data(),
                               velocities.xi[2].data(),
                               velocities.weight.data(),
                               velocities.size(),
                               velocities.size(),
                               velocities.is_reduced() ? velocities.h_weight.data() : nullptr,
                               velocities.reduced_mask()};
#pragma omp parallel
  {
    std::vector<double> row(factorised ? 0 : velocities.size());
#pragma omp for
    for (std::int64_t c = 0; c < distinct; ++c) {
      Sums<kRawMoments> s = Sums<kRawMoments>::zero();
      if (factorised) {
        InitialMaxwellian m[2];
        const int count = maxwellians(c, m);
        for (int i = 0; i < count; ++i) add_factorised_moments(velocities.axes, m[i], s);
      } else {
        rows(c, row.data());
        for (int v = 0; v < velocities.size(); ++v) accumulate_raw<3>(s, all, v, row[v]);
      }
      std::copy_n(&s[0], kRawMoments, moments.begin() + c * kRawMoments);
    }
  }
  for (std::int64_t c = distinct; c < cells; ++c)
    std::copy_n(moments.begin(), kRawMoments, moments.begin() + c * kRawMoments);
  return moments;
}

}  // namespace bolt
