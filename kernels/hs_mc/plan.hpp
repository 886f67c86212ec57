#pragma once
// The gather plan of the semi-regular Monte Carlo collision (McCollision in collision.hpp):
// once per step, the 4 N_t increments of the step's samples listed by the velocity they land on,
// cut into equal strips (one per GPU thread), and stored in the order the threads read them.
// Built on the device by small kernels (McDevice::index): McEntryKeys, a stable radix sort,
// McEntryIndex (lists, pieces, strips), McEntrySchedule (GPU: the order of each strip's loads),
// McEntryPlace (the entries) and McSelfAdjust.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "kernels/hs_mc/samples.hpp"

namespace bolt {

// Entries a gathering thread loads at a time (GPU: in flight together; McCollision, step 2).
constexpr int kMcBatch = 8;

// Strips of the gather plan: one per thread of a GPU team of 1024, two per thread of the teams of
// 512 that share an SM in pairs (mc_team_layout; fewer strips are no faster), several for the
// double kernel, whose registers allow fewer threads; one on the CPU (its team is one thread).
constexpr int kMcGpuStrips = 1024;
inline int mc_gather_strips(bool gpu) { return gpu ? kMcGpuStrips : 1; }

// One increment of a step in the gather plan: whether it closes a piece (word & kMcClosesPiece),
// its coefficient (losses negative), and where g comes from. Either the sample (word &
// kMcSampleOf), whose g McCollision stores first, or (GPU, up to kMcPackedVelocities velocities)
// the sample's pre-collision velocities packed in the word, `first` in bits 0-14 and `second` in
// bits 15-29, with g = h~(second) + h~(first) (1 + eps h~(second)):
//  * a gain: first v1, second v;
//  * a loss at v (slot 0): first v1, second v; a loss at v1 (slot 1): first v, second v1.
// The second velocity of a loss is the one it lands on, the same for every loss of a list. The
// losses of a list come first in it, so a gathering thread loads h~ there once per piece: only
// the entries with kMcLoadsSecond do (the gains and the first loss of a piece), the others reuse
// the value before. That saves about a fifth of the gather's random shared-memory loads.
constexpr int kMcVelocityBits = 15;
constexpr int kMcPackedVelocities = 1 << kMcVelocityBits;
constexpr std::uint32_t kMcVelocityMask = (1u << kMcVelocityBits) - 1u;
constexpr std::uint32_t kMcClosesPiece = 0x80000000u, kMcLoadsSecond = 0x40000000u,
                        kMcSampleOf = 0x3fffffffu;
inline bool mc_packs_velocities(bool gpu, int nv) { return gpu && nv <= kMcPackedVelocities; }

// The two pre-collision velocities of a sample, v and v1 (-1: rejected).
struct alignas(8) McPair {
  int v, v1;
};
template <class Real>
struct McEntry {
  std::uint32_t word;
  Real coef;
};

// 16 bytes of consecutive entries of a strip (2 in float, 1 in double): the unit of the plan's
// interleaving, so that one vector load per thread reads 512 contiguous bytes per warp.
template <class Real>
struct alignas(16) McEntryVector {
  static constexpr int kEntries = 16 / sizeof(McEntry<Real>);
  McEntry<Real> entry[kEntries];
};
static_assert(kMcBatch % McEntryVector<double>::kEntries == 0 &&
                  kMcBatch % McEntryVector<float>::kEntries == 0,
              "a batch is whole vectors");

// The velocity every increment of the step lands on (nv for the increments of rejected samples),
// and the increment's key 4 sample + slot: McEntryIndex's input once stably sorted by velocity
// (stable_sort_pairs). The losses (slots 0, 1) are put first, so that each velocity lists its
// losses in increasing key, then its gains in increasing key (McEntry). Item k covers input
// positions [k kMcPlanItemsPerTeam, (k + 1) kMcPlanItemsPerTeam).
// Increments (McEntryKeys) or plan positions (McEntryPlace) one team of those kernels handles.
constexpr int kMcPlanItemsPerTeam = 1024;
template <class Real>
struct McEntryKeys {
  const McSample<Real>* samples;
  int n_samples;
  int nv;
  int* velocity;  // [4 n_samples]
  int* key;       // [4 n_samples]

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const int first = int(item) * kMcPlanItemsPerTeam, left = 4 * n_samples - first;
    team.for_each(left < kMcPlanItemsPerTeam ? left : kMcPlanItemsPerTeam, [&](int i) {
      const int e = first + i, losses = 2 * n_samples;
      const bool gain = e >= losses;
      const int of_kind = gain ? e - losses : e, sample = of_kind / 2;
      const int slot = of_kind % 2 + (gain ? 2 : 0);
      const McSample<Real>& s = samples[sample];
      velocity[e] = s.cell[0] >= 0 ? s.cell[slot] : nv;
      key[e] = 4 * sample + slot;
    });
  }
};

