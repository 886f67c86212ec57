#include "io/temporary_name.hpp"

#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <filesystem>

namespace bolt {

namespace {

std::string host_name() {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return host;
}

}  // namespace

std::string temporary_name(const std::string& path) {
  return path + ".tmp." + host_name() + "." + std::to_string(::getpid());
}

std::string temporary_name(MPI_Comm comm, const std::string& path) {
  std::string name = temporary_name(path);
  int length = static_cast<int>(name.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  name.resize(length);
  MPI_Bcast(name.data(), length, MPI_CHAR, 0, comm);
  return name;
}

void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = target.filename().string() + ".tmp." + host_name() + ".";
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    std::size_t end = prefix.size();
    while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
    const std::size_t digits = end - prefix.size();
    if (digits == 0 || digits > 9) continue;
    const pid_t writer = static_cast<pid_t>(std::stol(name.substr(prefix.size(), digits)));
    if (kill(writer, 0) != 0 && errno == ESRCH) fs::remove(entry.path(), error);
  }
}

}  // namespace bolt
