#pragma once
// The device-side state of the Monte Carlo collision that does not depend on the cells: the
// velocity-cell lookup tables, the equilibrium number weights w Phi0, the samples of the current
// step with their gather plan (McEntryIndex) and the rejection counters.
// McOperator (operator.hpp) keeps two, one for even and one for odd steps. Include after the
// backend's launch header.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/hs_mc/collision.hpp"
#include "kernels/hs_mc/samples.hpp"
#include "models/hs_mc/collision.hpp"
#include "physics/collision_kernel.hpp"

namespace bolt {

template <class Real, class Exec>
class McDevice {
 public:
  McDevice() = default;
  explicit McDevice(const McConfig& config)
      : where_(config.backend), config_(config), tables_(make_mc_tables(config.velocities)) {
    const McParams& o = config.options;
    require(o.samples > 0, "-mc_samples ", o.samples, ": must be positive");
    require(o.sampling_temperature >= 1.0, "-mc_sampling_temperature ", o.sampling_temperature,
            ": must be at least 1 (below 1 the importance weights grow in the tails of the box)");
    require(config.dt > 0.0, "Monte Carlo collision: the time step ", config.dt,
            " must be positive");
    require(config.samples_per_team > 0 && config.team_size > 0,
            "Monte Carlo collision: team sizes must be positive");
    kappa_ = collision_prefactor(config.delta, config.omega);
    check_increments();
    for (int a = 0; a < 3; ++a) faces_[a] = Buffer<double>(where_, tables_.faces[a]);
    node_of_ = Buffer<int>(where_, tables_.node_of);
    make_points(config.velocities);
    inv_number_weight_ = Buffer<double>(where_, tables_.inv_number_weight);
    make_self_loss();
    samples_ = Buffer<McSample<Real>>(where_, std::size_t(o.samples));
    samples_.set_zero();
    chunks_ = (o.samples + config.samples_per_team - 1) / config.samples_per_team;
    rejected_ = Buffer<int>(where_, std::size_t(chunks_));
    rejected_total_ = Buffer<std::int64_t>(where_, std::size_t(chunks_));
    rejected_total_.set_zero();
    make_plan_buffers();
  }

  // Orders the gather plan's row loads for teams whose row values take `lane_bytes` each in
  // shared memory (McEntrySchedule; GPU plans that pack velocities, when a group of strips fits
  // a team's shared memory).
  void schedule_loads(int lane_bytes) {
    const int length = mc_plan_length(config_.options.samples, strips_);
    const int wavefront = mc_wavefront_lanes(lane_bytes);
    const std::size_t group_bytes =
        std::size_t(mc_schedule_words(wavefront, length)) * sizeof(std::uint32_t);
    const std::size_t room = shared_memory_per_team(Exec{});
    if (!packs_ || wavefront < 2 || group_bytes + 1024 > room) return;
    wavefront_ = wavefront;
    const int groups = (strips_ + wavefront - 1) / wavefront;
    schedule_groups_per_team_ =
        std::min({kMaxWarpsPerTeam, groups, int((room - 1024) / group_bytes)});
    schedule_teams_ = (groups + schedule_groups_per_team_ - 1) / schedule_groups_per_team_;
    schedule_scratch_ = group_bytes * std::size_t(schedule_groups_per_team_);
    order_ = Buffer<std::uint32_t>(where_, std::size_t(strips_) * std::size_t(length));
  }

  // Draws the samples of `step` (no host synchronisation).
  void draw(Exec exec, std::uint32_t step) {
    const McParams& o = config_.options;
    McSampleParams params;
    params.seed = o.seed;
    params.step = step;
    params.samples = o.samples;
    params.omega = config_.omega;
    params.scale = kappa_ * config_.dt / o.samples;
    params.temperature = o.sampling_temperature;
    McSampler<Real> kernel{params,
                           locator(),
                           inv_number_weight_.data(),
                           samples_.data(),
                           rejected_.data(),
                           rejected_total_.data(),
                           config_.samples_per_team};
    for_each_team<1>(exec, chunks_, config_.team_size, 0, kernel, "mc_samples");
    ++draws_;
    index(exec);
  }

