// novem-bench-layer: what VK_LAYER_NOVEM_queue_diagnostics costs, per submit and per frame, with
// each of its switches and against Mesa's overlay layer. See README.md.
//
//   novem-bench-layer [--workload submit|frame|timeline] [--count N] [--batch B] [--runs R] [--rounds K]
//                     [--configs NAME,...] [--layer-data-dir DIR]
//   novem-bench-layer [--rounds K] [--configs NAME,...] [--layer-data-dir DIR] --program CMD [ARG...]
//
// The parent runs, K rounds, every configuration once per round (interleaved, the order shuffled
// each round): a child process (this program with --child, child.cpp) or CMD, with the layer off,
// on, on with one switch off, or with Mesa's overlay layer instead. It prints each run, then per
// configuration the median, the spread and the ratio to "off". A benchmark: it judges nothing.
#include "child.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

// One way of running the workload: the layer or not, with which settings, or the overlay layer.
struct Config {
  std::string name;
  bool layer = false;                          // VK_LAYER_NOVEM_queue_diagnostics enabled
  std::map<std::string, std::string> settings; // NOVEM_QUEUE_DIAGNOSTICS_<KEY>
  bool overlay = false;                        // VK_LAYER_MESA_overlay instead
};

const std::vector<Config> &all_configs() {
  static const std::vector<Config> configs = {
      {"off", false, {}, false},
      {"on", true, {}, false}, // its defaults: one submission in 64 timed on a CPU device
      {"timestamp_every=1", true, {{"TIMESTAMP_EVERY", "1"}}, false}, // every submission timed
      {"timestamps=0", true, {{"TIMESTAMPS", "0"}}, false},
      {"latency=0", true, {{"LATENCY", "0"}}, false}, // no completion tracking: no timestamps either
      {"thread_safety=0", true, {{"THREAD_SAFETY", "0"}}, false},
      {"events=0", true, {{"EVENTS", "0"}}, false},
      {"timestamps=0,events=0", true, {{"TIMESTAMPS", "0"}, {"EVENTS", "0"}}, false},
      {"all switches off", true, {{"TIMESTAMPS", "0"}, {"LATENCY", "0"}, {"THREAD_SAFETY", "0"}, {"EVENTS", "0"}}, false},
      {"mesa-overlay", false, {}, true},
  };
  return configs;
}

struct Options {
  bench_layer::ChildOptions child;
  std::uint32_t rounds = 3;
  std::vector<std::string> configs; // names; empty: all
  std::string data_dir = NOVEM_QD_DATA_DIR; // prepended to XDG_DATA_DIRS for the layer's manifest
  std::vector<std::string> program;         // --program CMD ARG...: measure that instead of a child
};

struct ChildResult {
  int status = -1;
  std::string output;
  double wall_ns = 0, cpu_ns = 0; // the whole process (and its children), as wait4 reports
};

ChildResult spawn(const std::vector<std::string> &argv, const std::map<std::string, std::string> &set,
                  const std::vector<std::string> &unset) {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    const std::string entry = *e, name = entry.substr(0, entry.find('='));
    if (set.count(name) == 0 && std::find(unset.begin(), unset.end(), name) == unset.end()) env.push_back(entry);
  }
  for (const auto &[k, v] : set) env.push_back(k + "=" + v);
  std::vector<char *> envp, args;
  for (auto &e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto &a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);
  ChildResult r;
  int fds[2];
  if (pipe(fds) != 0) return r;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  pid_t pid = -1;
  const auto t0 = std::chrono::steady_clock::now();
  const int err = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    std::fprintf(stderr, "novem-bench-layer: cannot run %s: %s\n", args[0], std::strerror(err));
    return r;
  }
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    r.output.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  r.wall_ns = static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
  auto ns = [](const timeval &t) { return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_usec) * 1e3; };
  r.cpu_ns = ns(usage.ru_utime) + ns(usage.ru_stime);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// A distribution-free 95 % confidence interval of the median of `v`: the order statistics k and
// n + 1 - k, with k the largest rank that a binomial(n, 1/2) count falls below with probability at
// most 2.5 % (the sign test's interval). {0, 0} with fewer than 6 values, where none exists.
std::pair<double, double> median_interval(std::vector<double> v) {
  const std::size_t n = v.size();
  if (n < 6) return {0.0, 0.0};
  std::sort(v.begin(), v.end());
  const double nd = static_cast<double>(n);
  auto term = [&](std::size_t i) { // P(count == i)
    const double id = static_cast<double>(i);
    return std::exp(std::lgamma(nd + 1) - std::lgamma(id + 1) - std::lgamma(nd - id + 1) - nd * std::log(2.0));
  };
  std::size_t k = 0;
  for (double below = 0; k < n / 2 && below + term(k) <= 0.025; ++k) below += term(k);
  return {v[k - 1], v[n - k]};
}

