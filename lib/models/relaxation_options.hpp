#pragma once
// The -model_ options of the relaxation models, read from PETSc's options database. Host code
// only (it needs MPI): the registry's readers (model_readers.cpp) include it, the engines do not.
#include <mpi.h>

#include <memory>
#include <string_view>

#include "relaxation_model.hpp"

namespace bolt {

// What an evaluator allows of the options, for the checks of read_relaxation_options.
struct RelaxationLimits {
  double least_prandtl = 0.0;     // the smallest Prandtl number the target allows
  const char* prandtl_reason = "";  // and why
  bool conservative = true;       // whether -model_conservative applies
};

// The shared options, checked against `limits`.
RelaxationOptions read_relaxation_options(MPI_Comm comm, const RelaxationLimits& limits);

// The relaxation model `name` of `Evaluator` with its options.
template <class Evaluator>
std::shared_ptr<const CollisionModel> read_relaxation_model(MPI_Comm comm, std::string_view name) {
  const RelaxationLimits limits{Evaluator::kLeastPrandtl, Evaluator::kPrandtlReason,
                                Evaluator::kConservative};
  return std::make_shared<RelaxationModelOf<Evaluator>>(name, read_relaxation_options(comm, limits));
}

}  // namespace bolt