  // What every cell's collision reads of this step: the velocities and the gather plan.
  McStepTables<Real> step_tables() const {
    return {points_.data(),
            point_axes_.data(),
            int(points_.size()),
            mirror_pairs_.data(),
            int(mirror_pairs_.size()),
            equilibrium_,
            entries_.data(),
            pairs(),
            config_.options.samples,
            first_piece_.data(),
            plan_.data(),
            strips_,
            self_adjust(),
            Real(config_.options.epsilon)};
  }

  // The collision step of the pass's cells with the samples of the current step, by the kernel
  // compiled for the pass's streaming order.
  template <McCorrection Mode>
  void collide(Exec exec, const McPass<Real>& pass, const McTeamLayout& layout) const {
    if (pass.streams && pass.stream.order == 2)
      collide<Mode, 2>(exec, pass, layout);
    else
      collide<Mode, 1>(exec, pass, layout);
  }
  template <McCorrection Mode, int StreamOrder>
  void collide(Exec exec, const McPass<Real>& pass, const McTeamLayout& layout) const {
    with_mc_layout(layout, [&](auto per_team, auto rows_in_scratch) {
      using Kernel = McCollision<Real, Mode, decltype(per_team)::value,
                                 decltype(rows_in_scratch)::value, StreamOrder>;
      const Kernel kernel{step_tables(), pass};
      const std::int64_t teams = (pass.n_cells + per_team - 1) / per_team;
      for_each_team<Kernel::kSums>(exec, teams, layout.team_threads, layout.scratch_bytes, kernel,
                                   "mc_collision");
    });
  }

  McSampleStats last_draw() const {
    McSampleStats s{draws_ > 0 ? config_.options.samples : 0, 0};
    if (draws_ > 0)
      for (int r : rejected_.to_host()) s.rejected += r;
    return s;
  }
  // Takes the totals of earlier draws (a restart's) as its own.
  void set_totals(const McSampleStats& totals) {
    draws_ = totals.drawn / config_.options.samples;
    std::vector<std::int64_t> rejected(std::size_t(chunks_), 0);
    if (!rejected.empty()) rejected[0] = totals.rejected;
    rejected_total_.upload(rejected);
  }
  McSampleStats all_draws() const {
    McSampleStats s{draws_ * config_.options.samples, 0};
    for (std::int64_t r : rejected_total_.to_host()) s.rejected += r;
    return s;
  }

  std::vector<McSampleHost> samples() const {
    const std::vector<McSample<Real>> device = samples_.to_host();
    std::vector<McSampleHost> host(device.size());
    for (std::size_t l = 0; l < device.size(); ++l)
      for (int r = 0; r < 4; ++r) {
        host[l].cell[r] = device[l].cell[r];
        host[l].coef[r] = double(device[l].coef[r]);
      }
    return host;
  }

  void set_samples(const std::vector<McSampleHost>& host) {
    require(host.size() == std::size_t(config_.options.samples), "set_samples: ", host.size(),
            " samples, the operator draws ", config_.options.samples);
    const int nv = int(tables_.number_weight.size());
    std::vector<McSample<Real>> device(host.size());
    for (std::size_t l = 0; l < host.size(); ++l)
      for (int r = 0; r < 4; ++r) {
        require(host[l].cell[r] >= -1 && host[l].cell[r] < nv, "set_samples: sample ", l,
                " names velocity ", host[l].cell[r]);
        require((host[l].cell[r] < 0) == (host[l].cell[0] < 0), "set_samples: sample ", l,
                " is rejected in some slots only (all four cells -1, or none)");
        // The gather plan tells losses from gains by the sign it gives them (McEntryIndex).
        require(host[l].coef[r] >= 0.0, "set_samples: sample ", l, " has increment ",
                host[l].coef[r], " (must be at least 0)");
        device[l].cell[r] = host[l].cell[r];
        device[l].coef[r] = Real(host[l].coef[r]);
      }
    samples_.upload(device);
    index(Exec{});
  }

