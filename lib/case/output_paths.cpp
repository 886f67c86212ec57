#include "case/output_paths.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace bolt {

namespace {

namespace fs = std::filesystem;

// The value as the error line shows it: bytes outside printable ASCII as \xNN, so that the line
// itself stays one line of valid text.
std::string shown(const std::string& value) {
  std::string out = "'";
  for (const unsigned char c : value) {
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  return out + "'";
}

// Text that summary.json holds: UTF-8 (the JSON writer refuses anything else, after the run) and
// one line.
void check_text(const std::string& option, const std::string& value, const char* allowed) {
  try {
    (void)nlohmann::json(value).dump();
  } catch (const nlohmann::json::exception&) {
    fail(option, " ", shown(value), ": not valid UTF-8; allowed: ", allowed,
         " (it is written into the JSON summary)");
  }
  for (const unsigned char c : value)
    require(c >= 0x20 && c != 0x7f, option, " ", shown(value),
            ": holds a control character; allowed: ", allowed);
}

// The nearest folder of `path` (itself included) that exists: the one a missing path is created
// in.
fs::path existing_ancestor(fs::path path) {
  std::error_code error;
  path = fs::absolute(path, error);
  while (!fs::exists(path, error) && path.has_parent_path() && path != path.parent_path())
    path = path.parent_path();
  return path;
}

// `folder` (of option's value) is a directory the run can create files in, or a path that can
// be created as one.
void check_folder(const std::string& option, const std::string& value, const fs::path& folder) {
  std::error_code error;
  const fs::path ancestor = existing_ancestor(folder);
  require(fs::is_directory(ancestor, error), option, " ", shown(value), ": ", ancestor.string(),
          " is not a directory; allowed: a path in a directory, or one that can be created");
  require(::access(ancestor.c_str(), W_OK | X_OK) == 0, option, " ", shown(value),
          ": cannot create files in ", ancestor.string(),
          " (no write permission); allowed: a path in a writable directory");
}

void check_directory(const std::string& option, const std::string& value) {
  require(!value.empty(), option, " '': empty; allowed: a directory path");
  check_text(option, value, "a directory path in UTF-8");
  std::error_code error;
  require(!fs::exists(value, error) || fs::is_directory(value, error), option, " ", shown(value),
          ": exists and is not a directory; allowed: a directory, or a path that can be "
          "created as one");
  check_folder(option, value, value);
  for (const char* name : {"monitor.csv", "fields.xmf"})
    require(!fs::is_directory(fs::path(value) / name, error), option, " ", shown(value), ": ",
            (fs::path(value) / name).string(), " is a directory; the run writes that file");
}

void check_file(const std::string& option, const std::string& value) {
  require(!value.empty(), option, " '': empty; allowed: a file path");
  check_text(option, value, "a file path in UTF-8");
  const fs::path path(value);
  const std::string name = path.filename().string();
  require(!name.empty() && name != "." && name != "..", option, " ", shown(value),
          ": names a directory; allowed: a file path (its folder is created when missing)");
  std::error_code error;
  require(!fs::is_directory(path, error), option, " ", shown(value),
          ": is a directory; allowed: a file path (its folder is created when missing)");
  check_folder(option, value, path.has_parent_path() ? path.parent_path() : fs::path("."));
}

// A path as the file system resolves it, for comparing two outputs.
fs::path resolved(const std::string& value) {
  std::error_code error;
  const fs::path absolute = fs::absolute(value, error);
  const fs::path canonical = fs::weakly_canonical(absolute, error);
  return error ? absolute.lexically_normal() : canonical;
}

// What the run writes itself in -out_dir, when `file` is one of them.
std::string out_dir_file(const OutputOptions& out, const fs::path& file) {
  if (file.parent_path() != resolved(out.directory)) return {};
  static const std::regex fields("fields_[0-9]{6}\\.h5");
  const std::string name = file.filename().string();
  if (name == "monitor.csv" || name == "fields.xmf" || std::regex_match(name, fields))
    return "the " + name + " of -out_dir";
  return {};
}

void check_collisions(const OutputOptions& out) {
  const fs::path checkpoint = resolved(out.checkpoint), summary = resolved(out.summary);
  require(checkpoint != summary, "-summary ", shown(out.summary), ": the same file as -out_checkpoint ",
          shown(out.checkpoint),
          " (the summary would replace the checkpoint); allowed: a path of its own");
  static const std::regex kept("\\.[0-9]{12}");
  const std::string checkpoint_name = checkpoint.filename().string();
  const std::string summary_name = summary.filename().string();
  require(summary.parent_path() != checkpoint.parent_path() ||
              summary_name.rfind(checkpoint_name, 0) != 0 ||
              !std::regex_match(summary_name.substr(checkpoint_name.size()), kept),
          "-summary ", shown(out.summary), ": the name of a kept checkpoint of -out_checkpoint ",
          shown(out.checkpoint), " (<file>.<step>); allowed: a path of its own");
  const std::string clash_checkpoint = out_dir_file(out, checkpoint);
  require(clash_checkpoint.empty(), "-out_checkpoint ", shown(out.checkpoint), ": the same file as ",
          clash_checkpoint, "; allowed: a path of its own");
  const std::string clash_summary = out_dir_file(out, summary);
  require(clash_summary.empty(), "-summary ", shown(out.summary), ": the same file as ",
          clash_summary, "; allowed: a path of its own");
}

}  // namespace

void check_output_paths(const RunOptions& run) {
  check_text("-case_name", run.case_name, "UTF-8 text on one line");
  const OutputOptions& out = run.output;
  check_directory("-out_dir", out.directory);
  check_file("-out_checkpoint", out.checkpoint);
  check_file("-summary", out.summary);
  check_collisions(out);
}

}  // namespace bolt
