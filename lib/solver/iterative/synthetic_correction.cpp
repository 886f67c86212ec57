#include "solver/iterative/synthetic_correction.hpp"

#include <petscksp.h>
#include <petscmat.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"
#include "core/petsc_check.hpp"
#include "core/phase_events.hpp"
#include "core/solver_options.hpp"
#include "core/threaded_vec.hpp"
#include "kernels/macroscopic.hpp"
#include "solver/iterative/synthetic_multigrid.hpp"
#include "solver/iterative/synthetic_operator.hpp"

namespace bolt {

namespace {

constexpr int kConserved = kSyntheticConserved;
// The largest relative change of a cell's density or temperature in one correction, and of its
// velocity in units of its thermal speed sqrt(T).
constexpr double kLargestChange = 0.5;

constexpr const char* kOptionsPrefix = "iter_synthetic_";
const bool kOptionsPrefixRegistered =
    register_solver_options_prefix(kOptionsPrefix, {"iter_synthetic", {"true"}});

constexpr PetscChecker check{"synthetic correction"};

using State = SyntheticOperator::State;
constexpr auto state_of = &SyntheticOperator::state_of;

// What solves the correction where no multigrid does: LU on lines and planes, GMRES with
// ILU(0) on boxes.
const char* without_multigrid(int dim) {
  return dim <= 2 ? "LU" : "GMRES with ILU(0)";
}

// The preconditioner -iter_synthetic_pc_type asks for in place of the multigrid ("": none).
// Its levels would not be used, so none are built (in 3-D GMRES then goes around it, unless
// -iter_synthetic_ksp_type says otherwise).
std::string multigrid_replaced_by() {
  char type[64] = "";
  PetscBool set = PETSC_FALSE;
  check(PetscOptionsGetString(nullptr, kOptionsPrefix, "-pc_type", type, sizeof type, &set),
        "PetscOptionsGetString");
  return set && std::string(type) != PCMG ? type : "";
}

// The levels of the multigrid: as many as the grid allows, or -iter_synthetic_pc_mg_levels;
// 1 (none) where -iter_synthetic_pc_type replaces the multigrid. bolt builds them; PETSc's PCMG
// reads the option too, and keeps levels of the count it asks for (any other count it would
// make anew, without operators).
int multigrid_levels(int dim, const int n[3]) {
  const std::string replaced_by = multigrid_replaced_by();
  const int most = replaced_by.empty() ? synthetic_multigrid_levels(n) : 1;
  const std::string option = std::string("-") + kOptionsPrefix + "pc_mg_levels";
  PetscInt asked = 0;
  PetscBool set = PETSC_FALSE;
  check(PetscOptionsGetInt(nullptr, nullptr, option.c_str(), &asked, &set), "PetscOptionsGetInt");
  if (!set) return most;
  require(dim >= 2, option, " ", asked, ": a line's correction is factored (LU), not iterated");
  require(replaced_by.empty(), option, " ", asked, ": levels of the multigrid, which -",
          kOptionsPrefix, "pc_type ", replaced_by, " replaces");
  require(asked >= 1 && asked <= most, option, " ", asked, ": this grid of ", n[0], " x ", n[1],
          " x ", n[2], " cells allows 1 to ", most, " (levels of merged cells, 2 along each axis "
          "of more than one cell, while every such axis stays even and keeps 4 cells, on a "
          "plane until the coarsest has at most 4096; 1: ", without_multigrid(dim), ")");
  return int(asked);
}

}  // namespace

struct SyntheticCorrection::Impl {
  explicit Impl(const SyntheticConfig& config) : gas(config.gas), op(config) {}

  SyntheticGas gas;
  SyntheticOperator op;
  Mat jacobian = nullptr;
  std::unique_ptr<SyntheticMultigrid> multigrid;  // boxes and planes that can be halved
  KSP ksp = nullptr;
  Vec x = nullptr, rhs = nullptr, step = nullptr;
  int since_jacobian = -1;  // corrections since the Jacobian was formed (-1: never)
  bool options_checked = false;
  int linear_iterations = 0;

  void create(int dim) {
    const std::int64_t cells = op.cells();
    jacobian = create_block_matrix(op.pattern(), cells);
    const int n[3] = {op.cells_along(0), op.cells_along(1), op.cells_along(2)};
    const int levels = multigrid_levels(dim, n);
    if (levels > 1) multigrid = std::make_unique<SyntheticMultigrid>(n, op.pattern(), levels);
    check(create_threaded_vector(PetscInt(cells * kConserved), kConserved, &x),
          "create_threaded_vector");
    check(VecDuplicate(x, &rhs), "VecDuplicate");
    check(VecDuplicate(x, &step), "VecDuplicate");
    create_solver(dim);
  }