bool parse_u32(const char *s, std::uint32_t &out) {
  char *end = nullptr;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (!*s || *end || v == 0 || v > 100000000ul) return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}

// The figures of one run: wall and process CPU per unit (submit or frame), the layer thread's CPU.
struct Figures {
  std::vector<double> wall, cpu, layer; // every run's
  std::vector<double> round_wall, round_cpu; // per round: the median of its runs
};

// The layer threads' CPU time in a report: the sum of its devices' layer_thread_cpu_ns (-1: none).
double report_layer_cpu(const std::filesystem::path &report) {
  std::ifstream in(report);
  std::stringstream text;
  text << in.rdbuf();
  static const std::regex field(R"("layer_thread_cpu_ns": (\d+))");
  const std::string s = text.str();
  double sum = -1;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), field); it != std::sregex_iterator(); ++it)
    sum = (sum < 0 ? 0 : sum) + std::stod((*it)[1].str());
  return sum;
}

// A program's own frame time where it prints one (novem-demo: "rendered N frames of WxH in S s"),
// else the whole run's wall clock; the CPU time is the whole run's either way, the layer thread's
// (`layer_ns`, from the report; < 0: none) too.
void program_figures(const ChildResult &r, double layer_ns, Figures &f, std::string &unit) {
  static const std::regex rendered(R"(rendered (\d+) frames of \S+ in ([0-9.]+) s)");
  std::smatch m;
  double per = 1;
  if (std::regex_search(r.output, m, rendered)) {
    per = std::stod(m[1].str());
    f.wall.push_back(std::stod(m[2].str()) * 1e9 / per);
    unit = "frame (the program's frame loop; CPU: whole run / frames)";
  } else {
    f.wall.push_back(r.wall_ns);
    unit = "run (whole process, start-up included)";
  }
  f.cpu.push_back(r.cpu_ns / per);
  if (layer_ns >= 0) f.layer.push_back(layer_ns / per);
}

// The workloads' names on the command line.
constexpr std::pair<const char *, bench_layer::Workload> kWorkloads[] = {
    {"submit", bench_layer::Workload::Submit},
    {"frame", bench_layer::Workload::Frame},
    {"timeline", bench_layer::Workload::Timeline},
};
std::optional<bench_layer::Workload> workload_of(const char *name) {
  for (const auto &[n, w] : kWorkloads)
    if (std::strcmp(n, name) == 0) return w;
  return std::nullopt;
}
const char *workload_name(bench_layer::Workload w) {
  for (const auto &[n, known] : kWorkloads)
    if (known == w) return n;
  return "submit";
}

