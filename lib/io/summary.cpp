#include "summary.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace bolt {

void write_summary(const std::string& path, const nlohmann::json& summary) {
  const std::filesystem::path file(path);
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  std::ofstream out(path);
  out << summary.dump(2) << "\n";
  out.flush();
  require(out.good(), "-summary ", path, ": cannot write the file (", std::strerror(errno), ")");
}

}  // namespace bolt
