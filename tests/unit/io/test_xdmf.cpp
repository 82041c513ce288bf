// XDMF sidecars: the particle grid alone, the spatial collection with the marker grids, a
// temporal collection over files of both kinds; and where scene_markers puts the sources,
// receivers and moving objects.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/io/markers.hpp"
#include "sphreverb/io/xdmf.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

XdmfGrid particles() {
  XdmfGrid g;
  g.h5_file = "step_000000004.h5";
  g.points = 5;
  g.time = 0.25;
  g.geometry = "/particles/position";
  g.connectivity = "/particles/index";
  g.arrays.push_back({"rank", "/particles/rank", 1, true, 4});
  return g;
}

const std::string kParticles =
    "<Grid Name=\"particles\" GridType=\"Uniform\">\n"
    "% <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"5\" NodesPerElement=\"1\">\n"
    "%  <DataItem Dimensions=\"5\" NumberType=\"Int\" Precision=\"8\" "
    "Format=\"HDF\">step_000000004.h5:/particles/index</DataItem>\n"
    "% </Topology>\n"
    "% <Geometry GeometryType=\"XYZ\">\n"
    "%  <DataItem Dimensions=\"5 3\" NumberType=\"Float\" Precision=\"8\" "
    "Format=\"HDF\">step_000000004.h5:/particles/position</DataItem>\n"
    "% </Geometry>\n"
    "% <Attribute Name=\"rank\" AttributeType=\"Scalar\" Center=\"Node\">\n"
    "%  <DataItem Dimensions=\"5\" NumberType=\"Int\" Precision=\"4\" "
    "Format=\"HDF\">step_000000004.h5:/particles/rank</DataItem>\n"
    "% </Attribute>\n"
    "%</Grid>\n";

// kParticles with each % replaced by `indent`, after a first line indented by it.
std::string particle_lines(const std::string& indent, const std::string& time_line) {
  std::string s = indent;
  const std::string first_end = ">\n";
  for (char c : kParticles) s += c == '%' ? indent : std::string(1, c);
  const auto at = s.find(first_end) + first_end.size();
  return s.insert(at, time_line);
}

SceneMarkers two_receivers_and_a_plate() {
  SceneMarkers m;
  m.sources = {"car"};
  m.source_position = {0.1, 0.2, 0.3};
  m.receivers = {"mid", "walker"};
  m.receiver_position = {1, 2, 3, 4, 5, 6};
  m.emitter = {0.0075, 0.09, 0.075};
  m.objects.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  m.objects.triangles = {{0, 1, 2}, {1, 3, 2}};
  m.objects.surface = {0, 0};
  m.objects.surface_names = {"plate"};
  return m;
}

TEST(Xdmf, ParticleGridAloneWithoutMarkers) {
  EXPECT_EQ(xdmf_grid_xml(particles()), particle_lines("  ", "   <Time Value=\"0.25\"/>\n"));
}