void usage() {
  std::fprintf(stderr,
               "usage: novem-bench-layer [--workload submit|frame|timeline] [--count N] [--batch B] [--runs R] [--rounds K]\n"
               "                         [--configs NAME,...] [--layer-data-dir DIR] [--program CMD ARG...]\n"
               "configurations:");
  for (const Config &c : all_configs()) std::fprintf(stderr, " %s", c.name.c_str());
  std::fprintf(stderr, "\n");
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  bool is_child = false, count_set = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::uint32_t *target = a == "--count" || a == "--submits" ? &o.child.count
                            : a == "--batch"                   ? &o.child.batch
                            : a == "--runs"                    ? &o.child.runs
                            : a == "--rounds"                  ? &o.rounds
                                                               : nullptr;
    if (a == "--child") {
      is_child = true;
    } else if (a == "--program" && i + 1 < argc) {
      o.program.assign(argv + i + 1, argv + argc);
      break;
    } else if (a == "--workload" && i + 1 < argc && workload_of(argv[i + 1])) {
      o.child.workload = *workload_of(argv[++i]);
    } else if (a == "--configs" && i + 1 < argc) {
      std::stringstream list(argv[++i]);
      std::vector<std::string> pieces;
      for (std::string piece; std::getline(list, piece, ',');) pieces.push_back(piece);
      const auto &all = all_configs();
      auto known = [&](const std::string &name) {
        return std::any_of(all.begin(), all.end(), [&](const Config &c) { return c.name == name; });
      };
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        // A name may hold a comma itself ("timestamps=0,events=0"): the longer reading wins.
        std::string name = pieces[k];
        if (k + 1 < pieces.size() && known(name + "," + pieces[k + 1])) name += "," + pieces[++k];
        if (!known(name)) {
          std::fprintf(stderr, "novem-bench-layer: no configuration %s\n", name.c_str());
          usage();
          return 2;
        }
        o.configs.push_back(name);
      }
    } else if (a == "--layer-data-dir" && i + 1 < argc) {
      o.data_dir = argv[++i];
    } else if (target && i + 1 < argc && parse_u32(argv[i + 1], *target)) {
      count_set = count_set || target == &o.child.count;
      ++i;
    } else {
      usage();
      return 2;
    }
  }
  const bool frame = o.child.workload != bench_layer::Workload::Submit;
  if (frame && !count_set) o.child.count = 2000;
  if (is_child) return bench_layer::run_child(o.child);

  std::vector<Config> configs;
  for (const Config &c : all_configs())
    if (o.configs.empty() || std::find(o.configs.begin(), o.configs.end(), c.name) != o.configs.end())
      configs.push_back(c);
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::vector<std::string> argv_run =
      !o.program.empty() ? o.program
                         : std::vector<std::string>{self,        "--child", "--workload", workload_name(o.child.workload),
                                                    "--count",   std::to_string(o.child.count), "--batch",
                                                    std::to_string(o.child.batch), "--runs", std::to_string(o.child.runs)};
  const char *old_xdg = std::getenv("XDG_DATA_DIRS");
  const std::string xdg = o.data_dir + ":" + (old_xdg && *old_xdg ? old_xdg : "/usr/local/share:/usr/share");
  const std::filesystem::path report =
      std::filesystem::temp_directory_path() / ("novem-bench-layer-" + std::to_string(getpid()) + ".json");
  // Validation or any other explicit layer would swamp the figure; no setting of the layer but ours.
  std::vector<std::string> unset = {"VK_INSTANCE_LAYERS", "NOVEM_QUEUE_DIAGNOSTICS", "NOVEM_QUEUE_DIAGNOSTICS_DISABLE"};
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "NOVEM_QUEUE_DIAGNOSTICS_", 24) == 0) unset.emplace_back(std::string(*e).substr(0, std::strcspn(*e, "=")));

  std::string unit = o.child.workload == bench_layer::Workload::Frame
                         ? "frame (wait for its fence, reset, submit a 1024x1024 clear with it)"
                     : o.child.workload == bench_layer::Workload::Timeline
                         ? "frame (wait for a timeline value, submit a 1024x1024 clear signalling the next)"
                         : "vkQueueSubmit (1 empty command buffer, no fence)";
  if (o.program.empty())
    std::printf("novem-bench-layer: %u %s per run, %u runs per child, %u rounds, configurations interleaved\n",
                o.child.count, frame ? "frames" : "submits", o.child.runs, o.rounds);
  else
    std::printf("novem-bench-layer: %s, %u rounds, configurations interleaved\n", o.program[0].c_str(), o.rounds);
  std::map<std::string, Figures> results;
  std::string device;
  // Each round's order is shuffled (a fixed seed: a run can be repeated), so that no configuration
  // always follows the same one nor runs at the same distance from "off". A rotation kept both
  // fixed, and an effect one run has on the next (the machine left slower or faster) then biased
  // the same ratio in every round, which no interval over rounds can show.
  std::mt19937 shuffler(1);
  std::vector<std::size_t> order(configs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (std::uint32_t round = 0; round < o.rounds; ++round) {
    std::shuffle(order.begin(), order.end(), shuffler);
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const Config &c = configs[order[k]];
      std::map<std::string, std::string> set;
      if (c.layer) {
        set = {{"XDG_DATA_DIRS", xdg}, {"NOVEM_QUEUE_DIAGNOSTICS", "1"}, {"NOVEM_QUEUE_DIAGNOSTICS_REPORT", report.string()}};
        for (const auto &[key, value] : c.settings) set["NOVEM_QUEUE_DIAGNOSTICS_" + key] = value;
      }
      if (c.overlay) set["VK_INSTANCE_LAYERS"] = "VK_LAYER_MESA_overlay";
      std::error_code ec;
      std::filesystem::remove(report, ec);
      const ChildResult r = spawn(argv_run, set, unset);
      if (r.status != 0) {
        std::fprintf(stderr, "novem-bench-layer: %s failed under %s (exit %d)\n%s", argv_run[0].c_str(), c.name.c_str(),
                     r.status, r.output.c_str());
        return 1;
      }
      const bool report_written = std::filesystem::exists(report, ec);
      const double layer_ns = report_written ? report_layer_cpu(report) : -1;
      std::filesystem::remove(report, ec);
      if (c.layer && !report_written) {
        std::fprintf(stderr, "novem-bench-layer: the layer wrote no report: it was not loaded (is %s/vulkan/"
                             "implicit_layer.d there?)\n", o.data_dir.c_str());
        return 1;
      }
      Figures &f = results[c.name];
      std::printf("round %u %-22s", round + 1, c.name.c_str());
      const std::size_t runs_before = f.wall.size();
      if (!o.program.empty()) {
        program_figures(r, layer_ns, f, unit);
        std::printf(" %12.1f ns, cpu %12.1f ns\n", f.wall.back(), f.cpu.back());
      } else {
        std::stringstream lines(r.output);
        for (std::string line; std::getline(lines, line);) {
          if (line.rfind("device ", 0) == 0) device = line.substr(7);
          double w = 0, cpu = 0, layer = 0;
          if (std::sscanf(line.c_str(), "run %lf %lf %lf", &w, &cpu, &layer) == 3) {
            f.wall.push_back(w);
            f.cpu.push_back(cpu);
            f.layer.push_back(layer);
            std::printf(" %9.1f", w);
          }
        }
        std::printf("  ns\n");
      }
      f.round_wall.push_back(median({f.wall.begin() + static_cast<std::ptrdiff_t>(runs_before), f.wall.end()}));
      f.round_cpu.push_back(median({f.cpu.begin() + static_cast<std::ptrdiff_t>(runs_before), f.cpu.end()}));
      std::fflush(stdout);
    }
  }
  if (!device.empty()) std::printf("device: %s\n", device.c_str());
  std::printf("ns per %s; medians over all runs, ratio to \"off\"; paired: the median over rounds of the\n"
              "round's figure over off's in the same round, with its 95 %% confidence interval (from 6 rounds);\n"
              "spread: (max - min) / median\n", unit.c_str());
  std::printf("%-22s %12s %7s %7s %13s %7s %12s %7s %7s %13s %12s\n", "configuration", "wall", "ratio", "paired",
              "95% interval", "spread", "process cpu", "ratio", "paired", "95% interval", "layer thread");
  const Figures *off = results.count("off") ? &results["off"] : nullptr;
  // Per round, this configuration's figure over off's in the same round.
  auto paired = [&](const std::vector<double> &mine, const std::vector<double> &offs) {
    std::vector<double> ratios;
    for (std::size_t k = 0; k < mine.size() && k < offs.size(); ++k)
      if (offs[k] > 0) ratios.push_back(mine[k] / offs[k]);
    return ratios;
  };
  auto interval = [](const std::vector<double> &ratios) {
    const auto [lo, hi] = median_interval(ratios);
    char text[32] = "-";
    if (hi > 0) std::snprintf(text, sizeof text, "%.3f-%.3f", lo, hi);
    return std::string(text);
  };
  for (const Config &c : configs) {
    const Figures &f = results[c.name];
    const double w = median(f.wall), cpu = median(f.cpu);
    const double off_wall = off ? median(off->wall) : 0, off_cpu = off ? median(off->cpu) : 0;
    const auto [lo, hi] = std::minmax_element(f.wall.begin(), f.wall.end());
    const std::vector<double> wall_ratios = off ? paired(f.round_wall, off->round_wall) : std::vector<double>{};
    const std::vector<double> cpu_ratios = off ? paired(f.round_cpu, off->round_cpu) : std::vector<double>{};
    std::printf("%-22s %12.1f %7.3f %7.3f %13s %6.0f%% %12.1f %7.3f %7.3f %13s", c.name.c_str(), w,
                off_wall > 0 ? w / off_wall : 0.0, median(wall_ratios), interval(wall_ratios).c_str(),
                w > 0 ? (*hi - *lo) / w * 100 : 0.0, cpu, off_cpu > 0 ? cpu / off_cpu : 0.0, median(cpu_ratios),
                interval(cpu_ratios).c_str());
    if (f.layer.empty())
      std::printf(" %12s\n", "-");
    else
      std::printf(" %12.1f\n", median(f.layer));
  }
  return 0;
}
