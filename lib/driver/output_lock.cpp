#include "driver/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"
#include "io/hdf5_support.hpp"

namespace bolt {

namespace {

// "pid P on host H": what the lock's holder wrote into it.
std::string holder_of(int fd) {
  char text[256] = {};
  const ssize_t length = pread(fd, text, sizeof text - 1, 0);
  if (length <= 0) return "";
  std::string holder(text, std::size_t(length));
  while (!holder.empty() && holder.back() == '\n') holder.pop_back();
  return holder;
}

void write_holder(int fd) {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  const std::string holder =
      "pid " + std::to_string(::getpid()) + " on host " + std::string(host) + "\n";
  // Best effort: the text only names the holder when another run is refused.
  if (ftruncate(fd, 0) != 0) return;
  const ssize_t written = pwrite(fd, holder.data(), holder.size(), 0);
  static_cast<void>(written);
}

// Rank 0: the open, locked file.
int lock_directory(const std::string& directory) {
  const std::string path = (std::filesystem::path(directory) / "bolt.lock").string();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    fail("-out_dir ", directory, ": cannot create the lock file ", path, " (",
         std::strerror(errno), ")");
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string holder = holder_of(fd);
    ::close(fd);
    if (error == EWOULDBLOCK)
      fail("-out_dir ", directory, ": another bolt run is writing into this directory",
           holder.empty() ? "" : " (" + holder + ")",
           "; wait for it to end or give this run another -out_dir");
    fail("-out_dir ", directory, ": cannot lock ", path, " (", std::strerror(error), ")");
  }
  write_holder(fd);
  return fd;
}

}  // namespace

OutputLock::OutputLock(MPI_Comm comm, const std::string& directory) {
  hdf5::on_rank0(comm, [&] { fd_ = lock_directory(directory); });
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace bolt