  // McCollisionOperator::gather_lists.
  std::vector<std::vector<int>> gather_lists() const {
    const std::vector<int> start = entry_start_.to_host(), key = sorted_key_.to_host();
    std::vector<std::vector<int>> lists(start.size() - 1);
    for (std::size_t v = 0; v + 1 < start.size(); ++v)
      lists[v].assign(key.begin() + start[v], key.begin() + start[v + 1]);
    return lists;
  }

  const McTables& tables() const { return tables_; }
  int strips() const { return strips_; }
  // Samples whose g McCollision stores in its team scratch: N_t when the gather plan's entries
  // name samples, else 0.
  int g_samples() const { return packs_ ? 0 : config_.options.samples; }
  double kappa() const { return kappa_; }

 private:
  // The largest increment: W <= |xi_r| <= the box diagonal (hard spheres; VHS smaller), times
  // the largest importance weight tau^3, over the smallest equilibrium number. It must stay
  // far from overflow in Real.
  void check_increments() const {
    const McParams& o = config_.options;
    double diagonal2 = 0.0, largest_inverse = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double extent = tables_.faces[a].back() - tables_.faces[a].front();
      diagonal2 += extent * extent;
    }
    for (double x : tables_.inv_number_weight) largest_inverse = std::max(largest_inverse, x);
    const double tau = o.sampling_temperature, importance = tau * tau * tau;
    const double largest =
        kappa_ * config_.dt / o.samples * std::sqrt(diagonal2) * importance * largest_inverse;
    require(largest < 1e-6 * double(std::numeric_limits<Real>::max()),
            "Monte Carlo collision: increments up to ", largest,
            " in the far corners of the velocity box overflow ",
            sizeof(Real) == 4 ? "float" : "double",
            "; use a smaller box (-vgrid_half_width) or double precision");
  }

  // The points the collision reads (xi and w Phi0 rounded to Real), their mirror pairs, their
  // axes as three tables, and the monomial sums of the equilibrium over them.
  void make_points(const VelocityGrid& velocities) {
    const std::vector<Real> number_weight(tables_.number_weight.begin(),
                                          tables_.number_weight.end());
    std::vector<McPoint<Real>> points(number_weight.size());
    for (std::size_t v = 0; v < points.size(); ++v)
      points[v] = {Real(velocities.xi[0][v]), Real(velocities.xi[1][v]),
                   Real(velocities.xi[2][v]), number_weight[v]};
    // The collision's mirror pairs (McMirrorPair): across xi_z = 0 where the grid has the
    // symmetry (its nodes agree to 1e-12), the second taking the first's point exactly, so that
    // the sums even and odd in z are those of the pair's own points; else every velocity alone.
    std::vector<McMirrorPair> pairs;
    for (int v = 0; v < velocities.size(); ++v) {
      const int mirror = velocities.symmetric(2) ? velocities.reflect[2][v] : v;
      if (mirror < v) continue;
      pairs.push_back({v, mirror});
      points[mirror] = {points[v].x, points[v].y, -points[v].z, points[v].w};
    }
    mirror_pairs_ = Buffer<McMirrorPair>(where_, pairs);
    points_ = Buffer<McPoint<Real>>(where_, points);
    const std::size_t stride = stream_table_stride(int(points.size()));
    std::vector<Real> axes(3 * stride);
    for (std::size_t v = 0; v < points.size(); ++v) {
      axes[v] = points[v].x;
      axes[stride + v] = points[v].y;
      axes[2 * stride + v] = points[v].z;
    }
    point_axes_ = Buffer<Real>(where_, axes);
    // With the points the kernel sees, so that the constant part of the correction matrix
    // matches the h' part the kernel sums.
    for (const McPoint<Real>& p : points) {
      double m[kMcMonomials];
      invariant_monomials(double(p.x), double(p.y), double(p.z), m);
      for (int k = 0; k < kMcMonomials; ++k) equilibrium_.sum[k] += double(p.w) * m[k];
    }
  }

