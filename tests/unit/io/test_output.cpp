// Multi-channel groups: GROUP.raw.wav holds each member's samples bit for bit, in scene order;
// GROUP.wav is normalised with one gain for the whole group.
#include <gtest/gtest.h>
#include <sndfile.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "sphreverb/io/output.hpp"
#include "sphreverb/config/scene.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

// Frames x channels, as floats (libsndfile scales PCM to [-1, 1)).
std::vector<std::vector<float>> read_channels(const std::string& path, int& rate) {
  SF_INFO info{};
  SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
  EXPECT_NE(f, nullptr) << path;
  if (f == nullptr) return {};
  std::vector<float> inter(static_cast<std::size_t>(info.frames * info.channels));
  sf_readf_float(f, inter.data(), info.frames);
  sf_close(f);
  rate = info.samplerate;
  std::vector<std::vector<float>> ch(static_cast<std::size_t>(info.channels));
  for (sf_count_t i = 0; i < info.frames; ++i)
    for (int c = 0; c < info.channels; ++c)
      ch[c].push_back(inter[static_cast<std::size_t>(i * info.channels + c)]);
  return ch;
}

TEST(OutputGroups, ChannelsAreTheMembersInSceneOrder) {
  const fs::path dir = fs::temp_directory_path() / "sphreverb_test_output_groups";
  fs::remove_all(dir);
  fs::create_directories(dir);
  Scene s;
  s.time.sample_rate = 8000.0;
  s.output.normalize = true;
  s.receivers = {{"a", {}, "pair"}, {"b", {}, ""}, {"c", {}, "pair"}};
  std::vector<ReceiverOutput> outs(3);
  const char* names[] = {"a", "b", "c"};
  for (int r = 0; r < 3; ++r) {
    outs[r].name = names[r];
    // Zero mean (so the DC removal leaves it unchanged), peak (r + 1) / 4.
    for (int i = 0; i < 50; ++i)
      outs[r].audio.push_back((r + 1) * 0.25 * (i % 2 == 0 ? 1.0 : -1.0) *
                              (i % 5 == 0 ? 1.0 : 0.5));
  }
  const std::vector<GroupOutput> groups = write_group_wavs(s, outs, dir.string());
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].name, "pair");
  EXPECT_EQ(groups[0].channels, (std::vector<std::string>{"a", "c"}));

  int rate = 0;
  const auto raw = read_channels((dir / "pair.raw.wav").string(), rate);
  EXPECT_EQ(rate, 8000);
  ASSERT_EQ(raw.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    const ReceiverOutput& member = outs[k == 0 ? 0 : 2];
    ASSERT_EQ(raw[k].size(), member.audio.size());
    for (std::size_t i = 0; i < raw[k].size(); ++i)
      EXPECT_EQ(raw[k][i], static_cast<float>(member.audio[i]));
  }
  // One gain: the louder channel (c, amplitude 0.75) reaches full scale, a keeps its ratio.
  const auto pcm = read_channels((dir / "pair.wav").string(), rate);
  ASSERT_EQ(pcm.size(), 2u);
  double peak_a = 0.0, peak_c = 0.0;
  for (float v : pcm[0]) peak_a = std::max(peak_a, std::abs(static_cast<double>(v)));
  for (float v : pcm[1]) peak_c = std::max(peak_c, std::abs(static_cast<double>(v)));
  EXPECT_NEAR(peak_c, 1.0, 2e-4);
  EXPECT_NEAR(peak_a / peak_c, 1.0 / 3.0, 1e-4);
  EXPECT_FALSE(fs::exists(dir / "b.wav"));  // write_group_wavs writes groups only
  fs::remove_all(dir);
}

TEST(OutputGroups, NoGroupsNoFiles) {
  Scene s;
  s.receivers = {{"a", {}, ""}};
  std::vector<ReceiverOutput> outs(1);
  outs[0].name = "a";
  outs[0].audio = {0.0, 1.0};
  EXPECT_TRUE(write_group_wavs(s, outs, fs::temp_directory_path().string()).empty());
}

}  // namespace
}  // namespace sphreverb
