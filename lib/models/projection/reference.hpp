#pragma once
// The projection method's collision step written the plain way, in double, for the tests of the
// fast kernel (kernels/projection/collision.hpp): every term of a plan in its order, one after
// the other, on each row.
#include <cstdint>
#include <vector>

#include "models/projection/plan.hpp"

namespace bolt {

struct ProjectionReferenceCounts {
  std::int64_t skipped = 0;  // terms not applied: a value would have gone negative
};

// Applies `plan` to the rows of `f` (cells x nv, velocity fastest) in place.
ProjectionReferenceCounts projection_reference(const ProjectionPlan& plan, std::vector<double>& f,
                                               int nv);

}  // namespace bolt
