#include "io/temporary_name.hpp"

#include <unistd.h>

#include <climits>

namespace bolt {

std::string temporary_name(const std::string& path) {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return path + ".tmp." + host + "." + std::to_string(::getpid());
}

std::string temporary_name(MPI_Comm comm, const std::string& path) {
  std::string name = temporary_name(path);
  int length = static_cast<int>(name.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  name.resize(length);
  MPI_Bcast(name.data(), length, MPI_CHAR, 0, comm);
  return name;
}

}  // namespace bolt
