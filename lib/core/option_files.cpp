#include "core/option_files.hpp"

#include <petscsys.h>
#include <sys/stat.h>
#include <yaml.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "core/error.hpp"

namespace bolt {

namespace {

bool names_a_file(const std::string& option) {
  return option == "-options_file_yaml" || option == "-options_file";
}

// An option name as PETSc and bolt spell them: a letter, then letters, digits and underscores.
bool valid_name(const std::string& name) {
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// What stands at `path` when it is not a regular file (a directory, a FIFO waits for a writer
// forever, a device never ends); empty when it is one.
std::string not_regular(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0)
    return std::string("cannot open the file (") + std::strerror(errno) + ")";
  if (S_ISREG(info.st_mode)) return {};
  if (S_ISDIR(info.st_mode)) return "a directory, not a file of options";
  if (S_ISFIFO(info.st_mode)) return "a FIFO, not a regular file of options";
  if (S_ISSOCK(info.st_mode)) return "a socket, not a regular file of options";
  return "a device, not a regular file of options";
}

class Reader {
 public:
  std::vector<FileOption> options;

  // `where`: "FILE:LINE: " of the line that names the file, or "" on the command line.
  void read(const std::string& option, const std::string& path, const std::string& where) {
    const std::string fault = not_regular(path);
    require(fault.empty(), where, option, " ", path, ": ", fault);
    std::error_code error;
    const std::string key = std::filesystem::weakly_canonical(path, error).string();
    std::string chain;
    for (const std::string& open : open_) chain += open + " -> ";
    for (const std::string& open : open_canonical_)
      require(open != key, where, option, " ", path, ": includes itself (", chain, path, ")");
    open_.push_back(path);
    open_canonical_.push_back(key);
    if (option == "-options_file_yaml") read_yaml(path);
    else read_plain(path);
    open_.pop_back();
    open_canonical_.pop_back();
  }

 private:
  std::vector<std::string> open_, open_canonical_;  // the files being read, outermost first

  // One option of `file` at `line`; `seen` holds the names the file gave so far. The include
  // options are followed at once, so a later line of the including file overrides them.
  void add(std::map<std::string, int>& seen, const std::string& file, int line,
           const std::string& name, const std::string& value) {
    const std::string at = file + ":" + std::to_string(line) + ": ";
    require(valid_name(name), at, "'", name,
            "' is not an option name (a letter, then letters, digits, underscores; no dash)");
    const auto [first, fresh] = seen.emplace(name, line);
    require(fresh, at, name, " given twice (first at line ", first->second, ")");
    if (names_a_file("-" + name)) {
      require(!value.empty(), at, name, ": name the file to include");
      read("-" + name, value, at);
      return;
    }
    options.push_back({name, value, file, line});
  }

  // PETSc's options-file format: "-name value" pairs separated by blanks, '#' to the end of a
  // line a comment, a value with blanks in quotes.
  void read_plain(const std::string& file) {
    std::ifstream in(file);
    require(in.good(), file, ": cannot open the file");
    std::map<std::string, int> seen;
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
      const std::vector<std::string> tokens = plain_tokens(file, line, text);
      for (std::size_t i = 0; i < tokens.size();) {
        const std::string& name = tokens[i];
        require(is_option(name), file, ":", line, ": '", name,
                "' is not an option (options start with a dash: -name value)");
        const bool valued = i + 1 < tokens.size() && !is_option(tokens[i + 1]);
        add(seen, file, line, name.substr(1), valued ? tokens[i + 1] : "");
        i += valued ? 2 : 1;
      }
    }
  }

  // A dash and a letter start an option; "-0.5" or "-20,0,0" is a value.
  static bool is_option(const std::string& token) {
    return token.size() > 1 && token[0] == '-' && std::isalpha(static_cast<unsigned char>(token[1]));
  }

  static std::vector<std::string> plain_tokens(const std::string& file, int line,
                                               const std::string& text) {
    std::vector<std::string> tokens;
    std::size_t at = 0;
    while (at < text.size()) {
      const char c = text[at];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++at;
      } else if (c == '#') {
        break;
      } else if (c == '"' || c == '\'') {
        const std::size_t end = text.find(c, at + 1);
        require(end != std::string::npos, file, ":", line, ": a quote ", c, " is not closed");
        tokens.push_back(text.substr(at + 1, end - at - 1));
        at = end + 1;
      } else {
        std::size_t end = at;
        while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
               text[end] != '#')
          ++end;
        tokens.push_back(text.substr(at, end - at));
        at = end;
      }
    }
    return tokens;
  }

  void read_yaml(const std::string& file);
};