// Bits of the velocity keys of McEntryKeys, 0 .. nv.
inline int mc_entry_key_bits(int nv) {
  int bits = 1;
  while ((std::int64_t(1) << bits) <= nv) ++bits;
  return bits;
}

// Where sorted position p of the gather plan is stored: entry k = p % length of strip
// t = p / length lies in vector (k / E) strips + t, E entries per McEntryVector (a warp's threads
// load neighbouring vectors).
template <class Real>
BOLT_HOST_DEVICE inline McEntry<Real>& mc_plan_entry(McEntryVector<Real>* entries, int strips,
                                                     int length, int p) {
  constexpr int kPerVector = McEntryVector<Real>::kEntries;
  const int k = p % length;
  return entries[k / kPerVector * strips + p / length].entry[k % kPerVector];
}

// The gather plan of the current samples (see the top of this file), from the increments sorted
// by velocity (McEntryKeys), in three kernels. First McEntryIndex, one team (item 0; a step has
// only 4 N_t entries):
//  * finds every velocity's list in the sorted order, start[v] .. start[v + 1];
//  * cuts the sorted entries into `strips` strips of `length` = ceil(entries / strips), rounded
//    up to whole batches (mc_plan_entry);
//  * numbers the pieces (a list's entries within one strip) in sorted order: velocity v's are
//    first_piece[v] .. first_piece[v + 1], strip t's start at plan[1 + t]; plan[0] = length;
//  * copies every sample's v and v1 into `pairs` when the entries name samples (else nullptr).
// Then, over many teams, McEntryPlace stores the entries (the strips padded to full length with
// entries of coefficient 0) and McSelfAdjust the self-loss adjustment of every velocity.
// The piece counts are kept in the team scratch when it is given (GPU shared memory), else in
// `work`.
template <class Real>
struct McEntryIndex {
  const McSample<Real>* samples;
  int n_samples;
  int nv;
  int strips;
  const int* sorted_velocity;  // [4 n_samples] McEntryKeys' velocities, sorted
  int* start;                // [nv + 1]
  int* first_piece;          // [nv + 1]
  int* plan;                 // [1 + strips]
  int* work;                 // [mc_index_work_ints] when the team has no scratch
  McPair* pairs;             // [n_samples] or nullptr

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t) const {
    const int entries_total = 4 * n_samples;
    int* count = team.row_scratch(work);  // [nv], then the chunk totals
    int* total = count + nv;
    if (pairs)
      team.for_each(n_samples, [&](int l) { pairs[l] = {samples[l].cell[0], samples[l].cell[1]}; });
    // The lists are contiguous and in order: position p starts the lists of the velocities after
    // the one before it, up to its own (an empty list starts where the next one does; the
    // rejected samples' increments, velocity nv, come last): no atomics (neighbouring threads on
    // one counter) and no scan. A thread loads kMcBatch positions (item i: i + j items) before it
    // stores for any.
    const int positions = entries_total + 1, items = (positions + kMcBatch - 1) / kMcBatch;
    team.for_each_rolled(items, [&](int i) {
      int before[kMcBatch], here[kMcBatch];
      for (int j = 0; j < kMcBatch; ++j) {
        const int p = i + j * items;
        before[j] = p > 0 && p < positions ? sorted_velocity[p - 1] : -1;
        here[j] = p < entries_total ? sorted_velocity[p] : nv;
      }
      for (int j = 0; j < kMcBatch; ++j) {
        const int p = i + j * items;
        if (p >= positions) break;
        for (int v = before[j] + 1; v <= here[j]; ++v) start[v] = p;
      }
    });
    team.sync();
    const int placed = start[nv];
    const int per_strip = (placed + strips - 1) / strips;
    const int length = per_strip > 0 ? (per_strip + kMcBatch - 1) / kMcBatch * kMcBatch : kMcBatch;
    // Pieces per list: one per strip it touches.
    team.for_each(nv, [&](int v) {
      const int first = start[v], end = start[v + 1];
      count[v] = end > first ? (end - 1) / length - first / length + 1 : 0;
    });
    team.sync();
    exclusive_scan(team, count, total, first_piece);
    // The first piece of every strip: that of the list holding its first entry, the last list
    // starting at or before it (binary search), plus the strips that list began before.
    team.for_each(strips, [&](int t) {
      const int p = t * length;
      int piece = 0;
      if (p < placed) {
        int low = 0, high = nv - 1;
        while (low < high) {
          const int middle = (low + high + 1) / 2;
          if (start[middle] <= p)
            low = middle;
          else
            high = middle - 1;
        }
        piece = first_piece[low] + t - start[low] / length;
      }
      plan[1 + t] = piece;
    });
    if (team.leader()) plan[0] = length;
  }

  // Exclusive scan of count[0, n) (n = nv) into out[0, n] (out[n] the total) and into count
  // itself, in chunks of about sqrt(n): chunk totals, then every chunk starts after the totals
  // before it. Ends with a barrier.
  template <class Team>
  BOLT_HOST_DEVICE void exclusive_scan(const Team& team, int* count, int* total, int* out) const {
    int chunk = 1;
    while (chunk * chunk < nv) ++chunk;
    const int chunks = (nv + chunk - 1) / chunk;
    team.for_each(chunks, [&](int c) {
      int sum = 0;
      for (int j = c * chunk; j < nv && j < (c + 1) * chunk; ++j) sum += count[j];
      total[c] = sum;
    });
    team.sync();
    team.for_each(chunks, [&](int c) {
      int offset = 0;
      for (int b = 0; b < c; ++b) offset += total[b];
      for (int j = c * chunk; j < nv && j < (c + 1) * chunk; ++j) {
        const int n = count[j];
        out[j] = offset;
        count[j] = offset;
        offset += n;
      }
      if (c == chunks - 1) out[nv] = offset;
    });
    team.sync();
  }
};