TEST(Xdmf, SpatialCollectionHoldsTheParticlesAndTheMarkers) {
  XdmfGrid g = particles();
  g.markers = xdmf_markers(two_receivers_and_a_plate());
  const std::string h5 = "Format=\"HDF\">step_000000004.h5:";
  const std::string want =
      "  <Grid Name=\"step\" GridType=\"Collection\" CollectionType=\"Spatial\">\n"
      "   <Time Value=\"0.25\"/>\n" +
      particle_lines("   ", "") +
      "   <Grid Name=\"sources\" GridType=\"Uniform\">\n"
      "    <Information Name=\"names\" Value=\"0=car\"/>\n"
      "    <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"1\" NodesPerElement=\"1\">\n"
      "     <DataItem Dimensions=\"1\" NumberType=\"Int\" Precision=\"8\" "
      "Format=\"XML\">0</DataItem>\n"
      "    </Topology>\n"
      "    <Geometry GeometryType=\"XYZ\">\n"
      "     <DataItem Dimensions=\"1 3\" NumberType=\"Float\" Precision=\"8\" " +
      h5 + "/sources/position</DataItem>\n" +
      "    </Geometry>\n"
      "    <Attribute Name=\"source\" AttributeType=\"Scalar\" Center=\"Node\">\n"
      "     <DataItem Dimensions=\"1\" NumberType=\"Int\" Precision=\"4\" "
      "Format=\"XML\">0</DataItem>\n"
      "    </Attribute>\n"
      "   </Grid>\n"
      "   <Grid Name=\"receivers\" GridType=\"Uniform\">\n"
      "    <Information Name=\"names\" Value=\"0=mid 1=walker\"/>\n"
      "    <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"2\" NodesPerElement=\"1\">\n"
      "     <DataItem Dimensions=\"2\" NumberType=\"Int\" Precision=\"8\" "
      "Format=\"XML\">0 1</DataItem>\n"
      "    </Topology>\n"
      "    <Geometry GeometryType=\"XYZ\">\n"
      "     <DataItem Dimensions=\"2 3\" NumberType=\"Float\" Precision=\"8\" " +
      h5 + "/receivers/position</DataItem>\n" +
      "    </Geometry>\n"
      "    <Attribute Name=\"receiver\" AttributeType=\"Scalar\" Center=\"Node\">\n"
      "     <DataItem Dimensions=\"2\" NumberType=\"Int\" Precision=\"4\" "
      "Format=\"XML\">0 1</DataItem>\n"
      "    </Attribute>\n"
      "   </Grid>\n"
      "   <Grid Name=\"emitter\" GridType=\"Uniform\">\n"
      "    <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"1\" NodesPerElement=\"1\">\n"
      "     <DataItem Dimensions=\"1\" NumberType=\"Int\" Precision=\"8\" "
      "Format=\"XML\">0</DataItem>\n"
      "    </Topology>\n"
      "    <Geometry GeometryType=\"XYZ\">\n"
      "     <DataItem Dimensions=\"1 3\" NumberType=\"Float\" Precision=\"8\" " +
      h5 + "/emitter/position</DataItem>\n" +
      "    </Geometry>\n"
      "   </Grid>\n"
      "   <Grid Name=\"objects\" GridType=\"Uniform\">\n"
      "    <Information Name=\"names\" Value=\"0=plate\"/>\n"
      "    <Topology TopologyType=\"Triangle\" NumberOfElements=\"2\">\n"
      "     <DataItem Dimensions=\"2 3\" NumberType=\"Int\" Precision=\"8\" " +
      h5 + "/objects/triangles</DataItem>\n" +
      "    </Topology>\n"
      "    <Geometry GeometryType=\"XYZ\">\n"
      "     <DataItem Dimensions=\"4 3\" NumberType=\"Float\" Precision=\"8\" " +
      h5 + "/objects/vertices</DataItem>\n" +
      "    </Geometry>\n"
      "    <Attribute Name=\"object\" AttributeType=\"Scalar\" Center=\"Cell\">\n"
      "     <DataItem Dimensions=\"2\" NumberType=\"Int\" Precision=\"4\" " +
      h5 + "/objects/object</DataItem>\n" +
      "    </Attribute>\n"
      "   </Grid>\n"
      "  </Grid>\n";
  EXPECT_EQ(xdmf_grid_xml(g), want);
}

TEST(Xdmf, EmptyMarkerSetsAreLeftOut) {
  XdmfGrid g = particles();
  SceneMarkers m = two_receivers_and_a_plate();
  m.sources.clear(), m.source_position.clear(), m.objects = Mesh{};
  g.markers = xdmf_markers(m);
  const std::string x = xdmf_grid_xml(g);
  EXPECT_EQ(x.find("Name=\"sources\""), std::string::npos);
  EXPECT_EQ(x.find("Name=\"objects\""), std::string::npos);
  EXPECT_NE(x.find("   <Grid Name=\"receivers\""), std::string::npos);
  EXPECT_NE(x.find("   <Grid Name=\"emitter\""), std::string::npos);
}