// libyaml's parser over one open file, closed and freed on every path out.
class YamlEvents {
 public:
  explicit YamlEvents(const std::string& file) : file_(file) {
    stream_ = std::fopen(file.c_str(), "rb");
    require(stream_ != nullptr, file, ": cannot open the file (", std::strerror(errno), ")");
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_file(&parser_, stream_);
  }
  ~YamlEvents() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
    std::fclose(stream_);
  }
  YamlEvents(const YamlEvents&) = delete;
  YamlEvents& operator=(const YamlEvents&) = delete;

  // The next event; a syntax error is thrown as "FILE:LINE: what (context)".
  const yaml_event_t& next() {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = false;
    if (!yaml_parser_parse(&parser_, &event_)) {
      const std::string context =
          parser_.context ? std::string(" (") + parser_.context + " started at line " +
                                std::to_string(parser_.context_mark.line + 1) + ")"
                          : "";
      fail(file_, ":", parser_.problem_mark.line + 1, ": not valid YAML: ",
           parser_.problem ? parser_.problem : "unreadable", context);
    }
    has_event_ = true;
    return event_;
  }
  int line() const { return int(event_.start_mark.line) + 1; }
  std::string scalar() const {
    return std::string(reinterpret_cast<const char*>(event_.data.scalar.value),
                       event_.data.scalar.length);
  }
  std::string at() const { return file_ + ":" + std::to_string(line()) + ": "; }

 private:
  std::string file_;
  std::FILE* stream_ = nullptr;
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
};

// A value: a scalar, or a sequence of scalars written as PETSc's comma-separated list.
std::string yaml_value(YamlEvents& events, const std::string& key) {
  const yaml_event_t& event = events.next();
  if (event.type == YAML_SCALAR_EVENT) return events.scalar();
  require(event.type == YAML_SEQUENCE_START_EVENT, events.at(), key,
          ": a value is a scalar or a list of scalars (a mapping or an alias is not)");
  std::string list;
  for (bool first = true;; first = false) {
    const yaml_event_t& item = events.next();
    if (item.type == YAML_SEQUENCE_END_EVENT) return list;
    require(item.type == YAML_SCALAR_EVENT, events.at(), key,
            ": a list's items are scalars (1,2,3 or [1, 2, 3])");
    if (!first) list += ',';
    list += events.scalar();
  }
}

// A case file is one YAML document holding one mapping of option names (without the dash) to
// values; an empty file or document gives no options.
void Reader::read_yaml(const std::string& file) {
  YamlEvents events(file);
  std::map<std::string, int> seen;
  int documents = 0;
  for (;;) {
    const yaml_event_t& event = events.next();
    if (event.type == YAML_STREAM_END_EVENT) return;
    if (event.type == YAML_DOCUMENT_START_EVENT) {
      require(++documents == 1, events.at(),
              "a second YAML document ('---'): a case file is one mapping of options");
      continue;
    }
    if (event.type == YAML_SCALAR_EVENT && events.scalar().empty()) continue;  // empty document
    if (event.type != YAML_MAPPING_START_EVENT) {
      require(event.type == YAML_STREAM_START_EVENT || event.type == YAML_DOCUMENT_END_EVENT,
              events.at(), "expected the options as a mapping, 'name: value' per line");
      continue;
    }
    for (;;) {
      const yaml_event_t& key = events.next();
      if (key.type == YAML_MAPPING_END_EVENT) break;
      require(key.type == YAML_SCALAR_EVENT, events.at(), "an option's name must be a plain word");
      const std::string name = events.scalar();
      const int line = events.line();
      add(seen, file, line, name, yaml_value(events, name));
    }
  }
}

std::vector<FileOption>& inserted() {
  static std::vector<FileOption> options;
  return options;
}

}  // namespace

std::vector<OptionFileArgument> take_option_file_arguments(int& argc, char** argv) {
  std::vector<OptionFileArgument> files;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (names_a_file(argv[i])) {
      files.push_back({argv[i], i + 1 < argc ? argv[i + 1] : ""});
      ++i;
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  return files;
}

std::vector<FileOption> read_option_files(const std::vector<OptionFileArgument>& files) {
  Reader reader;
  for (const OptionFileArgument& file : files) {
    require(!file.path.empty(), file.option, ": name the file (", file.option, " FILE)");
    reader.read(file.option, file.path, "");
  }
  return reader.options;
}

void insert_file_options(const std::vector<FileOption>& options) {
  for (const FileOption& option : options) {
    const std::string name = "-" + option.name;
    require(PetscOptionsSetValue(nullptr, name.c_str(),
                                 option.value.empty() ? nullptr : option.value.c_str()) == 0,
            option.file, ":", option.line, ": ", option.name, ": PETSc did not take the option");
    inserted().push_back(option);
  }
}

const std::vector<FileOption>& file_options() { return inserted(); }

}  // namespace bolt
