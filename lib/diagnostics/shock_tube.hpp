#pragma once
// The shock in the test section of a shock tube (paper 003: a wide driver section A, a narrow test
// section B): its position along the section's centre line and its Mach number from the positions
// at successive times. The shock is a peak of the pressure drop along x: the contact surface
// behind it has no pressure jump and the expansion fan is smooth.
#include <vector>

#include "decomposition/owned_box.hpp"
#include "grid/physical_grid.hpp"

namespace bolt {

// x of the shock on the centre line of `section` (the middle row, or the mean of the two middle
// rows): the front-most peak of the pressure drop between neighbouring cells, to a fraction of a
// cell by a parabola through the peak and its neighbours. NaN while no shock is in the section.
double shock_position(const PhysicalGrid& grid, const std::vector<double>& fields,
                      const OwnedBox& section);

// Shock Mach numbers (speed / sound speed of the gas ahead) between successive entries of a
// position history; NaN for entry 0 and where a position is NaN.
std::vector<double> shock_mach_numbers(const std::vector<double>& time,
                                       const std::vector<double>& position, double sound_speed);

}  // namespace bolt
