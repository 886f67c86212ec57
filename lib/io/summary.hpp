#pragma once
// The JSON run summary (-summary FILE): a stable schema, documented in docs/output.md, that the
// validation and scaling scripts read.
#include <string>

#include <nlohmann/json.hpp>

namespace bolt {

void write_summary(const std::string& path, const nlohmann::json& summary);

}  // namespace bolt
