// Multi-channel groups: GROUP.raw.wav holds each member's samples bit for bit, in scene order;
// GROUP.wav is normalised with one gain for the whole group.
#include <gtest/gtest.h>
#include <sndfile.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/io/output.hpp"
#include "sphreverb/model/receiver.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

ReceiverSpec receiver(const std::string& name, const std::string& group,
                      ReceiverType type = ReceiverType::Omni) {
  ReceiverSpec r;
  r.name = name, r.group = group, r.type = type;
  return r;
}

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
  s.receivers = {receiver("a", "pair"), receiver("b", ""), receiver("c", "pair")};
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
  s.receivers = {receiver("a", "")};
  std::vector<ReceiverOutput> outs(1);
  outs[0].name = "a";
  outs[0].audio = {0.0, 1.0};
  EXPECT_TRUE(write_group_wavs(s, outs, fs::temp_directory_path().string()).empty());
}

// A receiver pair at one point, omni and ambisonic, fed a plane wave arriving from direction u
// (v = -p' u / (rho0 c0)): W is the omni record bit for bit, (X, Y, Z) = W u to round-off, the
// files carry the ambiX comment, and NAME.amb.wav has one gain for all four channels.
TEST(OutputAmbisonic, PlaneWaveFromUGivesXyzEqualWTimesU) {
  const fs::path dir = fs::temp_directory_path() / "sphreverb_test_output_ambisonic";
  fs::remove_all(dir);
  fs::create_directories(dir);
  Scene s;
  s.time.sample_rate = 8000.0;
  s.derived.substeps = 4;
  s.derived.samples = 60;
  s.derived.f_max = 1000.0;
  s.receivers = {receiver("o", ""), receiver("a", "", ReceiverType::Ambisonic)};
  const double rho0 = s.fluid.rest_density, c0 = s.fluid.sound_speed;
  const Vec3 u{0.6, 0.0, -0.8};  // from +x, below
  const std::size_t records = 241;
  std::vector<double> rho(records), vx(records), vy(records, 0.0), vz(records);
  for (std::size_t n = 0; n < records; ++n) {
    const double t = static_cast<double>(n) / 32000.0;
    const double p =
        n == 0 ? 0.0 : 3.0 * std::sin(2 * 3.14159265358979 * 600.0 * t) * std::exp(-200.0 * t);
    rho[n] = rho0 + p / (c0 * c0);
    vx[n] = -p * u[0] / (rho0 * c0);
    vz[n] = -p * u[2] / (rho0 * c0);
  }
  Receivers receivers({{0.1, 0.1, 0.1}, {0.1, 0.1, 0.1}}, s.fluid.kernel, 0.01, 1e-6, {0, 1});
  ASSERT_FALSE(receivers.ambisonic(0));
  ASSERT_TRUE(receivers.ambisonic(1));
  receivers.restore({rho, rho}, {{}, {}, {}, vx, vy, vz});
  const auto outs = write_receiver_wavs(s, receivers, dir.string());
  const auto amb = write_ambisonic_wavs(s, receivers, outs, dir.string());
  ASSERT_EQ(amb.size(), 1u);
  EXPECT_EQ(amb[0].wav, "a.amb.wav");

  int rate = 0;
  const auto raw = read_channels((dir / "a.amb.raw.wav").string(), rate);
  const auto omni = read_channels((dir / "o.raw.wav").string(), rate);
  ASSERT_EQ(raw.size(), 4u);
  ASSERT_EQ(omni.size(), 1u);
  ASSERT_EQ(raw[0].size(), 60u);
  double peak = 0.0;  // X Y Z to the round-off of rho - rho_ref (p' / (c0^2 rho0) ~ 2e-5)
  for (std::size_t i = 0; i < raw[0].size(); ++i) {
    EXPECT_EQ(raw[0][i], omni[0][i]) << i;  // W: bit for bit
    const double w = amb[0].channels[0][i];
    peak = std::max(peak, std::abs(w));
    EXPECT_NEAR(amb[0].channels[3][i], u[0] * w, 1e-9) << i;  // X
    EXPECT_NEAR(amb[0].channels[1][i], u[1] * w, 1e-9) << i;  // Y
    EXPECT_NEAR(amb[0].channels[2][i], u[2] * w, 1e-9) << i;  // Z
  }
  EXPECT_GT(peak, 0.1);  // the wave reached the output

  SF_INFO info{};
  SNDFILE* f = sf_open((dir / "a.amb.wav").string().c_str(), SFM_READ, &info);
  ASSERT_NE(f, nullptr);
  const char* comment = sf_get_string(f, SF_STR_COMMENT);
  ASSERT_NE(comment, nullptr);
  EXPECT_NE(std::string(comment).find("ACN (W Y Z X)"), std::string::npos) << comment;
  EXPECT_NE(std::string(comment).find("SN3D"), std::string::npos) << comment;
  sf_close(f);
  // One gain: W (the largest channel) reaches full scale, Z keeps its ratio 0.8.
  const auto pcm = read_channels((dir / "a.amb.wav").string(), rate);
  double peak_w = 0.0, peak_z = 0.0;
  for (float v : pcm[0]) peak_w = std::max(peak_w, std::abs(static_cast<double>(v)));
  for (float v : pcm[2]) peak_z = std::max(peak_z, std::abs(static_cast<double>(v)));
  EXPECT_NEAR(peak_w, 1.0, 2e-4);
  EXPECT_NEAR(peak_z / peak_w, 0.8, 2e-3);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sphreverb
