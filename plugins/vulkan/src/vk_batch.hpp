// Command recording and batching with fences. One command buffer is recorded at a time (the
// "recording batch"), with an optional second one that runs before it in the same submission
// (the batch's uploads: see begin_uploads); submit() hands them to the queue with a VkFence of
// their own. Batch ids grow by
// one per submitted batch; a resource remembers the id of the last batch that used it and is idle
// once completed_id() has reached it. Work that must wait for the GPU (readback copies, freeing
// retired objects) is deferred with on_complete(); channel fence values are completed after the
// batch that carries them, in order, after that batch's deferred work.
#pragma once

#include <deque>
#include <functional>
#include <vector>

#include "novem/channel.hpp"
#include "novem/retire_queue.hpp"
#include "vk_common.hpp"

namespace novem::vk {

class Device;

class BatchQueue {
public:
  BatchQueue(const Device &device, nv_channel &channel);
  ~BatchQueue(); // drains first
  BatchQueue(const BatchQueue &) = delete;
  BatchQueue &operator=(const BatchQueue &) = delete;

  BatchId recording_id() const { return recording_id_; }
  BatchId completed_id() const { return completed_id_; }
  bool in_use(BatchId last_use) const { return last_use > completed_id_; }
  bool recording() const { return cmd_ != VK_NULL_HANDLE; }
  bool pending() const { return !pending_.empty(); }
  bool lost() const { return lost_; }

  // The recording command buffer, begun on first use.
  VkCommandBuffer begin();
  VkCommandBuffer cmd() const { return cmd_; }
  // The recording batch's upload command buffer, begun on first use (with the recording one):
  // it runs before everything recorded in the batch, so it may hold only transfers into images
  // that nothing recorded in the batch uses yet.
  VkCommandBuffer begin_uploads();

  // Runs fn once batch `id` has completed: at once when it already has.
  void on_complete(BatchId id, std::function<void()> fn);

  // Submits the recording batch (when anything was recorded). wait: a binary semaphore the batch
  // waits for at wait_stage (a swapchain image's acquire); signal: one it signals (for present).
  void submit(VkSemaphore wait = VK_NULL_HANDLE, VkPipelineStageFlags2 wait_stage = 0,
              VkSemaphore signal = VK_NULL_HANDLE);
  // Completes channel fence `value` once everything recorded so far has completed: submits the
  // recording batch carrying it, or attaches it to the last batch in flight.
  void signal(uint64_t value);

  // Retires completed batches in order; returns true while some are still in flight.
  bool poll();
  // Blocks up to timeout_ns on the oldest batch in flight.
  void wait(uint64_t timeout_ns);
  // Submits, waits for everything and runs every deferred callback.
  void drain();

private:
  struct Batch {
    BatchId id;
    VkCommandBuffer cmd;
    VkFence fence;
    VkCommandBuffer uploads; // or VK_NULL_HANDLE
    std::vector<uint64_t> values; // channel fence values completed after this batch
  };

  VkCommandBuffer allocate_command_buffer();
  void recycle(Batch &batch);

  void retire(Batch &batch);
  void device_lost();

  const Device &device_;
  nv_channel &channel_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence cmd_fence_ = VK_NULL_HANDLE;
  VkCommandBuffer uploads_ = VK_NULL_HANDLE;
  BatchId recording_id_ = 1;
  BatchId completed_id_ = 0;
  bool lost_ = false;
  std::deque<Batch> pending_;
  std::vector<std::pair<VkCommandBuffer, VkFence>> free_;
  std::vector<VkCommandBuffer> free_uploads_;
  novem::RetireQueue<std::function<void()>> callbacks_; // by the batch they wait for
};

} // namespace novem::vk
