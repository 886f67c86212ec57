// The gather plan's schedule (kernels/hs_mc/plan.hpp, McEntrySchedule), run on the CPU backend with
// the plan the GPU builds: strips side by side, velocities packed in the entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "core/launch_cpu.hpp"
#include "kernels/hs_mc/plan.hpp"
#include "mc_helpers.hpp"

namespace bolt {
namespace {

// A step's samples and their plan as McDevice builds it on the GPU, with and without the
// schedule of McEntrySchedule for `wavefront` lanes.
struct SchedulePlan {
  int nv = 0, strips = 0, wavefront = 0, length = 0, placed = 0;
  std::vector<McSample<float>> samples;
  std::vector<int> sorted_velocity, sorted_key, start, first_piece, plan;
  std::vector<std::uint32_t> order;
  std::vector<McEntryVector<float>> entries, scheduled_entries;

  SchedulePlan(const VelocityGrid& vg, int n_samples, int strips_, int wavefront_)
      : nv(vg.size()), strips(strips_), wavefront(wavefront_) {
    auto op = make_mc_collision(test::mc_config(vg, n_samples, 0.01));
    op->draw(11);
    for (const McSampleHost& h : op->samples()) {
      McSample<float> s;
      for (int r = 0; r < 4; ++r) {
        s.cell[r] = h.cell[r];
        s.coef[r] = float(h.coef[r]);
      }
      samples.push_back(s);
    }
    const CpuExec exec;
    const int increments = 4 * n_samples;
    std::vector<int> velocity(increments), key(increments);
    sorted_velocity.resize(increments);
    sorted_key.resize(increments);
    const McEntryKeys<float> keys{samples.data(), n_samples, nv, velocity.data(), key.data()};
    const int key_items = (increments + kMcPlanItemsPerTeam - 1) / kMcPlanItemsPerTeam;
    for_each_team<1>(exec, key_items, 1, 0, keys);
    stable_sort_pairs(exec, velocity.data(), sorted_velocity.data(), key.data(), sorted_key.data(),
                      increments, mc_entry_key_bits(nv), nullptr, 0);
    start.resize(nv + 1);
    first_piece.resize(nv + 1);
    plan.resize(1 + strips);
    std::vector<int> work(mc_index_work_ints(nv));
    const McEntryIndex<float> index{samples.data(),       n_samples,    nv,
                                    strips,               sorted_velocity.data(),
                                    start.data(),         first_piece.data(),
                                    plan.data(),          work.data(),  nullptr};
    for_each_team<1>(exec, 1, 1, 0, index);
    length = plan[0];
    placed = start[nv];
    // Three groups per team: the last team has fewer.
    const int groups = (strips + wavefront - 1) / wavefront, per_team = 3;
    const int max_length = mc_plan_length(n_samples, strips);
    const std::size_t scratch =
        per_team * mc_schedule_words(wavefront, max_length) * sizeof(std::uint32_t);
    order.assign(std::size_t(strips) * length, 0u);
    const McEntrySchedule<float> schedule{samples.data(),         nv,
                                          strips,                 wavefront,
                                          per_team,               max_length,
                                          sorted_velocity.data(), sorted_key.data(),
                                          start.data(),           plan.data(),
                                          order.data()};
    for_each_team<1>(exec, (groups + per_team - 1) / per_team, 1, scratch, schedule);
    entries = place(nullptr);
    scheduled_entries = place(order.data());
  }

  std::vector<McEntryVector<float>> place(const std::uint32_t* by) const {
    std::vector<McEntryVector<float>> out(mc_plan_vectors(int(samples.size()), strips));
    const McEntryPlace<float> kernel{samples.data(),   nv,          strips, true,
                                     sorted_velocity.data(), sorted_key.data(), start.data(),
                                     plan.data(),      by,          out.data()};
    const std::int64_t positions = std::int64_t(length) * strips;
    for_each_team<1>(CpuExec{}, (positions + kMcPlanItemsPerTeam - 1) / kMcPlanItemsPerTeam, 1, 0,
                     kernel);
    return out;
  }

  McEntry<float> entry(const std::vector<McEntryVector<float>>& from, int p) const {
    return mc_plan_entry(const_cast<McEntryVector<float>*>(from.data()), strips, length, p);
  }

