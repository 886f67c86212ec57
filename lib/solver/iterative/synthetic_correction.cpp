#include "solver/iterative/synthetic_correction.hpp"

#include <petscdmda.h>
#include <petscksp.h>
#include <petscmat.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/solver_options.hpp"
#include "kernels/macroscopic.hpp"

namespace bolt {

namespace {

constexpr int kConserved = 5;  // n, n u_x, n u_y, n u_z, E = (1/2) sum f |xi|^2
// The eps of eps nu I: small against the slow modes' eigenvalues of div_h Phi / nu, so that it
// barely damps their correction, large enough to keep LU's pivots away from zero.
constexpr double kRegularisation = 1e-3;
// The largest relative change of a cell's density or temperature in one correction, and of its
// velocity in units of its thermal speed sqrt(T).
constexpr double kLargestChange = 0.5;
// Corrections between two finite-difference Jacobians; the factorisation is kept meanwhile.
// The state changes little from one sweep to the next: in the cavities and a small cube a
// Jacobian of the initial state alone converged in as many sweeps as one formed every 10 or 30;
// refreshing it is for flows that move far from their start.
constexpr int kJacobianLag = 20;

constexpr const char* kOptionsPrefix = "iter_synthetic_";
const bool kOptionsPrefixRegistered =
    register_solver_options_prefix(kOptionsPrefix, {"iter_synthetic", {"true"}});

void check(PetscErrorCode code, const char* what) {
  if (code != 0) fail("synthetic correction: PETSc ", what, " failed (error ", int(code), ")");
}

struct State {
  double n, u[3], T;
};

State state_of(const double* U) {
  State s;
  s.n = U[0];
  for (int i = 0; i < 3; ++i) s.u[i] = U[1 + i] / U[0];
  const double u2 = s.u[0] * s.u[0] + s.u[1] * s.u[1] + s.u[2] * s.u[2];
  s.T = (4.0 / 3.0) * (U[4] / U[0] - 0.5 * u2);  // E = n u^2 / 2 + (3/4) n T
  return s;
}

State mirrored(State s, int axis) {
  s.u[axis] = -s.u[axis];
  return s;
}

// The flux along `axis` of the half (sign +1: xi_axis > 0; -1: < 0) of the Maxwellian of `s`,
// f = n (pi T)^-3/2 exp(-|xi - u|^2 / T): kinetic flux-vector splitting, the macroscopic image
// of the sweep's upwind flux of an equilibrium.
void add_half_flux(const State& s, int axis, double sign, double* flux) {
  const double u = s.u[axis], T = s.T, root = std::sqrt(T);
  const double A = 0.5 * (1.0 + sign * std::erf(u / root));
  const double B = sign * root / (2.0 * std::sqrt(M_PI)) * std::exp(-u * u / T);
  const double M1 = u * A + B;
  const double M2 = (u * u + 0.5 * T) * A + u * B;
  const double M3 = (u * u * u + 1.5 * u * T) * A + (u * u + T) * B;
  double transverse = 0.0;
  for (int i = 0; i < 3; ++i)
    if (i != axis) transverse += s.u[i] * s.u[i];
  flux[0] += s.n * M1;
  for (int i = 0; i < 3; ++i) flux[1 + i] += i == axis ? s.n * M2 : s.n * s.u[i] * M1;
  flux[4] += 0.5 * s.n * (M3 + (transverse + T) * M1);
}

// Levels of geometric multigrid for the correction on `grid`: every axis halved while all stay
// even and keep at least 4 cells. 1 (no multigrid) on planes, whose systems are factored.
int multigrid_levels(const PhysicalGrid& grid) {
  if (grid.dim <= 2) return 1;
  int cells[3] = {grid.cells(0), grid.cells(1), grid.cells(2)};
  int levels = 1;
  while (std::all_of(cells, cells + 3, [](int c) { return c % 2 == 0 && c / 2 >= 4; })) {
    for (int& c : cells) c /= 2;
    ++levels;
  }
  return levels;
}

}  // namespace

struct SyntheticCorrection::Impl {
  SyntheticConfig config;
  std::int64_t cells = 0;
  int n[3] = {1, 1, 1};
  std::int64_t stride[3] = {1, 1, 1};
  std::vector<double> nu;  // [cell] collision frequency of W_k
  Mat jacobian = nullptr;
  MatFDColoring coloring = nullptr;
  KSP ksp = nullptr;
  DM cells_dm = nullptr;  // the cells as a PETSc grid, which geometric multigrid coarsens
  int multigrid_levels = 1;
  Vec x = nullptr, rhs = nullptr, step = nullptr;
  int since_jacobian = -1;  // corrections since the Jacobian was formed (-1: never)
  bool options_checked = false;
  int linear_iterations = 0;