  // Each step multiplies h_v by 1 - L_v on average (either self-loss): beyond 1 the step
  // overshoots, and the run grows to NaN. With -mc_self_loss expected, L_v and the per-step
  // adjustment (McSelfAdjust).
  void make_self_loss() {
    const std::vector<double> loss =
        mc_expected_self_loss(tables_, kappa_, config_.dt, config_.omega);
    const auto most = std::max_element(loss.begin(), loss.end());
    require(*most < 1.0, "Monte Carlo collision: the time step ", config_.dt,
            " removes a fraction ", *most, " of h per step at velocity ",
            int(most - loss.begin()),
            " (must be below 1): lower -ts_max_courant or -ts_collision_fraction, or set a "
            "smaller -ts_dt");
    if (config_.options.expected_self_loss) {
      expected_self_loss_ = Buffer<Real>(where_, std::vector<Real>(loss.begin(), loss.end()));
      self_adjust_ = Buffer<Real>(where_, loss.size());
    }
  }

  // The gather plan's buffers and the sort's and index kernel's work space.
  void make_plan_buffers() {
    const int nv = int(tables_.number_weight.size()), samples = config_.options.samples;
    require(config_.gather_strips >= 0, "Monte Carlo collision: ", config_.gather_strips,
            " strips of the gather plan");
    strips_ = config_.gather_strips > 0 ? config_.gather_strips
                                        : mc_gather_strips(shared_memory_per_team(Exec{}) > 0);
    entries_ = Buffer<McEntryVector<Real>>(where_, std::size_t(mc_plan_vectors(samples, strips_)));
    entry_start_ = Buffer<int>(where_, std::size_t(nv) + 1);
    first_piece_ = Buffer<int>(where_, std::size_t(nv) + 1);
    plan_ = Buffer<int>(where_, 1 + std::size_t(strips_));
    packs_ = mc_packs_velocities(shared_memory_per_team(Exec{}) > 0, nv);
    if (!packs_) pairs_ = Buffer<McPair>(where_, std::size_t(samples));
    const std::size_t entries = 4 * std::size_t(samples);
    for (Buffer<int>* b : {&entry_velocity_, &entry_key_, &sorted_velocity_, &sorted_key_})
      *b = Buffer<int>(where_, entries);
    sort_workspace_ = Buffer<char>(
        where_, sort_pairs_workspace(Exec{}, int(entries), mc_entry_key_bits(nv)));
    // The index kernel's work space: in shared memory when it fits, else in global memory.
    const std::size_t work = std::size_t(mc_index_work_ints(nv)) * sizeof(int);
    index_scratch_ = work + 1024 <= shared_memory_per_team(Exec{}) ? work : 0;
    if (index_scratch_ == 0) entry_work_ = Buffer<int>(where_, work / sizeof(int));
  }

  // Every sample's v and v1 when the gather plan does not pack them, else nullptr.
  const McPair* pairs() const { return packs_ ? nullptr : pairs_.data(); }
  // Per velocity, this step: sampled minus expected self-loss; nullptr when sampled.
  const Real* self_adjust() const { return self_adjust_.size() ? self_adjust_.data() : nullptr; }

  VelocityLocator locator() const {
    VelocityLocator l{};
    for (int a = 0; a < 3; ++a) {
      l.faces[a] = faces_[a].data();
      l.n[a] = int(faces_[a].size()) - 1;
    }
    l.node_of = node_of_.data();
    return l;
  }

