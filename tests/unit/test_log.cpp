// The one logger (novem/log.hpp): which levels NOVEM_LOG lets through, the file NOVEM_LOG_FILE
// names, one line per message whatever its text holds, and the flood guard.
#include <catch2/catch.hpp>

#include "log_file.hpp"
#include "novem/log.hpp"

#include <string>

using novem::test::LogFile;

TEST_CASE("log: NOVEM_LOG lets through its level and the ones above it", "[log]") {
  using novem::LogLevel;
  struct Case {
    const char *setting;
    LogLevel most; // the most detailed level written
  };
  const Case cases[] = {{nullptr, LogLevel::warn}, {"", LogLevel::warn},      {"error", LogLevel::error},
                        {"warn", LogLevel::warn},  {"info", LogLevel::info},  {"debug", LogLevel::debug},
                        {"trace", LogLevel::trace}};
  for (const Case &c : cases) {
    LogFile file;
    {
      novem::Logger logger(c.setting, file.path.c_str());
      for (int l = 0; l <= static_cast<int>(LogLevel::trace); ++l) {
        CHECK(logger.enabled(static_cast<LogLevel>(l)) == (l <= static_cast<int>(c.most)));
        logger.write(static_cast<LogLevel>(l), "novem-test", "level %d", l);
      }
    }
    std::string expected;
    for (int l = 0; l <= static_cast<int>(c.most); ++l) expected += "novem-test: level " + std::to_string(l) + "\n";
    INFO("NOVEM_LOG=" << (c.setting ? c.setting : "(unset)"));
    CHECK(file.text() == expected);
  }
}

TEST_CASE("log: an unknown level is one line, and warn", "[log]") {
  LogFile file;
  novem::Logger logger("verbose", file.path.c_str());
  CHECK(logger.level() == novem::LogLevel::warn);
  CHECK(file.text() == "novem: NOVEM_LOG=verbose is not error, warn, info, debug or trace; using warn\n");
}

TEST_CASE("log: a message is one line, however long and whatever it holds", "[log]") {
  LogFile file;
  novem::Logger logger("warn", file.path.c_str());
  const std::string long_text(5000, 'x');
  logger.write(novem::LogLevel::error, "novem-vulkan", "validation: first\nsecond\r\n%s \n", long_text.c_str());
  CHECK(file.text() == "novem-vulkan: validation: first second  " + long_text + "\n");
}

TEST_CASE("log: the flood guard writes its limit, then one line, then nothing", "[log]") {
  LogFile file;
  novem::Logger logger("warn", file.path.c_str());
  novem::LogBudget budget(2);
  for (int i = 0; i < 5; ++i)
    if (budget.take(logger, novem::LogLevel::warn, "novem-opengl")) logger.write(novem::LogLevel::warn, "novem-opengl", "GL error %d", i);
  CHECK(file.text() == "novem-opengl: GL error 0\nnovem-opengl: GL error 1\nnovem-opengl: further messages suppressed\n");
  novem::LogBudget quiet(2); // a level the logger does not write spends nothing
  CHECK_FALSE(quiet.take(logger, novem::LogLevel::debug, "novem-opengl"));
}
