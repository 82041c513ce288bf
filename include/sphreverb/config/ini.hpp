// The scene's INI text before conversion: a lexer that checks the syntax, the section names
// (against the schema), duplicates and `include = PATH` lines, and the command-line overrides
// merged in. Values stay text here; scene.cpp converts them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sphreverb/config/schema.hpp"

namespace sphreverb {

struct IniEntry {
  std::string section;
  std::string key;
  std::string value;
  int line = 0;      // 1-based line in the file; 0 = from the command line
  std::string file;  // the included file it comes from; empty = the scene file itself
};

struct IniSection {
  std::string name;
  const SectionSpec* type = nullptr;
  int line = 0;                   // line of the [header]; 0 = created by a command-line override
  std::vector<std::string> keys;  // in order of appearance
  std::string file;               // the included file it comes from; empty = the scene file
};

struct IniScene {
  std::vector<IniSection> sections;         // file order, then sections created by overrides
  std::map<std::string, IniEntry> entries;  // dotted key -> entry
};

// The text of a regular file of at most kMaxSceneFileBytes; throws SceneError("`what`" + reason)
// for a missing, non-regular (directory, device, FIFO), unreadable or too large file.
std::string read_scene_text(const std::string& path, const std::string& what);

// Splits the scene text into sections and entries (reading included files relative to `path`'s
// directory). Throws SceneError naming the file and the line.
IniScene lex_scene(const std::string& text, const std::string& path);

// Replaces or adds entries from the command line (dotted key -> value); the key must be in the
// schema. Throws SceneError naming "--KEY VALUE".
void apply_overrides(IniScene& ini, const std::map<std::string, std::string>& overrides,
                     const std::string& path);

// "FILE:LINE" or "FILE (command line)".
std::string origin(const std::string& path, int line);
// Throws SceneError("ORIGIN: TEXT: WHAT").
[[noreturn]] void fail_line(const std::string& path, int line, const std::string& text,
                            const std::string& what);

}  // namespace sphreverb