// The velocities of a sample's increment in `slot`, packed as McEntry does: first | second <<
// kMcVelocityBits.
template <class Real>
BOLT_HOST_DEVICE inline std::uint32_t mc_packed_velocities(const McSample<Real>& sample, int slot) {
  const int first = slot == 1 ? sample.cell[0] : sample.cell[1];
  const int second = slot == 1 ? sample.cell[1] : sample.cell[0];
  return std::uint32_t(first) | std::uint32_t(second) << kMcVelocityBits;
}
BOLT_HOST_DEVICE inline std::uint32_t mc_swapped_velocities(std::uint32_t packed) {
  return packed >> kMcVelocityBits | (packed & kMcVelocityMask) << kMcVelocityBits;
}

// A shared-memory wavefront serves 128 bytes: the lanes of a warp whose row loads it serves at
// best, 128 / the bytes of a team's row values (McLanes: 16 lanes for two float cells, 8 for two
// double cells, 32 for one float cell). Each load then costs one wavefront per distinct address
// in its busiest bank, a bank being the velocity modulo that number of lanes (a power of two).
constexpr int kMcMaxWavefrontLanes = 32;
inline int mc_wavefront_lanes(int lane_bytes) {
  int lanes = 1;
  while (lanes < kMcMaxWavefrontLanes && 2 * lanes * lane_bytes <= 128) lanes *= 2;
  return lanes;
}