  // The gather plan of the current samples (McEntryIndex): the increments sorted by velocity,
  // the lists and pieces (one team: a step has 4 N_t entries), the entries, the self-loss
  // adjustment.
  void index(Exec exec) {
    const int nv = int(tables_.number_weight.size()), samples = config_.options.samples;
    const int entries = 4 * samples;
    const McEntryKeys<Real> keys{samples_.data(), samples, nv, entry_velocity_.data(),
                                 entry_key_.data()};
    const auto teams = [](std::int64_t n) {
      return (n + kMcPlanItemsPerTeam - 1) / kMcPlanItemsPerTeam;
    };
    for_each_team<1>(exec, teams(entries), config_.team_size, 0, keys, "mc_entry_keys");
    stable_sort_pairs(exec, entry_velocity_.data(), sorted_velocity_.data(), entry_key_.data(),
                      sorted_key_.data(), entries, mc_entry_key_bits(nv), sort_workspace_.data(),
                      sort_workspace_.size());
    const McEntryIndex<Real> index{samples_.data(),     samples,
                                   nv,                  strips_,
                                   sorted_velocity_.data(), entry_start_.data(),
                                   first_piece_.data(), plan_.data(),
                                   entry_work_.data(),
                                   packs_ ? nullptr : pairs_.data()};
    for_each_team<1>(exec, 1, 1024, index_scratch_, index, "mc_entry_index");
    const bool scheduled = wavefront_ > 1;
    if (scheduled) {
      const McEntrySchedule<Real> schedule{samples_.data(),
                                           nv,
                                           strips_,
                                           wavefront_,
                                           schedule_groups_per_team_,
                                           mc_plan_length(samples, strips_),
                                           sorted_velocity_.data(),
                                           sorted_key_.data(),
                                           entry_start_.data(),
                                           plan_.data(),
                                           order_.data()};
      for_each_team<1>(exec, schedule_teams_, kTeamGroup * schedule_groups_per_team_,
                       schedule_scratch_, schedule, "mc_entry_schedule");
    }
    const McEntryPlace<Real> place{samples_.data(),
                                   nv,
                                   strips_,
                                   packs_,
                                   sorted_velocity_.data(),
                                   sorted_key_.data(),
                                   entry_start_.data(),
                                   plan_.data(),
                                   scheduled ? order_.data() : nullptr,
                                   entries_.data()};
    // Positions of the plan: length * strips, at most the bound mc_plan_vectors gives.
    const std::int64_t positions = mc_plan_vectors(samples, strips_);
    for_each_team<1>(exec, teams(positions), config_.team_size, 0, place, "mc_entry_place");
    if (self_adjust_.size()) {
      const McSelfAdjust<Real> adjust{samples_.data(), sorted_key_.data(), entry_start_.data(),
                                      expected_self_loss_.data(), self_adjust_.data()};
      for_each_team<1>(exec, nv, 32, 0, adjust, "mc_self_adjust");
    }
  }

  Backend where_ = Backend::cpu;
  McConfig config_;  // the operator's (McDevice reads its options, gas and team sizes)
  McTables tables_;
  double kappa_ = 0.0;
  std::array<Buffer<double>, 3> faces_;
  Buffer<int> node_of_;
  Buffer<McPoint<Real>> points_;  // xi and w Phi0, rounded to Real as the collision uses them
  Buffer<Real> point_axes_;       // their x, y, z as three tables (McCollision::point_axes)
  Buffer<McMirrorPair> mirror_pairs_;
  Buffer<double> inv_number_weight_;
  McEquilibriumMonomials equilibrium_{};  // sum_v w Phi0 m(xi_v)
  Buffer<McSample<Real>> samples_;
  int strips_ = 1;  // of the gather plan (McEntryIndex)
  Buffer<McEntryVector<Real>> entries_;
  Buffer<int> entry_start_, first_piece_, plan_, entry_work_;
  // The increments' velocities and keys (McEntryKeys), and both sorted by velocity.
  Buffer<int> entry_velocity_, entry_key_, sorted_velocity_, sorted_key_;
  Buffer<char> sort_workspace_;
  bool packs_ = true;     // the gather plan's entries pack v and v1 (mc_packs_velocities)
  Buffer<McPair> pairs_;  // else every sample's v and v1
  Buffer<Real> expected_self_loss_, self_adjust_;  // -mc_self_loss expected
  std::size_t index_scratch_ = 0;  // bytes of shared memory the index kernel works in
  // McEntrySchedule: lanes per wavefront (0: the plan is not scheduled), groups of strips per
  // team, its teams, the bytes of shared memory a team works in, and its order.
  int wavefront_ = 0;
  int schedule_groups_per_team_ = 1, schedule_teams_ = 0;
  std::size_t schedule_scratch_ = 0;
  Buffer<std::uint32_t> order_;
  Buffer<int> rejected_;
  Buffer<std::int64_t> rejected_total_;
  int chunks_ = 0;
  std::int64_t draws_ = 0;
};

}  // namespace bolt