  // Shared-memory wavefronts of the gather's row loads (McCollision, step 2): at each position of
  // a strip, the `wavefront` threads of a group load the first velocities of their entries, then
  // the second ones where the entry says; each load costs its busiest bank's distinct addresses.
  int wavefronts(const std::vector<McEntryVector<float>>& from) const {
    int total = 0;
    for (int group = 0; group * wavefront < strips; ++group)
      for (int k = 0; k < length; ++k)
        for (int load = 0; load < 2; ++load) {
          std::vector<std::set<int>> bank(wavefront);
          for (int t = group * wavefront; t < strips && t < (group + 1) * wavefront; ++t) {
            const int p = t * length + k;
            if (p >= placed) continue;
            const std::uint32_t word = entry(from, p).word;
            if (load == 1 && !(word & kMcLoadsSecond)) continue;
            const int v = int(word >> (load * kMcVelocityBits) & kMcVelocityMask);
            bank[v % wavefront].insert(v);
          }
          std::size_t busiest = 0;
          for (const auto& b : bank) busiest = std::max(busiest, b.size());
          total += int(busiest);
        }
    return total;
  }
};

// Every plan position takes an increment of its own run (the same strip, list and kind), each
// increment once; only gains swap their velocities; the entries carry the same pieces (the same
// closing positions) and the same coefficients per run.
TEST(McSchedule, PermutesEachRunAndSwapsOnlyGains) {
  const SchedulePlan s(test::mc_grid({12, 12, 12}, 3.0, 0.95), 4000, 256, 16);
  ASSERT_GT(s.placed, 15000);
  std::vector<int> taken(s.placed, 0);
  int swapped = 0;
  for (int p = 0; p < s.placed; ++p) {
    const int q = int(s.order[p] & ~kMcSwapsVelocities);
    ASSERT_TRUE(q >= 0 && q < s.placed) << "position " << p;
    ++taken[q];
    EXPECT_EQ(q / s.length, p / s.length) << "position " << p << " strip";
    EXPECT_EQ(s.sorted_velocity[q], s.sorted_velocity[p]) << "position " << p << " list";
    const bool gain = s.sorted_key[p] % 4 >= 2;
    EXPECT_EQ(s.sorted_key[q] % 4 >= 2, gain) << "position " << p << " kind";
    if (s.order[p] & kMcSwapsVelocities) {
      EXPECT_TRUE(gain) << "position " << p << " swaps a loss";
      ++swapped;
    }
    const McEntry<float> plain = s.entry(s.entries, p), ordered = s.entry(s.scheduled_entries, p);
    EXPECT_EQ(plain.word & (kMcClosesPiece | kMcLoadsSecond),
              ordered.word & (kMcClosesPiece | kMcLoadsSecond))
        << "position " << p;
    const McSample<float>& sample = s.samples[s.sorted_key[q] / 4];
    const std::uint32_t packed = mc_packed_velocities(sample, s.sorted_key[q] % 4);
    const std::uint32_t mask = kMcVelocityMask | kMcVelocityMask << kMcVelocityBits;
    EXPECT_EQ(ordered.word & mask,
              s.order[p] & kMcSwapsVelocities ? mc_swapped_velocities(packed) : packed)
        << "position " << p;
  }
  for (int q = 0; q < s.placed; ++q) EXPECT_EQ(taken[q], 1) << "sorted position " << q;
  EXPECT_GT(swapped, 0);
}

// What the schedule is for: fewer shared-memory wavefronts for the gather's row loads. Random
// velocities put ~3 distinct addresses in the busiest of 16 banks; the delta = 10 cavity's plan
// went from 10.5 to 6.0 wavefronts per position and group of 32 threads (a simulation). This
// plan (12^3 velocities, 4000 samples, 256 strips of 64, groups of 16) goes from 4947 to 2339
// wavefronts (2628 when a lane weighed 8 entries, not 32); the test asks for at most 60 % (the
// schedule is deterministic: this checks that it
// keeps working as a schedule, with room for changes to its rule of choice).
TEST(McSchedule, LoadsTakeFewerWavefronts) {
  const SchedulePlan s(test::mc_grid({12, 12, 12}, 3.0, 0.95), 4000, 256, 16);
  const int plain = s.wavefronts(s.entries), ordered = s.wavefronts(s.scheduled_entries);
  RecordProperty("wavefronts_plain", plain);
  RecordProperty("wavefronts_scheduled", ordered);
  EXPECT_LE(ordered, 0.6 * plain) << "plain " << plain << ", scheduled " << ordered;
}

}  // namespace
}  // namespace bolt