// McEntrySchedule's order: the plan position takes its gain with the velocities swapped.
constexpr std::uint32_t kMcSwapsVelocities = 0x80000000u;

// Words of McEntrySchedule's scratch per group of `wavefront` strips of at most `max_length`.
BOLT_HOST_DEVICE inline std::int64_t mc_schedule_words(int wavefront, int max_length) {
  return 3 * std::int64_t(wavefront) * max_length + 4 * kMcMaxWavefrontLanes +
         kMcMaxWavefrontLanes + kTeamGroup;
}

// The order of the gather's row loads (GPU, packed velocities). The W = `wavefront` threads that
// sum strips W i .. W i + W - 1 (a group; lanes) load the rows at their entries' velocities
// together, and random velocities put about three distinct addresses in the busiest of W banks,
// several times the wavefronts a conflict-free load takes, and a noticeable share of the step
// (docs/benchmarks.md). Within a strip the entries of a run (one list's losses, or its gains)
// may come in any order -- their piece's sum is the same up to rounding -- and a gain may swap
// its velocities (g is symmetric in them). Position by position along the strips of a group,
// the lanes with the fewest choices first, each lane takes the entry of its run, and the
// orientation, that adds the fewest wavefronts to the loads of the group at that position so far
// (a distinct address in a bank holding others costs their number; the second velocity counts
// where the entry loads it), among the next kTeamGroup entries of its run (all of them where
// strips are 32 long): about half the wavefronts of the unordered loads.
// The decisions of a group depend on each other, but a lane's choices do not: a group's warp
// weighs them together, a thread per entry, and keeps the cheapest (ties: the earliest) by a
// tree of minima, faster than one thread weighing a lane's choices in turn. So that the
// multiprocessors it takes from the collision beside it (it plans the next step) are few, a team
// schedules up to kMaxWarpsPerTeam groups, a warp each.
// Item: `groups_per_team` groups in the team's scratch (mc_schedule_words each). Writes order[p]
// = the sorted position whose increment plan position p takes, | kMcSwapsVelocities.
template <class Real>
struct McEntrySchedule {
  const McSample<Real>* samples;
  int nv;
  int strips;
  int wavefront;  // W, a power of two, at most kMcMaxWavefrontLanes
  int groups_per_team;
  int max_length;  // mc_plan_length: the scratch of a group
  const int* sorted_velocity;
  const int* sorted_key;
  const int* start;
  const int* plan;
  std::uint32_t* order;  // [strips length]

