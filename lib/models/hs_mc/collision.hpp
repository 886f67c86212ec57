#pragma once
// The semi-regular Monte Carlo collision operator of paper 000 (full nonlinear Boltzmann equation,
// hard spheres / VHS) as a self-contained component: draws the collision samples of a step and
// applies the collision step (with the conservation correction) to rows of the deviational
// distribution h, f = Phi0 (1 + eps h), on either backend. Host code sees neither a backend nor
// a precision; McCollisionImpl<Real, Exec> (collision_impl.hpp), a handle on the engine's
// driver McOperator, is compiled for the CPU (collision_cpu.cpp) and for CUDA
// (collision_cuda.cu).
//
// Kernels: kernels/hs_mc/samples.hpp, plan.hpp, collision.hpp. Plain reference: reference.hpp.
// Host-side conservation solve with PETSc: petsc_block_solver.hpp.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/backend.hpp"
#include "core/error.hpp"
#include "core/team_memory.hpp"
#include "grid/velocity_grid.hpp"
#include "kernels/hs_mc/collision.hpp"
#include "models/hs_mc/params.hpp"

namespace bolt {

// What a collision operator is made for: the -mc_ options, the run's gas, time step and backend,
// and the layouts the tests force (0 or -1: chosen as for a run).
struct McConfig {
  Backend backend = Backend::cpu;
  Precision precision = Precision::double_;
  VelocityGrid velocities;  // Cartesian (possibly stretched); h lives on its nodes
  double delta = 1.0;       // rarefaction parameter p0 L / (mu0 c0)
  double omega = 0.5;       // viscosity exponent: 1/2 hard spheres, 1 Maxwell molecules (VHS)
  double dt = 0.0;          // collision time step (units L / c0)
  McParams options;
  int team_size = 256;         // GPU threads of a team of the sampling and plan kernels
  int samples_per_team = 256;  // samples per team when drawing
  // Whether the collision's working rows are kept in GPU shared memory (-1: when they fit, 0: no,
  // 1: yes), and the strips of the gather plan (0: one per GPU team thread, 1 on the CPU).
  int rows_in_scratch = -1;
  int gather_strips = 0;
};

// A sample as the host sees it (cells and increments in double), kernels/hs_mc/samples.hpp.
struct McSampleHost {
  std::array<int, 4> cell;
  std::array<double, 4> coef;
};

struct McSampleStats {
  std::int64_t drawn = 0, rejected = 0;
  double fraction() const { return drawn ? double(rejected) / double(drawn) : 0.0; }
};

// Size of the conservation correction and of the drift it removes, over the cells of one step.
struct McCorrectionSummary {
  double max_y = 0.0;         // max over cells of |y|_2 (the correction in units of h)
  double max_abc = 0.0;       // max over cells of |(A, B, C)|_2 = eps |y|_2 (paper's Eq. 25)
  double max_drift[3] = {0.0, 0.0, 0.0};  // max |M' - M~|: mass, momentum (2-norm), energy
};
McCorrectionSummary summarize_records(const std::vector<double>& records, double epsilon);

class McCollisionOperator {
 public:
  virtual ~McCollisionOperator() = default;
  // Draws the N_t samples of `step` on the backend (Philox keyed by (seed, step)).
  virtual void draw(std::uint32_t step) = 0;
  // The samples now in use (host copy), and replacing them (to run both backends on one set).
  virtual std::vector<McSampleHost> samples() const = 0;
  virtual void set_samples(const std::vector<McSampleHost>& samples) = 0;
  virtual McSampleStats last_draw() const = 0;
  virtual McSampleStats all_draws() const = 0;
  // One collision step of rows of h (cell-major, velocity fastest; rows.size() = cells * nv)
  // with the current samples. Returns h_new.
  virtual std::vector<double> collide(const std::vector<double>& h) = 0;
  // kMcRecord values per cell from the last collide(): y (5), drift M' - M~ (5).
  virtual const std::vector<double>& records() const = 0;
  // kappa = pi d^2 n0 L of this delta and omega (lib/physics/collision_kernel.hpp).
  virtual double kappa() const = 0;
  // The gather plan of the current samples as lists: per velocity, the keys 4 sample + slot of
  // the increments that land on it, in the order a cell sums them (McEntryIndex).
  virtual std::vector<std::vector<int>> gather_lists() const = 0;
};

std::unique_ptr<McCollisionOperator> make_mc_collision(const McConfig& config);
std::unique_ptr<McCollisionOperator> make_cpu_mc_collision(const McConfig& config);
std::unique_ptr<McCollisionOperator> make_cuda_mc_collision(const McConfig& config);

// How McCollision (kernels/hs_mc/collision.hpp) lays out a team: how many cells it works on,
// whether their rows are in the team scratch (else one cell per team), the scratch it needs and
// its GPU threads.
struct McTeamLayout {
  int cells_per_team = 1;
  bool rows_in_scratch = false;
  std::size_t scratch_bytes = 0;
  int team_threads = 0;
};

// GPU threads of a collision team when the layout chooses: 512 when two teams share a
// multiprocessor (the most their registers allow), else 1024.
constexpr int kMcPairedTeamThreads = 512, kMcTeamThreads = 1024;

// The layout for the GPU shared memory a team may use (zero: the CPU, where one thread works on
// one cell and its output row), g of `g_samples` samples in the scratch (mc_scratch_bytes) and a
// gather plan of `strips` strips. cells_per_team = 0 and
// rows_in_scratch = -1 choose: the most cells that fit two teams per multiprocessor, else one;
// team_size = 0 then takes kMcPairedTeamThreads or kMcTeamThreads threads. A forced layout that
// does not fit is an error naming the option.
McTeamLayout mc_team_layout(const TeamSharedMemory& shared, int nv, int g_samples,
                            std::size_t real_size, int cells_per_team, int rows_in_scratch,
                            int strips, int team_size);

// Runs f(std::integral_constant<int, K>, std::bool_constant<R>) for the layout's K cells per team
// (1 or 2) and rows in the scratch R: McCollision's compile-time layout.
template <class F>
void with_mc_layout(const McTeamLayout& layout, F&& f) {
  require(layout.rows_in_scratch || layout.cells_per_team == 1,
          "Monte Carlo collision: rows outside the team scratch need one cell per team");
  if (!layout.rows_in_scratch) return f(std::integral_constant<int, 1>{}, std::false_type{});
  switch (layout.cells_per_team) {
    case 1: return f(std::integral_constant<int, 1>{}, std::true_type{});
    case 2: return f(std::integral_constant<int, 2>{}, std::true_type{});
    default: fail("Monte Carlo collision: ", layout.cells_per_team, " cells per team (1 or 2)");
  }
}

// Host tables the kernels read: cell faces per axis, the node of each (i, j, k) and the
// equilibrium number weights w_v Phi0(xi_v), Phi0 = exp(-|xi|^2) / pi^(3/2).
struct McTables {
  std::array<std::vector<double>, 3> faces;
  std::vector<int> node_of;  // [i + n0 (j + n1 k)]
  std::vector<double> number_weight, inv_number_weight;
};
McTables make_mc_tables(const VelocityGrid& velocities);

// The expected self-loss of every velocity cell per step,
//   L_v = kappa dt J_v a_v / (w_v Phi0_v),  J_v = int over the cell of Phi0(xi) m(|xi|) dxi
// (m: mean_relative_speed_power with p = 2 - 2 omega; a_v = mc_acceptance at the cell centre):
// what the loss increments of the samples whose v or v1 falls in cell v multiply h_v by, on
// average (kernels/hs_mc/collision.hpp, -mc_self_loss expected).
std::vector<double> mc_expected_self_loss(const McTables& tables, double kappa, double dt,
                                          double omega);

// The W-weighted fraction of collisions of a molecule at velocity xi with the equilibrium
// (v1 ~ Phi0, k uniform) that the sampler keeps: v1, v* and v1* inside the velocity box. About
// 1 - 2e-4 in the bulk of [-3, 3]^3, 0.5 in edge cells and a few per cent in corner cells, where
// leaving L_v at the unrejected rate would over-damp the cell (256 deterministic samples).
double mc_acceptance(const McTables& tables, const double xi[3], double omega);

}  // namespace bolt