TEST(Xdmf, TemporalCollectionTakesEachFilesWholeGrid) {
  const fs::path dir = fs::temp_directory_path() / ("sphreverb_xdmf_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  XdmfGrid a = particles(), b = particles();
  b.time = 0.5;
  b.markers = xdmf_markers(two_receivers_and_a_plate());
  write_xdmf((dir / "step_1.xmf").string(), a);
  write_xdmf((dir / "step_2.xmf").string(), b);
  write_xdmf_collection(dir.string(), "step_", "all.xmf");
  std::ifstream in(dir / "all.xmf");
  std::stringstream text;
  text << in.rdbuf();
  fs::remove_all(dir);
  EXPECT_EQ(text.str(),
            "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
            "<Xdmf Version=\"3.0\">\n <Domain>\n"
            "  <Grid Name=\"run\" GridType=\"Collection\" CollectionType=\"Temporal\">\n" +
                xdmf_grid_xml(a) + xdmf_grid_xml(b) + "  </Grid>\n </Domain>\n</Xdmf>\n");
}

// A receiver and a source on linear paths and a rectangle moving along one (passing under the
// fixed receiver, more than dx/2 below it), at t = 1 ms (a quarter of the way) and after the
// paths' ends.
const std::string kMoving = R"(
[time]
sample_rate = 44100
duration = 0.004
[fluid]
spacing = 0.015
[room]
min = 0 0 0
max = 0.3 0.18 0.15
[emitter]
input = impulse
center = 0.0075 0.09 0.075
radius = 0.03
[emitter.car]
path = 0 0.06 0.08 0.08; 0.004 0.10 0.12 0.08
[receiver.mid]
position = 0.151 0.1 0.12
[receiver.walker]
path = 0 0.24 0.06 0.09; 0.004 0.20 0.06 0.09
[boundary.still]
shape = rectangle
center = 0.2 0.05 0.05
normal = 0 0 1
size = 0.02 0.02
[boundary.plate]
shape = rectangle
normal = 1 0 0
size = 0.06 0.04
path = 0 0.135 0.09 0.075; 0.004 0.175 0.11 0.075
)";

TEST(Xdmf, SceneMarkersFollowThePaths) {
  const Scene s = parse_scene(kMoving, "moving.ini");
  const SceneMarkers m = scene_markers(s, 0.001);
  EXPECT_EQ(m.sources, std::vector<std::string>({"car"}));
  EXPECT_EQ(m.receivers, std::vector<std::string>({"mid", "walker"}));
  const std::vector<double> car = {0.06 + 0.25 * 0.04, 0.08 + 0.25 * 0.04, 0.08};
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(m.source_position[a], car[a], 1e-15) << a;
  const std::vector<double> rec = {0.151, 0.1, 0.12, 0.24 - 0.25 * 0.04, 0.06, 0.09};
  for (int a = 0; a < 6; ++a) EXPECT_NEAR(m.receiver_position[a], rec[a], 1e-15) << a;
  EXPECT_EQ(m.emitter, std::vector<double>({0.0075, 0.09, 0.075}));
  // Only the moving object: its rectangle (4 corners, 2 triangles) moved by (0.01, 0.005, 0).
  EXPECT_EQ(m.objects.surface_names, std::vector<std::string>({"plate"}));
  ASSERT_EQ(m.objects.vertices.size(), 4u);
  EXPECT_EQ(m.objects.triangles.size(), 2u);
  EXPECT_EQ(m.objects.surface, std::vector<std::size_t>({0, 0}));
  const SceneMarkers rest = scene_markers(s, 0.0);
  for (std::size_t v = 0; v < 4; ++v) {
    const Vec3 d = m.objects.vertices[v] - rest.objects.vertices[v];
    EXPECT_NEAR(d.x, 0.01, 1e-15);
    EXPECT_NEAR(d.y, 0.005, 1e-15);
    EXPECT_NEAR(d.z, 0.0, 1e-15);
    EXPECT_NEAR(rest.objects.vertices[v].x, 0.135, 1e-15);
    EXPECT_NEAR(std::abs(rest.objects.vertices[v].y - 0.09), 0.03, 1e-15);
    EXPECT_NEAR(std::abs(rest.objects.vertices[v].z - 0.075), 0.02, 1e-15);
  }
  const SceneMarkers end = scene_markers(s, 0.01);  // rests at the last keyframe
  EXPECT_EQ(std::vector<double>(end.source_position.begin(), end.source_position.end()),
            std::vector<double>({0.10, 0.12, 0.08}));
  EXPECT_EQ(end.receiver_position[3], 0.20);
}

}  // namespace
}  // namespace sphreverb