  bool solid(std::int64_t c) const { return !config.solid.empty() && config.solid[c]; }
  double viscosity(double T) const {
    return std::pow(T, config.gas.omega) / (2.0 * config.gas.delta);
  }

  // Navier-Stokes viscous and heat flux across a face normal to `axis` between the velocities
  // and temperatures (ua, Ta) below and (ub, Tb) above, `distance` apart; `uf` is the velocity
  // at the face (for the work of the stress).
  void add_viscous_flux(int axis, const double* ua, double Ta, const double* ub, double Tb,
                        double distance_u, double distance_T, const double* uf,
                        double* flux) const {
    const double Tf = 0.5 * (Ta + Tb);
    const double mu = viscosity(Tf), kappa = 1.25 * mu / config.gas.prandtl;
    double work = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double stress = -(i == axis ? 4.0 / 3.0 : 1.0) * mu * (ub[i] - ua[i]) / distance_u;
      flux[1 + i] += stress;
      work += stress * uf[i];
    }
    flux[4] += work - kappa * (Tb - Ta) / distance_T;
  }

  // The flux across the outer face of cell c on (axis, side), or across a face towards a solid.
  void boundary_flux(const State& s, int axis, int side, const FaceSpec& face, double half_width,
                     double* flux) const {
    switch (face.kind) {
      case FaceKind::wall: {
        const State m = mirrored(s, axis);
        add_half_flux(side == 0 ? m : s, axis, +1.0, flux);
        add_half_flux(side == 0 ? s : m, axis, -1.0, flux);
        // Velocity slip and temperature jump over about a mean free path (diffuse walls).
        const double p = 0.5 * s.n * s.T, mu = viscosity(s.T);
        const double path = mu / p * std::sqrt(M_PI * s.T) / 2.0;
        double uw[3] = {face.velocity[0], face.velocity[1], face.velocity[2]};
        uw[axis] = 0.0;
        if (side == 0)
          add_viscous_flux(axis, uw, face.temperature, s.u, s.T, half_width + path,
                           half_width + 2.0 * path, uw, flux);
        else
          add_viscous_flux(axis, s.u, s.T, uw, face.temperature, half_width + path,
                           half_width + 2.0 * path, uw, flux);
        break;
      }
      case FaceKind::specular: {
        const State m = mirrored(s, axis);
        add_half_flux(side == 0 ? m : s, axis, +1.0, flux);
        add_half_flux(side == 0 ? s : m, axis, -1.0, flux);
        break;
      }
      case FaceKind::inflow: {
        State in{
            face.density, {face.velocity[0], face.velocity[1], face.velocity[2]}, face.temperature};
        add_half_flux(side == 0 ? in : s, axis, +1.0, flux);
        add_half_flux(side == 0 ? s : in, axis, -1.0, flux);
        break;
      }
      case FaceKind::outflow:
        add_half_flux(s, axis, +1.0, flux);
        add_half_flux(s, axis, -1.0, flux);
        break;
      case FaceKind::periodic:  // refused when the correction is made
        break;
    }
  }

