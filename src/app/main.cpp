// sphreverb: the command line (app.hpp) -> Scene -> run.
#include <mpi.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "sphreverb/app/app.hpp"
#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/config/schema.hpp"
#include "sphreverb/core/version.hpp"

namespace po = boost::program_options;

namespace {

const char* const kUsage =
    "usage: sphreverb run SCENE.ini [--out DIR] [--SECTION.KEY VALUE ...]\n"
    "       sphreverb check SCENE.ini [--ranks N] [--SECTION.KEY VALUE ...]\n"
    "       sphreverb restart CHECKPOINT.h5 [--out DIR] [--time.duration S]\n"
    "       sphreverb hybrid RUN_DIR [--hybrid.KEY VALUE ...]   (the full band of a finished\n"
    "                run again from its SPH records, with other [hybrid] keys)\n"
    "       sphreverb keys   (the scene reference, Markdown: docs/scene-reference.md)\n"
    "       sphreverb --help | --version\n"
    "Any scene key can be overridden by its dotted name, e.g. --fluid.spacing 0.01.\n";

// check --ranks N: the rank count to evaluate.
constexpr int kMaxRanks = 1 << 20;

// Splits the dotted scene overrides (--section.key VALUE or --section.key=VALUE) off argv; the
// rest goes to Boost.Program_options. Throws std::invalid_argument for a dotted key without value
// or given twice (as a key given twice in the scene file is an error).
std::vector<std::string> take_overrides(int argc, char** argv,
                                        std::map<std::string, std::string>& overrides) {
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    const std::string name =
        a.rfind("--", 0) == 0 ? a.substr(2, eq == std::string::npos ? eq : eq - 2) : "";
    if (name.find('.') == std::string::npos) {
      rest.push_back(a);
      continue;
    }
    std::string value;
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
    } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
      value = argv[++i];
    } else {
      throw std::invalid_argument("option --" + name + " needs a value (quote vectors: --" + name +
                                  " \"x y z\")");
    }
    if (const auto [it, fresh] = overrides.emplace(name, value); !fresh)
      throw std::invalid_argument("option --" + name + " given twice (" + it->second + ", then " +
                                  value + ")");
  }
  return rest;
}

// Parses argv into a Command; throws po::error or std::invalid_argument with a usage message.
sphreverb::Command parse(int argc, char** argv, bool& help, bool& version) {
  sphreverb::Command cmd;
  const std::vector<std::string> args = take_overrides(argc, argv, cmd.overrides);
  po::options_description named("options");
  named.add_options()("help,h", "show this help")("version", "print versions")(
      "out,o", po::value<std::string>(), "output directory (default: [output] dir)")(
      "ranks", po::value<int>(), "check: rank count to evaluate")(
      "command", po::value<std::string>(), "run | check | restart | hybrid")(
      "scene", po::value<std::string>(), "");
  po::positional_options_description pos;
  pos.add("command", 1).add("scene", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(named).positional(pos).run(), vm);
  help = vm.count("help") > 0;
  version = vm.count("version") > 0;
  if (help || version) return cmd;
  if (vm.count("command") && vm["command"].as<std::string>() == "keys" && !vm.count("scene")) {
    cmd.name = "keys";
    return cmd;
  }
  if (!vm.count("command") || !vm.count("scene"))
    throw std::invalid_argument(
        "a command and a scene (restart: checkpoint; hybrid: run directory) are required");
  cmd.name = vm["command"].as<std::string>();
  cmd.scene = vm["scene"].as<std::string>();
  if (vm.count("out")) cmd.out = vm["out"].as<std::string>();
  if (vm.count("ranks")) {
    cmd.ranks = vm["ranks"].as<int>();
    if (cmd.ranks < 1 || cmd.ranks > kMaxRanks)
      throw std::invalid_argument("--ranks " + std::to_string(cmd.ranks) + ": must be in [1, " +
                                  std::to_string(kMaxRanks) + "]");
  }
  if (cmd.name != "run" && cmd.name != "check" && cmd.name != "restart" && cmd.name != "hybrid")
    throw std::invalid_argument("unknown command '" + cmd.name + "'");
  if (cmd.name == "hybrid" && !cmd.out.empty())
    throw std::invalid_argument("hybrid writes into the run directory it reads: no --out");
  return cmd;
}

}  // namespace

int main(int argc, char** argv) {
  // Before MPI_Init (which takes a few tenths of a second): a stop signal from then on is honoured
  // at the first step boundary instead of killing the process (stop_signal.hpp).
  sphreverb::install_stop_handlers();
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int code = sphreverb::kExitOk;
  bool help = false, version = false;
  sphreverb::Command cmd;
  try {
    cmd = parse(argc, argv, help, version);
  } catch (const std::exception& e) {
    if (rank == 0) std::cerr << "sphreverb: " << e.what() << "\n" << kUsage;
    MPI_Finalize();
    return sphreverb::kExitBadInput;
  }
  if (help) {
    if (rank == 0) std::cout << kUsage;
  } else if (cmd.name == "keys") {
    if (rank == 0) std::cout << sphreverb::scene_reference_markdown();
  } else if (version) {
    if (rank == 0)
      for (const auto& [name, v] : sphreverb::versions()) std::cout << name << " " << v << "\n";
  } else {
    code = cmd.name == "run"       ? sphreverb::run_command(cmd, MPI_COMM_WORLD)
           : cmd.name == "restart" ? sphreverb::restart_command(cmd, MPI_COMM_WORLD)
           : cmd.name == "hybrid"  ? sphreverb::hybrid_command(cmd, MPI_COMM_WORLD)
                                   : sphreverb::check_command(cmd, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return code;
}
