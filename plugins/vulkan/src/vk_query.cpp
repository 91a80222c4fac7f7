#include "vk_query.hpp"

#include <algorithm>

#include "vk_batch.hpp"
#include "vk_device.hpp"
#include "vk_executor.hpp"


namespace novem::vk {

namespace {

// Pool entries in flight at once: segments of counting slots, and timestamps not yet read.
constexpr uint32_t kPoolSize = 4096;

} // namespace

struct Queries::Segment {
  Segment(std::vector<uint32_t> &free_list, uint32_t pool_index) : free(free_list), index(pool_index) {}
  ~Segment() { free.push_back(index); }
  std::vector<uint32_t> &free;
  uint32_t index;
  bool read = false;
  uint64_t samples = 0;
};

Queries::Queries(const Device &device, nv_channel &channel) : device_(device), channel_(channel) {
  VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  ci.queryType = VK_QUERY_TYPE_OCCLUSION;
  ci.queryCount = kPoolSize;
  check(device_.vk().CreateQueryPool(device_.handle(), &ci, nullptr, &occlusion_), "vkCreateQueryPool");
  ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  if (VkResult r = device_.vk().CreateQueryPool(device_.handle(), &ci, nullptr, &timestamps_); r < 0) {
    device_.vk().DestroyQueryPool(device_.handle(), occlusion_, nullptr);
    throw VkError(r, "vkCreateQueryPool");
  }
  for (uint32_t i = kPoolSize; i-- > 0;) {
    free_occlusion_.push_back(i);
    free_timestamps_.push_back(i);
  }
}

Queries::~Queries() {
  device_.vk().DestroyQueryPool(device_.handle(), occlusion_, nullptr);
  device_.vk().DestroyQueryPool(device_.handle(), timestamps_, nullptr);
}

uint32_t Queries::take(std::vector<uint32_t> &free, const char *what) {
  if (free.empty()) throw std::runtime_error(std::string("too many ") + what + " in flight");
  uint32_t index = free.back();
  free.pop_back();
  return index;
}

std::shared_ptr<Queries::Segment> Queries::new_segment() {
  return std::make_shared<Segment>(free_occlusion_, take(free_occlusion_, "occlusion segments"));
}

void Queries::begin_occlusion(uint32_t slot) {
  auto it = std::find_if(counting_.begin(), counting_.end(), [&](const Counting &c) { return c.slot == slot; });
  if (it != counting_.end()) it->segments.clear();
  else counting_.push_back(Counting{slot, {}});
}

void Queries::end_occlusion(uint32_t slot, BatchQueue &batches) {
  auto it = std::find_if(counting_.begin(), counting_.end(), [&](const Counting &c) { return c.slot == slot; });
  std::vector<std::shared_ptr<Segment>> segments;
  if (it != counting_.end()) {
    segments = std::move(it->segments);
    counting_.erase(it);
  }
  const NovemVkDevice *vk = &device_.vk();
  VkDevice dev = device_.handle();
  VkQueryPool pool = occlusion_;
  nv_channel *channel = &channel_;
  batches.on_complete(batches.recording_id(), [=] {
    uint64_t sum = 0;
    for (const auto &s : segments) {
      if (!s->read) {
        uint64_t samples = 0;
        // Not ready only on a lost device: count nothing then.
        if (vk->GetQueryPoolResults(dev, pool, s->index, 1, sizeof samples, &samples, sizeof samples,
                                    VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
          s->samples = samples;
        s->read = true;
      }
      sum += s->samples;
    }
    channel->query_results[slot].store(sum, std::memory_order_relaxed);
  });
}

void Queries::timestamp(uint32_t slot, VkCommandBuffer cmd, BatchQueue &batches) {
  const uint32_t index = take(free_timestamps_, "timestamps");
  device_.vk().CmdResetQueryPool(cmd, timestamps_, index, 1);
  device_.vk().CmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, timestamps_, index);
  const NovemVkDevice *vk = &device_.vk();
  VkDevice dev = device_.handle();
  VkQueryPool pool = timestamps_;
  nv_channel *channel = &channel_;
  const double period = device_.limits().timestampPeriod; // ns per tick
  std::vector<uint32_t> *free = &free_timestamps_;
  batches.on_complete(batches.recording_id(), [=] {
    uint64_t ticks = 0;
    if (vk->GetQueryPoolResults(dev, pool, index, 1, sizeof ticks, &ticks, sizeof ticks, VK_QUERY_RESULT_64_BIT) ==
        VK_SUCCESS)
      channel->query_results[slot].store(uint64_t(double(ticks) * period), std::memory_order_relaxed);
    free->push_back(index);
  });
}

void Queries::before_rendering(VkCommandBuffer cmd) {
  if (counting_.empty()) return;
  pending_ = new_segment();
  device_.vk().CmdResetQueryPool(cmd, occlusion_, pending_->index, 1);
}

void Queries::rendering_begun(VkCommandBuffer cmd) {
  if (!pending_) return;
  // PRECISE: D3D9's answer is a sample count, not a yes/no.
  device_.vk().CmdBeginQuery(cmd, occlusion_, pending_->index, VK_QUERY_CONTROL_PRECISE_BIT);
  open_ = std::move(pending_);
}

void Queries::rendering_ending(VkCommandBuffer cmd) {
  if (!open_) return;
  device_.vk().CmdEndQuery(cmd, occlusion_, open_->index);
  for (Counting &c : counting_) c.segments.push_back(open_);
  open_.reset();
}

} // namespace novem::vk

// ---- the executor's query commands ----
namespace novem::vk {

void Executor::begin_query(const nv_cmd_begin_query &a, const nv_cmd_header *) {
  if (const char *why = checks::begin_query(a)) return violations_.report(NV_OP_BEGIN_QUERY, why);
  end_rendering(); // the counting set changes between render pass instances only
  queries_->begin_occlusion(a.slot);
}

void Executor::end_query(const nv_cmd_end_query &a, const nv_cmd_header *) {
  if (const char *why = checks::end_query(a)) return violations_.report(NV_OP_END_QUERY, why);
  end_rendering();
  if (a.type == NV_QUERY_OCCLUSION) queries_->end_occlusion(a.slot, *batches_);
  else queries_->timestamp(a.slot, command_buffer(), *batches_);
}

} // namespace novem::vk
