#include "summary.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "io/temporary_name.hpp"

namespace bolt {

void write_summary(const std::string& path, const nlohmann::json& summary) {
  const std::filesystem::path file(path);
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  // Written beside the file, then renamed over it: a failed write (a full disk) leaves the
  // previous summary as it was.
  remove_stale_temporaries(path);
  const std::string temporary = temporary_name(path);
  std::ofstream out(temporary);
  out << summary.dump(2) << "\n";
  out.flush();
  const bool written = out.good();
  const int error = errno;
  out.close();
  std::error_code ignored;
  if (!written) std::filesystem::remove(temporary, ignored);
  require(written, "-summary ", path, ": cannot write the file (", std::strerror(error), ")");
  std::filesystem::rename(temporary, path, ignored);
  require(!ignored, "-summary ", path, ": cannot replace the file (", ignored.message(), ")");
}

}  // namespace bolt
