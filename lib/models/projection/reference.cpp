#include "models/projection/reference.hpp"

#include <cmath>
#include <map>

namespace bolt {

ProjectionReferenceCounts projection_reference(const ProjectionPlan& plan, std::vector<double>& f,
                                               int nv) {
  ProjectionReferenceCounts counts;
  const std::size_t cells = f.size() / std::size_t(nv);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    double* row = f.data() + cell * nv;
    for (const ProjectionTerm<double>& t : plan.terms) {
      const int a = t.node[kAlpha], b = t.node[kBeta], l = t.node[kLambda], m = t.node[kMu];
      const int ls = t.node[kLambdaS], ms = t.node[kMuS];
      // The gain: the power interpolation between the two pairs.
      const double gain = t.r == 0.0 ? row[l] * row[m]
                                     : std::pow(row[l] * row[m], 1.0 - t.r) *
                                           std::pow(row[ls] * row[ms], t.r);
      const double delta = t.c * (row[a] * row[b] - gain);
      std::map<int, double> after;  // the new value of each node the term changes
      for (int node : {a, b, l, m}) after[node] = row[node];
      if (t.r != 0.0) after[ls] = row[ls], after[ms] = row[ms];
      after[a] -= delta;
      after[b] -= delta;
      after[l] += (1.0 - t.r) * delta;
      after[m] += (1.0 - t.r) * delta;
      if (t.r != 0.0) {
        after[ls] += t.r * delta;
        after[ms] += t.r * delta;
      }
      bool positive = true;
      for (const auto& [node, value] : after) positive = positive && value >= 0.0;
      if (!positive) {
        ++counts.skipped;
        continue;
      }
      for (const auto& [node, value] : after) row[node] = value;
    }
  }
  return counts;
}

}  // namespace bolt
