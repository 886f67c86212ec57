#include "summary.hpp"

#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace bolt {

void write_summary(const std::string& path, const nlohmann::json& summary) {
  const std::filesystem::path file(path);
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  std::ofstream out(path);
  require(out.good(), "-summary ", path, ": cannot write the file");
  out << summary.dump(2) << "\n";
}

}  // namespace bolt