  // Per position of a group (info): where its run ends (positions from the group's first), and
  // whether its entry is a gain or opens a piece.
  static constexpr std::uint32_t kRunEnd = 0x3fffffffu, kGain = 0x80000000u, kOpens = 0x40000000u;
  // A lane's decision key: the wavefronts its choice adds, then the choice (2 entry + swapped),
  // kChoiceBits wide: the smallest key is the cheapest choice, the earliest among equals.
  static constexpr int kChoiceBits = 6;
  static constexpr std::uint32_t kNoChoice = 0xffffffffu;
  static_assert(2 * kTeamGroup <= 1 << kChoiceBits, "a choice (2 entry + swapped) fits its bits");
  static_assert(kTeamGroup <= kMcMaxWavefrontLanes, "a group's threads clear its bank counts");

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const int length = plan[0], placed = start[nv];
    const int groups = (strips + wavefront - 1) / wavefront;
    const int first_group = int(item) * groups_per_team;
    const int left = groups - first_group, here = left < groups_per_team ? left : groups_per_team;
    const int slot = wavefront * length;  // positions of a group
    std::uint32_t* scratch = team.template scratch_memory<std::uint32_t>();
    // A group's positions: the velocities of the increment there and its sorted position (both
    // move with the increment), and the position's run (info; first whether it ends a run); then
    // the bank counts of its decisions.
    const auto pair = [&](int g) { return scratch + g * mc_schedule_words(wavefront, max_length); };
    const auto source = [&](int g) { return pair(g) + slot; };
    const auto info = [&](int g) { return pair(g) + 2 * slot; };
    const auto first_position = [&](int g) { return (first_group + g) * slot; };
    const auto kind_of = [&](int p) {
      return std::uint32_t(sorted_velocity[p]) << 1 | (sorted_key[p] % 4 >= 2 ? 1u : 0u);
    };
    team.for_each(here * slot, [&](int j) {
      const int g = j / slot, i = j % slot, p = first_position(g) + i;
      source(g)[i] = std::uint32_t(p);
      pair(g)[i] = 0u;
      info(g)[i] = kRunEnd;  // padding: a run of its own
      if (p >= placed || p >= strips * length) return;
      const int v = sorted_velocity[p], key = sorted_key[p];
      const bool ends = (i + 1) % length == 0 || p + 1 == placed || kind_of(p + 1) != kind_of(p);
      pair(g)[i] = mc_packed_velocities(samples[key / 4], key % 4);
      info(g)[i] = (ends ? kRunEnd : 0u) | (key % 4 >= 2 ? kGain : 0u) |
                   (p == start[v] || p % length == 0 ? kOpens : 0u);
    });
    team.sync();
    team.for_each(here * wavefront, [&](int j) {  // run ends, from each strip's end back
      std::uint32_t* run = info(j / wavefront);
      const int l = j % wavefront;
      int end = (l + 1) * length;
      for (int i = end - 1; i >= l * length; --i) {
        if ((run[i] & kRunEnd) == kRunEnd) end = i + 1;
        run[i] = (run[i] & ~kRunEnd) | std::uint32_t(end);
      }
    });
    team.sync();
    decide(team, pair, first_position, here, length);
    team.sync();
    team.for_each(here * slot, [&](int j) {
      const int g = j / slot, i = j % slot, p = first_position(g) + i;
      if (p < strips * length) order[p] = source(g)[i];
    });
  }

  // The decisions of the `here` groups, each in the scratch at pair(g), its first plan position
  // first_position(g) (see above), position by position; item kTeamGroup g + c of every loop
  // works for group g.
  template <class Team, class Pair, class FirstPosition>
  BOLT_HOST_DEVICE void decide(const Team& team, const Pair& pair,
                               const FirstPosition& first_position, int here, int length) const {
    const int placed = start[nv], bank_mask = wavefront - 1, slot = wavefront * length;
    // A group's scratch after its positions (pair, source, info): the bank counts of its
    // decisions at the position ([2][W]; last: the velocity counted last there), its lanes in
    // the order they decide, and the keys of one decision.
    const auto count = [&](int g) { return reinterpret_cast<int*>(pair(g) + 3 * slot); };
    const auto last = [&](int g) { return count(g) + 2 * kMcMaxWavefrontLanes; };
    const auto turn = [&](int g) { return last(g) + 2 * kMcMaxWavefrontLanes; };
    const auto key = [&](int g) { return pair(g) + 3 * slot + 5 * kMcMaxWavefrontLanes; };
    const auto cost = [&](int g, int load, int v) {
      const int b = load * kMcMaxWavefrontLanes + (v & bank_mask);
      return count(g)[b] == 0 || last(g)[b] == v ? 0 : count(g)[b];
    };
    const auto add = [&](int g, int load, int v) {
      const int b = load * kMcMaxWavefrontLanes + (v & bank_mask);
      if (count(g)[b] == 0 || last(g)[b] != v) ++count(g)[b];
      last(g)[b] = v;
    };
    const auto for_each_group_item = [&](const auto& body) {
      team.for_each(here * kTeamGroup, [&](int j) { body(j / kTeamGroup, j % kTeamGroup); });
      team.sync_group();
    };
    // The choices of lane l at position k: the rest of its run, at most kTeamGroup; 0 where the
    // position holds no increment.
    const auto choices = [&](int g, int l, int k) {
      const int i = l * length + k;
      if (first_position(g) + i >= placed) return 0;
      const int left = int(pair(g)[2 * slot + i] & kRunEnd) - i;
      return left < kTeamGroup ? left : kTeamGroup;
    };
    for (int k = 0; k < length; ++k) {
      // The bank counts cleared, and the lanes ordered by their choices (then by lane).
      for_each_group_item([&](int g, int c) {
        count(g)[c] = count(g)[kMcMaxWavefrontLanes + c] = 0;
        if (c >= wavefront) return;
        const int mine = choices(g, c, k);
        int rank = 0;
        for (int l = 0; l < wavefront; ++l) {
          const int theirs = choices(g, l, k);
          rank += theirs < mine || (theirs == mine && l < c);
        }
        turn(g)[rank] = mine > 0 ? c : -1;
      });
      for (int d = 0; d < wavefront; ++d) {
        // Each thread weighs one entry of the deciding lane's run, either way round if a gain.
        for_each_group_item([&](int g, int c) {
          const int l = turn(g)[d];
          key(g)[c] = kNoChoice;
          if (l < 0 || c >= choices(g, l, k)) return;
          const int i = l * length + k;
          const std::uint32_t run = pair(g)[2 * slot + i];
          const bool gain = run & kGain, loads_second = gain || (run & kOpens);
          for (int s = 0; s < (gain ? 2 : 1); ++s) {
            const std::uint32_t packed =
                s ? mc_swapped_velocities(pair(g)[i + c]) : pair(g)[i + c];
            const int added = cost(g, 0, int(packed & kMcVelocityMask)) +
                              (loads_second ? cost(g, 1, int(packed >> kMcVelocityBits)) : 0);
            const std::uint32_t mine = std::uint32_t(added) << kChoiceBits | std::uint32_t(2 * c + s);
            if (mine < key(g)[c]) key(g)[c] = mine;
          }
        });
        for (int half = kTeamGroup / 2; half > 0; half /= 2)
          for_each_group_item([&](int g, int c) {
            if (c < half && key(g)[c + half] < key(g)[c]) key(g)[c] = key(g)[c + half];
          });
        // The lane takes it.
        for_each_group_item([&](int g, int c) {
          const int l = turn(g)[d];
          if (c != 0 || l < 0) return;
          const int i = l * length + k, best = int(key(g)[0] & ((1u << kChoiceBits) - 1));
          std::uint32_t* at = pair(g);
          std::uint32_t* source = at + slot;
          const std::uint32_t run = at[2 * slot + i];
          const int j = i + best / 2;
          const std::uint32_t chosen = at[j], from = source[j];
          at[j] = at[i];
          source[j] = source[i];
          at[i] = best % 2 ? mc_swapped_velocities(chosen) : chosen;
          source[i] = best % 2 ? from | kMcSwapsVelocities : from;
          add(g, 0, int(at[i] & kMcVelocityMask));
          if (run & (kGain | kOpens)) add(g, 1, int(at[i] >> kMcVelocityBits));
        });
      }
    }
  }
};