  void apply(const double* U, double* out) const {
    const PhysicalGrid& grid = config.grid;
    FaceSpec solid_wall;
    solid_wall.temperature = config.solid_temperature;
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < cells; ++c) {
      double* o = out + c * kConserved;
      if (solid(c)) {
        std::copy_n(U + c * kConserved, kConserved, o);
        continue;
      }
      const State s = state_of(U + c * kConserved);
      const int at[3] = {int(c % n[0]), int(c / n[0] % n[1]), int(c / n[0] / n[1])};
      for (int k = 0; k < kConserved; ++k) o[k] = kRegularisation * nu[c] * U[c * kConserved + k];
      for (int axis = 0; axis < 3; ++axis) {
        if (!grid.active[axis]) continue;
        const double width = grid.axes[axis].widths[at[axis]];
        for (int side = 0; side < 2; ++side) {
          double flux[kConserved] = {0, 0, 0, 0, 0};
          const int next = at[axis] + (side == 0 ? -1 : 1);
          const bool outer = next < 0 || next >= n[axis];
          const std::int64_t d = c + (side == 0 ? -1 : 1) * stride[axis];
          if (outer) {
            boundary_flux(s, axis, side, config.faces[axis][side], 0.5 * width, flux);
          } else if (solid(d)) {
            boundary_flux(s, axis, side, solid_wall, 0.5 * width, flux);
          } else {
            const State t = state_of(U + d * kConserved);
            const State& below = side == 0 ? t : s;
            const State& above = side == 0 ? s : t;
            add_half_flux(below, axis, +1.0, flux);
            add_half_flux(above, axis, -1.0, flux);
            const double distance = grid.axes[axis].centres[side == 0 ? at[axis] : next] -
                                    grid.axes[axis].centres[side == 0 ? next : at[axis]];
            double uf[3];
            for (int i = 0; i < 3; ++i) uf[i] = 0.5 * (below.u[i] + above.u[i]);
            add_viscous_flux(axis, below.u, below.T, above.u, above.T, distance, distance, uf,
                             flux);
          }
          const double sign = side == 0 ? -1.0 : 1.0;
          for (int k = 0; k < kConserved; ++k) o[k] += sign * flux[k] / width;
        }
      }
    }
  }

  // The Jacobian's pattern: each cell's unknowns couple to its own and its face neighbours'.
  void create_jacobian() {
    const PetscInt size = PetscInt(cells * kConserved);
    int neighbours = 1;
    for (int axis = 0; axis < 3; ++axis)
      if (config.grid.active[axis]) neighbours += 2;
    if (multigrid_levels > 1) {
      // Entries of 5 x 5 blocks: PETSc forms the coarse levels' operators (P^T A P with the
      // grid's interpolation) of AIJ matrices only.
      check(MatCreate(PETSC_COMM_SELF, &jacobian), "MatCreate");
      check(MatSetSizes(jacobian, size, size, size, size), "MatSetSizes");
      check(MatSetType(jacobian, MATSEQAIJ), "MatSetType");
      check(MatSetBlockSize(jacobian, kConserved), "MatSetBlockSize");
      check(MatSeqAIJSetPreallocation(jacobian, neighbours * kConserved, nullptr),
            "MatSeqAIJSetPreallocation");
    } else {
      // Blocks of a cell's 5 unknowns: PETSc's factorisation works on dense 5 x 5 blocks (twice
      // as fast as on single entries, and faster than UMFPACK on the plane's system).
      check(MatCreateSeqBAIJ(PETSC_COMM_SELF, kConserved, size, size, neighbours, nullptr,
                             &jacobian),
            "MatCreateSeqBAIJ");
    }
    std::vector<PetscInt> columns;
    std::vector<PetscScalar> zeros;
    for (std::int64_t c = 0; c < cells; ++c) {
      columns.clear();
      const int at[3] = {int(c % n[0]), int(c / n[0] % n[1]), int(c / n[0] / n[1])};
      std::vector<std::int64_t> coupled{c};
      if (!solid(c))
        for (int axis = 0; axis < 3; ++axis)
          for (int side = 0; side < 2; ++side) {
            const int next = at[axis] + (side == 0 ? -1 : 1);
            if (!config.grid.active[axis] || next < 0 || next >= n[axis]) continue;
            const std::int64_t d = c + (side == 0 ? -1 : 1) * stride[axis];
            if (!solid(d)) coupled.push_back(d);
          }
      std::sort(coupled.begin(), coupled.end());
      for (std::int64_t d : coupled)
        for (int k = 0; k < kConserved; ++k) columns.push_back(PetscInt(d * kConserved + k));
      zeros.assign(columns.size(), 0.0);
      for (int k = 0; k < kConserved; ++k) {
        const PetscInt row = PetscInt(c * kConserved + k);
        check(MatSetValues(jacobian, 1, &row, PetscInt(columns.size()), columns.data(),
                           zeros.data(), INSERT_VALUES),
              "MatSetValues");
      }
    }
    check(MatAssemblyBegin(jacobian, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
    check(MatAssemblyEnd(jacobian, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
    MatColoring colour = nullptr;
    ISColoring colours = nullptr;
    check(MatColoringCreate(jacobian, &colour), "MatColoringCreate");
    check(MatColoringSetType(colour, MATCOLORINGSL), "MatColoringSetType");
    check(MatColoringSetDistance(colour, 2), "MatColoringSetDistance");
    check(MatColoringApply(colour, &colours), "MatColoringApply");
    check(MatFDColoringCreate(jacobian, colours, &coloring), "MatFDColoringCreate");
    // PETSc calls it with its own context first and the function's context last.
    const auto function = [](void*, Vec in, Vec result, void* context) -> PetscErrorCode {
      const auto* self = static_cast<const Impl*>(context);
      const PetscScalar* u = nullptr;
      PetscScalar* f = nullptr;
      PetscCall(VecGetArrayRead(in, &u));
      PetscCall(VecGetArray(result, &f));
      self->apply(u, f);
      PetscCall(VecRestoreArray(result, &f));
      PetscCall(VecRestoreArrayRead(in, &u));
      return 0;
    };
    using Function = PetscErrorCode (*)(void*, Vec, Vec, void*);
    // PETSc stores every function as PetscErrorCode (*)(void); through void (*)(void), which
    // casts from any function type.
    const auto stored = reinterpret_cast<PetscErrorCode (*)(void)>(
        reinterpret_cast<void (*)(void)>(static_cast<Function>(function)));
    check(MatFDColoringSetFunction(coloring, stored, this), "MatFDColoringSetFunction");
    check(MatFDColoringSetUp(jacobian, colours, coloring), "MatFDColoringSetUp");
    ISColoringDestroy(&colours);
    MatColoringDestroy(&colour);
    check(VecCreateSeq(PETSC_COMM_SELF, size, &x), "VecCreateSeq");
    check(VecDuplicate(x, &rhs), "VecDuplicate");
    check(VecDuplicate(x, &step), "VecDuplicate");
    create_solver();
  }

  // The linear solver of each correction. PETSc's options under the prefix iter_synthetic_
  // (-iter_synthetic_ksp_type, -iter_synthetic_pc_type, -iter_synthetic_ksp_monitor ...) override
  // the choice made here.
  void create_solver() {
    check(KSPCreate(PETSC_COMM_SELF, &ksp), "KSPCreate");
    PC pc = nullptr;
    check(KSPGetPC(ksp, &pc), "KSPGetPC");
    if (config.grid.dim <= 2) {
      // A plane's system is small: factor it once per Jacobian.
      check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
      check(PCSetType(pc, PCLU), "PCSetType");
    } else {
      // The correction need not be exact: the next sweep measures what is left. (A relative
      // tolerance of 1e-1 instead of 1e-3 costs the 3-D cavity at Kn = 0.01 one sweep in 13,
      // and takes a tenth of the linear iterations.)
      check(KSPSetType(ksp, KSPGMRES), "KSPSetType");
      check(KSPSetTolerances(ksp, 1e-1, PETSC_DEFAULT, PETSC_DEFAULT, 200), "KSPSetTolerances");
      if (multigrid_levels > 1)
        use_multigrid(pc);
      else
        check(PCSetType(pc, PCILU), "PCSetType");
    }
    check(KSPSetOptionsPrefix(ksp, kOptionsPrefix), "KSPSetOptionsPrefix");
    check(KSPSetFromOptions(ksp), "KSPSetFromOptions");
  }

  // Geometric multigrid on the cells: ILU(0) alone needs more Krylov iterations the finer the
  // grid, V-cycles with one ILU(0) smoothing per level one or two on any (docs/physics.md). The coarse levels' cells are 2^3 fine cells each (piecewise
  // constant interpolation, as suits cell averages) and their operators are the Galerkin
  // products, so solids and walls need no coarse description of their own.
  void use_multigrid(PC pc) {
    check(DMDACreate3d(PETSC_COMM_SELF, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE,
                       DMDA_STENCIL_STAR, n[0], n[1], n[2], 1, 1, 1, kConserved, 1, nullptr,
                       nullptr, nullptr, &cells_dm),
          "DMDACreate3d");
    check(DMSetUp(cells_dm), "DMSetUp");
    check(DMDASetInterpolationType(cells_dm, DMDA_Q0), "DMDASetInterpolationType");
    check(KSPSetDM(ksp, cells_dm), "KSPSetDM");
    check(KSPSetDMActive(ksp, PETSC_FALSE), "KSPSetDMActive");  // the operator is ours
    check(PCSetType(pc, PCMG), "PCSetType");
    check(PCMGSetLevels(pc, multigrid_levels, nullptr), "PCMGSetLevels");
    check(PCMGSetGalerkin(pc, PC_MG_GALERKIN_PMAT), "PCMGSetGalerkin");
    for (int level = 1; level < multigrid_levels; ++level) {
      KSP smoother = nullptr;
      PC smoothing = nullptr;
      check(PCMGGetSmoother(pc, level, &smoother), "PCMGGetSmoother");
      check(KSPSetType(smoother, KSPRICHARDSON), "KSPSetType");
      check(KSPSetTolerances(smoother, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 1),
            "KSPSetTolerances");
      check(KSPGetPC(smoother, &smoothing), "KSPGetPC");
      check(PCSetType(smoothing, PCILU), "PCSetType");
    }
  }

  ~Impl() {
    if (ksp) KSPDestroy(&ksp);
    if (cells_dm) DMDestroy(&cells_dm);
    if (coloring) MatFDColoringDestroy(&coloring);
    if (jacobian) MatDestroy(&jacobian);
    if (x) VecDestroy(&x);
    if (rhs) VecDestroy(&rhs);
    if (step) VecDestroy(&step);
  }
};

double synthetic_correction_bytes(const PhysicalGrid& grid) {
  // Fitted to the measured host peaks (64^2, 128^2 cells; 24^3 and 32^3 with ILU(0); 24^3, 32^3
  // and 40^3 with multigrid, whose AIJ matrices and coarse levels take twice the memory: within
  // 3 %).
  const double cells = double(grid.interior_cells());
  if (grid.dim <= 2) return cells * 750.0 * std::log2(std::max(cells, 2.0));
  return cells * (multigrid_levels(grid) > 1 ? 9700.0 : 5200.0);
}

SyntheticCorrection::SyntheticCorrection(const SyntheticConfig& config)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side)
      require(!config.grid.active[a] || config.faces[a][side].kind != FaceKind::periodic,
              "synthetic correction: periodic faces are not supported");
  m.config = config;
  for (int a = 0; a < 3; ++a) m.n[a] = config.grid.cells(a);
  m.stride[1] = m.n[0];
  m.stride[2] = std::int64_t(m.n[0]) * m.n[1];
  m.cells = config.grid.interior_cells();
  m.nu.assign(m.cells, 0.0);
  m.multigrid_levels = multigrid_levels(config.grid);
  m.create_jacobian();
}

SyntheticCorrection::~SyntheticCorrection() = default;

int SyntheticCorrection::last_linear_iterations() const { return impl_->linear_iterations; }

void SyntheticCorrection::macroscopic_operator(const double* conserved, double* out) const {
  impl_->apply(conserved, out);
}

void SyntheticCorrection::correct(const std::vector<double>& previous, std::vector<double>& swept) {
  Impl& m = *impl_;
  const SyntheticGas& gas = m.config.gas;
  std::vector<Macroscopic> half(m.cells);
  PetscScalar *x = nullptr, *rhs = nullptr;
  check(VecGetArray(m.x, &x), "VecGetArray");
  check(VecGetArray(m.rhs, &rhs), "VecGetArray");
  for (std::int64_t c = 0; c < m.cells; ++c) {
    double* U = x + c * kConserved;
    double* b = rhs + c * kConserved;
    if (m.solid(c)) {
      std::fill_n(U, kConserved, 1.0);
      std::fill_n(b, kConserved, 0.0);
      continue;
    }
    Sums<kRawMoments> s, before;
    for (int k = 0; k < kRawMoments; ++k) {
      s[k] = swept[c * kRawMoments + k];
      before[k] = previous[c * kRawMoments + k];
    }
    half[c] = macroscopic_from_raw<3>(s);
    const Macroscopic k0 = macroscopic_from_raw<1>(before);
    m.nu[c] = gas.frequency(k0.n, k0.T);
    U[0] = s[kM0];
    b[0] = m.nu[c] * (s[kM0] - before[kM0]);
    for (int i = 0; i < 3; ++i) {
      U[1 + i] = s[kM1 + i];
      b[1 + i] = m.nu[c] * (s[kM1 + i] - before[kM1 + i]);
    }
    const double e = s[kM2] + s[kM2 + 1] + s[kM2 + 2];
    const double e0 = before[kM2] + before[kM2 + 1] + before[kM2 + 2];
    U[4] = 0.5 * e;
    b[4] = m.nu[c] * 0.5 * (e - e0);
  }
  check(VecRestoreArray(m.rhs, &rhs), "VecRestoreArray");
  check(VecRestoreArray(m.x, &x), "VecRestoreArray");
  if (m.since_jacobian < 0 || m.since_jacobian >= kJacobianLag) {
    check(MatFDColoringApply(m.jacobian, m.coloring, m.x, nullptr), "MatFDColoringApply");
    check(KSPSetOperators(m.ksp, m.jacobian, m.jacobian), "KSPSetOperators");
    m.since_jacobian = 0;
  }
  ++m.since_jacobian;
  check(KSPSolve(m.ksp, m.rhs, m.step), "KSPSolve");
  if (!m.options_checked) {
    reject_unused_solver_options(kOptionsPrefix, "synthetic correction's linear solver", true);
    m.options_checked = true;
  }
  PetscInt its = 0;
  KSPGetIterationNumber(m.ksp, &its);
  // A solve that broke down (not merely out of iterations: that step is still a correction)
  // corrects nothing.
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  check(KSPGetConvergedReason(m.ksp, &reason), "KSPGetConvergedReason");
  if (reason < 0 && reason != KSP_DIVERGED_ITS) check(VecSet(m.step, 0.0), "VecSet");
  m.linear_iterations = int(its);
  const PetscScalar* dx = nullptr;
  check(VecGetArrayRead(m.step, &dx), "VecGetArrayRead");
  check(VecGetArray(m.x, &x), "VecGetArray");
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < m.cells; ++c) {
    if (m.solid(c)) continue;
    // Far from the fixed point (a shock forming ahead of a body) the linear step can overshoot:
    // each cell takes the largest fraction of it (halving) that changes its density,
    // temperature and velocity by at most kLargestChange. A step scaled per cell still vanishes at
    // the fixed point.
    const State before = state_of(x + c * kConserved);
    double U[kConserved];
    double fraction = 1.0;
    for (int tries = 0;; ++tries) {
      for (int k = 0; k < kConserved; ++k)
        U[k] = x[c * kConserved + k] + fraction * dx[c * kConserved + k];
      const State after = state_of(U);
      double du2 = 0.0;
      for (int i = 0; i < 3; ++i) du2 += (after.u[i] - before.u[i]) * (after.u[i] - before.u[i]);
      const bool within = std::isfinite(after.T) && std::isfinite(after.n) &&
                          std::abs(after.n - before.n) <= kLargestChange * before.n &&
                          std::abs(after.T - before.T) <= kLargestChange * before.T &&
                          du2 <= kLargestChange * kLargestChange * before.T;
      if (within) break;
      if (tries == 30) {
        std::copy_n(x + c * kConserved, kConserved, U);
        break;
      }
      fraction *= 0.5;
    }
    const State s = state_of(U);
    const Macroscopic& h = half[c];
    // The new equilibrium part, the sweep's non-equilibrium part: P = P_half + (p - p_half) I.
    double P[6];
    for (int k = 0; k < 6; ++k) P[k] = h.P[k] + (k < 3 ? 0.5 * (s.n * s.T - h.n * h.T) : 0.0);
    double* raw = swept.data() + c * kRawMoments;
    raw[kM0] = s.n;
    for (int i = 0; i < 3; ++i) raw[kM1 + i] = s.n * s.u[i];
    const int pairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 6; ++k) raw[kM2 + k] = P[k] + s.n * s.u[pairs[k][0]] * s.u[pairs[k][1]];
    const double u2 = s.u[0] * s.u[0] + s.u[1] * s.u[1] + s.u[2] * s.u[2];
    const double trace = P[0] + P[1] + P[2];
    for (int i = 0; i < 3; ++i) {
      double Pu = 0.0;
      for (int j = 0; j < 3; ++j) Pu += P[m2_index(i, j)] * s.u[j];
      // sum f xi_i |xi|^2 with xi = u + c: n u_i u^2 + u_i tr P + 2 (P u)_i + q_i.
      raw[kM3 + i] = s.n * s.u[i] * u2 + s.u[i] * trace + 2.0 * Pu + h.q[i];
    }
  }
  check(VecRestoreArray(m.x, &x), "VecRestoreArray");
  check(VecRestoreArrayRead(m.step, &dx), "VecRestoreArrayRead");
}

}  // namespace bolt
