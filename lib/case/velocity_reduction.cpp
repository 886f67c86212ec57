#include "case/velocity_reduction.hpp"

#include <cmath>

#include "core/error.hpp"

namespace bolt {

namespace {

constexpr const char* kAxisNames = "xyz";

// The reductions by name: the axes each integrates out (at least one axis is kept).
struct Reduction {
  const char* name;
  std::array<bool, 3> reduced;
};
constexpr Reduction kReductions[] = {
    {"none", {false, false, false}}, {"x", {true, false, false}}, {"y", {false, true, false}},
    {"z", {false, false, true}},     {"xy", {true, true, false}}, {"xz", {true, false, true}},
    {"yz", {false, true, true}},
};

// The states the run starts from or lets in that move along `axis`, as the option that sets it.
std::string moving_along(const RunOptions& run, int axis) {
  const InitialState& init = run.initial;
  switch (init.kind) {
    case InitKind::uniform:
      if (init.velocity[axis] != 0.0) return "-init_velocity";
      break;
    case InitKind::riemann:
      if (axis == 0 && (init.left[1] != 0.0 || init.right[1] != 0.0))
        return run.case_kind == CaseKind::shock ? "-case shock" : "-init_left/-init_right";
      break;
    case InitKind::bimaxwellian:
      if (init.velocity[axis] != 0.0) return "-init_velocity";
      if (init.second_density > 0.0 && init.second_velocity[axis] != 0.0)
        return "-init_second_velocity";
      break;
    case InitKind::fields:
      for (const FieldsGas& gas : init.fields->gas_cells())
        if (gas.u[axis] != 0.0) return "-init_fields (its velocity)";
      break;
  }
  const auto face_moves = [&](const FaceSpec& f) {
    return (f.kind == FaceKind::wall || f.kind == FaceKind::inflow) && f.velocity[axis] != 0.0;
  };
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      const std::string option = std::string("-bc_") + kAxisNames[a] + (s ? "_high" : "_low");
      if (run.axes[a].cells > 1 && face_moves(run.faces[a][s])) return option + "_velocity";
      for (std::size_t b = 0; b < run.box_faces.size(); ++b)
        if (run.box_faces[b][a][s] && face_moves(*run.box_faces[b][a][s]))
          return "-geometry_box" + std::to_string(b) + option.substr(1) + "_velocity";
    }
  if (run.model->body_force(axis) != 0.0) return "-model_force";
  return {};
}

}  // namespace

std::vector<std::string> velocity_reduction_choices() {
  std::vector<std::string> names{"auto"};
  for (const Reduction& r : kReductions) names.emplace_back(r.name);
  return names;
}

std::string axis_reduction_refusal(const RunOptions& run, int axis) {
  const std::string name(1, kAxisNames[axis]);
  if (run.axes[axis].cells > 1)
    return "the grid has " + std::to_string(run.axes[axis].cells) + " cells along " + name +
           " (-grid_n): the flow varies along it";
  const std::string mover = moving_along(run, axis);
  if (!mover.empty()) return mover + " moves or pushes the gas along " + name;
  return {};
}

namespace {

// Why the run cannot use any reduction (model, velocity grid), or empty.
std::string run_reduction_refusal(const RunOptions& run) {
  const std::string model = run.model->reduction_refusal();
  if (!model.empty()) return model;
  if (run.velocity_grid.type != "cartesian")
    return "-vgrid_type " + run.velocity_grid.type + ": the reduced sets are Cartesian boxes";
  return {};
}

}  // namespace

void resolve_velocity_reduction(RunOptions& run, const std::string& choice) {
  std::array<bool, 3>& reduced = run.velocity_grid.reduced;
  reduced = {false, false, false};
  if (choice == "none") return;
  if (choice == "auto") {
    // Nothing to reduce in a homogeneous gas (no axis of the grid active: its anisotropies are
    // what such runs study) or where the run cannot take a reduction.
    const bool flow = run.axes[0].cells > 1 || run.axes[1].cells > 1 || run.axes[2].cells > 1;
    const bool allowed = run_reduction_refusal(run).empty();
    const bool uneven = run.initial.kind == InitKind::bimaxwellian;
    if (!flow || !allowed || uneven) return;
    for (int a = 0; a < 3; ++a) reduced[a] = axis_reduction_refusal(run, a).empty();
    return;
  }
  for (const Reduction& r : kReductions)
    if (choice == r.name) reduced = r.reduced;
  const std::string refusal = run_reduction_refusal(run);
  require(refusal.empty(), "-vgrid_reduce ", choice, ": ", refusal, " (use auto or none)");
  for (int a = 0; a < 3; ++a)
    if (reduced[a]) {
      const std::string why = axis_reduction_refusal(run, a);
      require(why.empty(), "-vgrid_reduce ", choice, ": ", kAxisNames[a], " cannot be reduced: ",
              why, " (use auto or none)");
    }
  // Two reduced axes share one h: only the sum of their temperatures is carried.
  const double* T = run.initial.temperature_axes;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3;
    require(run.initial.kind != InitKind::bimaxwellian || !reduced[a] || !reduced[b] ||
                T[a] == T[b],
            "-vgrid_reduce ", choice, ": -init_temperature_axes differ along ", kAxisNames[a],
            " and ", kAxisNames[b], ", and a set reduced over both carries only their sum");
  }
}

}  // namespace bolt