// The entries of the gather plan (McEntryIndex), kMcPlanItemsPerTeam positions per item: plan
// position p < start[nv] takes the increment at sorted position p, or at order[p] (McEntrySchedule;
// nullptr: p), and stores its sample (else) or its v and v1 (`packs`; in the order McEntry gives,
// swapped where the order says, with kMcLoadsSecond where the entry is a gain or opens a piece:
// its list or its strip starts there), whether it closes a piece (its list or its strip ends
// there) and its coefficient (losses negative); the rest of the strips is padding (velocity or
// sample 0, coefficient 0).
template <class Real>
struct McEntryPlace {
  const McSample<Real>* samples;
  int nv;
  int strips;
  bool packs;  // mc_packs_velocities
  const int* sorted_velocity;
  const int* sorted_key;
  const int* start;
  const int* plan;
  const std::uint32_t* order;  // McEntrySchedule, or nullptr
  McEntryVector<Real>* entries;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const int length = plan[0], placed = start[nv];
    const int first = int(item) * kMcPlanItemsPerTeam, left = length * strips - first;
    team.for_each(left < kMcPlanItemsPerTeam ? left : kMcPlanItemsPerTeam, [&](int i) {
      const int p = first + i;
      McEntry<Real> entry{0u, Real(0)};
      if (p < placed) {
        const std::uint32_t scheduled = order ? order[p] : std::uint32_t(p);
        const int q = int(scheduled & ~kMcSwapsVelocities);
        const int key = sorted_key[q], v = sorted_velocity[p], slot = key % 4;
        const McSample<Real>& sample = samples[key / 4];
        const bool closes = p + 1 == start[v + 1] || (p + 1) % length == 0;
        std::uint32_t source = std::uint32_t(key / 4);
        if (packs) {
          const bool opens = p == start[v] || p % length == 0;
          const std::uint32_t packed = mc_packed_velocities(sample, slot);
          source = (scheduled & kMcSwapsVelocities ? mc_swapped_velocities(packed) : packed) |
                   (slot >= 2 || opens ? kMcLoadsSecond : 0u);
        }
        entry = {source | (closes ? kMcClosesPiece : 0u),
                 slot < 2 ? -sample.coef[slot] : sample.coef[slot]};
      }
      mc_plan_entry(entries, strips, length, p) = entry;
    });
  }
};