  // The linear solver of each correction. PETSc's options under the prefix iter_synthetic_
  // (-iter_synthetic_ksp_type, -iter_synthetic_pc_type, -iter_synthetic_ksp_monitor ...) override
  // the choice made here.
  void create_solver(int dim) {
    check(KSPCreate(PETSC_COMM_SELF, &ksp), "KSPCreate");
    // First, so that the multigrid's levels take it too (-iter_synthetic_mg_levels_...).
    check(KSPSetOptionsPrefix(ksp, kOptionsPrefix), "KSPSetOptionsPrefix");
    PC pc = nullptr;
    check(KSPGetPC(ksp, &pc), "KSPGetPC");
    if (dim <= 2 && !multigrid) {
      // A line's system, or a plane that cannot be halved: factor it once per Jacobian (PETSc's
      // LU on the 5 x 5 blocks is twice as fast as on single entries, and faster than UMFPACK).
      check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
      check(PCSetType(pc, PCLU), "PCSetType");
    } else if (dim == 2) {
      // A plane: FGMRES around the V-cycle to a relative 1e-3 of the true residual, so that the
      // outer iteration goes where the exact (LU) correction takes it, at a cost that grows with
      // the cells, not faster. A plane's V-cycle alone leaves too much of the right side for
      // fast walls, where its steps can stall the iteration (docs/physics.md).
      check(KSPSetType(ksp, KSPFGMRES), "KSPSetType");
      check(KSPSetTolerances(ksp, 1e-3, PETSC_DEFAULT, PETSC_DEFAULT, 200), "KSPSetTolerances");
      multigrid->configure(pc);
    } else {
      // A box. The correction need not be exact: the next sweep measures what is left. Where
      // multigrid coarsens it one V-cycle, which costs a third of GMRES to a relative 1e-1 (two
      // or three V-cycles) and the 3-D cavities two or three sweeps more in 15 (docs/physics.md);
      // ILU(0) alone needs more Krylov iterations the finer the grid. (A relative tolerance of
      // 1e-1 instead of 1e-3 costs the 3-D cavity at Kn = 0.01 one sweep in 13, and takes a
      // tenth of the linear iterations; it also holds where -iter_synthetic_ksp_type asks for a
      // Krylov method around the multigrid.)
      check(KSPSetType(ksp, multigrid ? KSPPREONLY : KSPGMRES), "KSPSetType");
      check(KSPSetTolerances(ksp, 1e-1, PETSC_DEFAULT, PETSC_DEFAULT, 200), "KSPSetTolerances");
      if (multigrid)
        multigrid->configure(pc);
      else
        check(PCSetType(pc, PCILU), "PCSetType");
    }
    check(KSPSetFromOptions(ksp), "KSPSetFromOptions");
  }

  // The Jacobian of the macroscopic operator at the state in x, and the coarse levels' operators.
  void form_jacobian() {
    const Phase<> phase("BoltSyntheticJacobian");
    const PetscScalar* U = nullptr;
    PetscScalar* blocks = nullptr;
    check(VecGetArrayRead(x, &U), "VecGetArrayRead");
    check(MatSeqBAIJGetArray(jacobian, &blocks), "MatSeqBAIJGetArray");
    op.jacobian(U, blocks);
    if (multigrid) multigrid->galerkin(blocks);
    restore_written_blocks(jacobian, blocks);
    check(VecRestoreArrayRead(x, &U), "VecRestoreArrayRead");
    check(KSPSetOperators(ksp, jacobian, jacobian), "KSPSetOperators");
  }

  ~Impl() {
    if (ksp) KSPDestroy(&ksp);
    multigrid.reset();
    if (jacobian) MatDestroy(&jacobian);
    if (x) VecDestroy(&x);
    if (rhs) VecDestroy(&rhs);
    if (step) VecDestroy(&step);
  }
};

double synthetic_correction_bytes(const PhysicalGrid& grid) {
  // Bounds the host peaks measured on planes of 64^2 to 256^2 cells and on boxes of 24^3 to
  // 40^3 (docs/benchmarks.md, "Pre-run memory plan"): a factored plane's LU fill grows as the
  // log of its cells; the coarse levels of a box or plane add a seventh (a third) of the fine
  // matrix and its smoother's inverted diagonal blocks; on a plane FGMRES keeps two vectors of
  // 5 doubles a cell per iteration up to its restart of 30, and its coarsest level, factored at
  // any size, its LU where an odd axis or -iter_synthetic_pc_mg_levels left it above the size
  // that measure includes.
  const auto plane_lu = [](double cells) {
    return cells * 750.0 * std::log2(std::max(cells, 2.0));
  };
  const double cells = double(grid.interior_cells());
  const int n[3] = {grid.cells(0), grid.cells(1), grid.cells(2)};
  const int levels = multigrid_levels(grid.dim, n);
  if (levels > 1 && grid.dim <= 2) {
    const double coarsest = cells / std::pow(4.0, levels - 1);
    const double krylov = 30 * 2 * kConserved * sizeof(double);
    return cells * (4400.0 + krylov) + (coarsest > 4096.0 ? plane_lu(coarsest) : 0.0);
  }
  if (levels > 1) return cells * 4400.0;
  if (grid.dim <= 2) return plane_lu(cells);
  return cells * 4150.0;
}

SyntheticCorrection::SyntheticCorrection(const SyntheticConfig& config) {
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side)
      require(!config.grid.active[a] || config.faces[a][side].kind != FaceKind::periodic,
              "synthetic correction: periodic faces are not supported");
  impl_ = std::make_unique<Impl>(config);
  impl_->create(config.grid.dim);
}

