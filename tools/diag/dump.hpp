// A dump of VK_LAYER_NOVEM_queue_diagnostics (schema novem-queue-dump/N: a hang found by the
// watchdog, or a lost device; layer/README.md): the work in flight as a list and as a picture.
#pragma once

#include "json.hpp"

#include <novem/image.hpp>

#include <cstdint>
#include <string>

namespace novem::diag {

inline constexpr const char *kDumpSchemaPrefix = "novem-queue-dump/";

// Prints the dump's header line and one line per submission in flight.
void print_dump(const Json &dump);

// One row per queue with work in flight; each submission an open bar (red, no end: it had not
// completed) from its submit call (the dump time minus its age) to the right edge, on a lane of its
// own, labelled with its sequence number, age, command buffers and the first of any debug labels it
// carries. x is ms from the oldest submit call to the dump; a legend at the bottom.
novem::image::Image draw_dump(const Json &dump, std::uint32_t width);

} // namespace novem::diag