// Per velocity (item), -mc_self_loss expected: the sampled self-loss rate of this step (the
// coefficients of the velocity's loss increments, slots 0 and 1) taken out and replaced by its
// expectation L_v (mc_expected_self_loss; see McCollision, step 2).
template <class Real>
struct McSelfAdjust {
  const McSample<Real>* samples;
  const int* sorted_key;
  const int* start;
  const Real* expected_self_loss;
  Real* self_adjust;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const int v = int(item), first = start[v];
    const Sums<1> sampled = team.template reduce<1>(start[v + 1] - first, [&](int i, auto& s) {
      const int key = sorted_key[first + i], slot = key % 4;
      if (slot < 2) s[0] += samples[key / 4].coef[slot];
    });
    if (team.leader()) self_adjust[v] = Real(sampled[0]) - expected_self_loss[v];
  }
};

// Ints of work space McEntryIndex needs: the counts and the chunk totals.
inline std::int64_t mc_index_work_ints(int nv) { return 2 * std::int64_t(nv); }

// The longest strip the gather plan of `samples` can have (McEntryIndex: ceil(entries / strips)
// rounded up to whole batches, at least one batch).
inline int mc_plan_length(int samples, int strips) {
  const std::int64_t per_strip = (4 * std::int64_t(samples) + strips - 1) / strips;
  return int(per_strip > 0 ? (per_strip + kMcBatch - 1) / kMcBatch * kMcBatch : kMcBatch);
}

// McEntryVectors the gather plan of `samples` needs at most: strips of length
// ceil(entries / strips) rounded up to whole batches hold at most 4 N_t + kMcBatch strips entries
// (kMcBatch strips when no sample is accepted), at least one per vector.
inline std::int64_t mc_plan_vectors(int samples, int strips) {
  return 4 * std::int64_t(samples) + std::int64_t(strips) * kMcBatch;
}

}  // namespace bolt