SyntheticCorrection::~SyntheticCorrection() = default;

int SyntheticCorrection::last_linear_iterations() const { return impl_->linear_iterations; }

void SyntheticCorrection::macroscopic_operator(const double* conserved, double* out) const {
  impl_->op.apply(conserved, out);
}

void SyntheticCorrection::correct(const std::vector<double>& previous, std::vector<double>& swept) {
  Impl& m = *impl_;
  const SyntheticGas& gas = m.gas;
  const std::int64_t cells = m.op.cells();
  std::vector<double>& nu = m.op.frequencies();
  std::vector<Macroscopic> half(cells);
  // Cells without a physical state before or after the sweep (a density or temperature not
  // positive, which an accelerator's iterate can lead to) are not corrected: one the sweep left
  // without it goes back to its state before the sweep, so that the next sweep starts from a
  // gas; one that came to it without one keeps what the sweep gave it.
  enum : unsigned char { kCorrect, kKeepSwept, kKeepPrevious };
  std::vector<unsigned char> fate(cells, kCorrect);
  PetscScalar *x = nullptr, *rhs = nullptr;
  check(VecGetArray(m.x, &x), "VecGetArray");
  check(VecGetArray(m.rhs, &rhs), "VecGetArray");
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < cells; ++c) {
    double* U = x + c * kConserved;
    double* b = rhs + c * kConserved;
    if (m.op.solid(c)) {
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
    Macroscopic k0 = macroscopic_from_raw<1>(before);
    if (!is_gas(half[c]) || !is_gas(k0)) {
      // The operator and its Jacobian see such a cell in a physical state (before the sweep,
      // else after it, else the gas at rest), with no right side.
      fate[c] = is_gas(k0) ? kKeepPrevious : kKeepSwept;
      if (!is_gas(k0) && is_gas(half[c])) {
        before = s;
      } else if (!is_gas(k0)) {
        before = Sums<kRawMoments>{};
        before[kM0] = 1.0;
        for (int k = 0; k < 3; ++k) before[kM2 + k] = 0.5;
      }
      k0 = macroscopic_from_raw<1>(before);
      s = before;
    }
    nu[c] = gas.frequency(k0.n, k0.T);
    U[0] = s[kM0];
    b[0] = nu[c] * (s[kM0] - before[kM0]);
    for (int i = 0; i < 3; ++i) {
      U[1 + i] = s[kM1 + i];
      b[1 + i] = nu[c] * (s[kM1 + i] - before[kM1 + i]);
    }
    const double e = s[kM2] + s[kM2 + 1] + s[kM2 + 2];
    const double e0 = before[kM2] + before[kM2 + 1] + before[kM2 + 2];
    U[4] = 0.5 * e;
    b[4] = nu[c] * 0.5 * (e - e0);
  }
  check(VecRestoreArray(m.rhs, &rhs), "VecRestoreArray");
  check(VecRestoreArray(m.x, &x), "VecRestoreArray");
  if (m.since_jacobian < 0 || m.since_jacobian >= kJacobianLag) {
    m.form_jacobian();
    m.since_jacobian = 0;
  }
  ++m.since_jacobian;
  {
    const Phase<> phase("BoltSyntheticSolve");
    check(KSPSolve(m.ksp, m.rhs, m.step), "KSPSolve");
  }
  if (!m.options_checked) {
    reject_unused_solver_options(kOptionsPrefix, "synthetic correction's linear solver", true);
    m.options_checked = true;
  }
  PetscInt its = 0;
  check(KSPGetIterationNumber(m.ksp, &its), "KSPGetIterationNumber");
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
  for (std::int64_t c = 0; c < cells; ++c) {
    if (m.op.solid(c)) continue;
    if (fate[c] == kKeepPrevious)
      std::copy_n(previous.data() + c * kRawMoments, kRawMoments, swept.data() + c * kRawMoments);
    if (fate[c] != kCorrect) continue;
    const Macroscopic& h = half[c];
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
