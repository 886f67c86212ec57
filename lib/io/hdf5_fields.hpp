#pragma once
// Macroscopic fields to HDF5, one file per output time, plus one XDMF file (fields.xmf) that
// lists them as a temporal collection so ParaView/VisIt open the whole series.
//
// File <directory>/fields_<step, 6 digits>.h5:
//   /x, /y, /z           cell-centre coordinates (1-D, length N_x, N_y, N_z)
//   /x_faces, ...        cell-face coordinates (length N + 1)
//   /n /ux /uy /uz /T /p /Pxx /Pyy /Pzz /Pxy /Pxz /Pyz /qx /qy /qz
//                        double arrays of shape [N_z][N_y][N_x] (x fastest), units of
//                        docs/physics.md (P_ij and p in p0, q in p0 c0)
//   /fluid               1 in cells of the domain's boxes, 0 elsewhere (solids, outside the
//                        boxes), where every field is 0
//   attributes on /:     step (int64), time (double)
// Writes are collective over the communicator (parallel HDF5); each rank passes the fields of
// the cells it owns, given as an index box into the global grid.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "decomposition/owned_box.hpp"
#include "grid/physical_grid.hpp"

namespace bolt {

class FieldWriter {
 public:
  // `grid` describes the global grid (coordinates written from it). A restarted run passes the
  // step it restarts from: the field files up to that step already in the directory stay in
  // the XDMF series.
  FieldWriter(MPI_Comm comm, std::string directory, const PhysicalGrid& grid,
              std::int64_t continue_from_step = -1);
  // fields[b]: kFieldCount doubles per cell of boxes[b] (x fastest inside the box), as returned
  // by Engine::fields(). A rank may pass any number of boxes (none included). Returns the path
  // of the file written.
  std::string write(std::int64_t step, double time, const std::vector<OwnedBox>& boxes,
                    const std::vector<std::vector<double>>& fields);

 private:
  MPI_Comm comm_;
  std::string directory_;
  PhysicalGrid grid_;
  std::vector<std::pair<double, std::string>> written_;  // (time, file name) for the XDMF
  void write_xdmf() const;
  void adopt_earlier_files(std::int64_t before_step);
};

}  // namespace bolt
