// V20 (docs/validation.md): polyhedral image sources (geometric/polyhedral_images.hpp). A box
// given as a mesh turned off the axes has the [room] box's images; in a non-convex L room the
// pruned enumeration finds exactly the images a brute-force enumeration validates; a table in a
// box reflects at its image delay; the phased sum of polyhedral images equals the box's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/geometric/phased_images.hpp"
#include "sphreverb/geometric/polyhedral_images.hpp"
#include "sphreverb/geometric/ray_tracer.hpp"
#include "sphreverb/geometric/response.hpp"
#include "sphreverb/geometric/surfaces.hpp"
#include "sphreverb/geometric/wall_reflection.hpp"
#include "sphreverb/model/mesh_io.hpp"
#include "sphreverb/model/shape_mesh.hpp"
#include "sphreverb/solver/hybrid_assembly.hpp"

namespace sphreverb {
namespace {

constexpr double kRate = 44100.0;

// The box's six faces' factors: a different reflection factor per face, impedances on two.
std::array<FaceFactors, 6> box_factors() {
  std::array<FaceFactors, 6> f;
  for (int k = 0; k < 6; ++k)
    for (std::size_t b = 0; b < kGeoBandCount; ++b) {
      f[k].reflection[b] = 0.95 - 0.03 * k - 0.01 * static_cast<double>(b);
      if (k == 1 || k == 4) f[k].impedance[b] = 4.0 + 2.0 * static_cast<double>(b);
    }
  return f;
}

struct Turned {
  Rotation rot = Rotation::axis_angle_degrees({1.0, 2.0, 3.0}, 37.0);
  Vec3 shift{0.3, -0.2, 0.1};
  Vec3 operator()(const Vec3& x) const { return rot.apply(x) + shift; }
};

TEST(V20PolyhedralImages, ATurnedBoxMeshHasTheBoxImages) {
  const Vec3 lo{0.0, 0.0, 0.0}, hi{1.2, 0.9, 0.7};
  const Vec3 src{0.31, 0.62, 0.27}, rcv{0.83, 0.21, 0.49};
  const auto factors = box_factors();
  BoxImageParams box;
  box.lo = lo, box.hi = hi, box.source = src, box.receiver = rcv;
  for (int f = 0; f < 6; ++f) box.reflection[f] = factors[f].reflection;
  for (int f = 0; f < 6; ++f) box.impedance[f] = factors[f].impedance;
  for (std::size_t b = 0; b < kGeoBandCount; ++b) box.air[b] = 1e-3 * static_cast<double>(b);
  box.max_delay = 0.012;
  const int order = 4;
  std::vector<ImageSource> want;
  for (const ImageSource& im : box_image_sources(box))
    if (im.order <= order) want.push_back(im);

  // The same box as a mesh (box_mesh: surface f = face f), turned and moved.
  const Turned turn;
  Mesh mesh = box_mesh(lo, hi);
  for (Vec3& v : mesh.vertices) v = turn(v);
  const std::vector<PolyFace> faces = polygon_faces(mesh, std::vector<int>(12, -1));
  ASSERT_EQ(faces.size(), 6u);
  PolyImageParams p;
  p.source = turn(src), p.receiver = turn(rcv);
  for (const PolyFace& f : faces) p.factors.push_back(factors[f.surface]);
  p.air = box.air;
  p.max_delay = box.max_delay;
  p.max_order = order;
  const PolyhedralImages images(mesh, faces);
  std::size_t examined = 0;
  const std::vector<ImageSource> got = images.images(p, &examined);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_GT(want.size(), 100u);
  EXPECT_LT(static_cast<double>(examined), candidate_bound(6, order));
  double worst_samples = 0.0, worst_db = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    worst_samples = std::max(worst_samples, std::abs(got[i].delay - want[i].delay) * kRate);
    EXPECT_EQ(got[i].order, want[i].order) << i;
    for (std::size_t b = 0; b < kGeoBandCount; ++b)
      worst_db = std::max(worst_db,
                          std::abs(20.0 * std::log10(got[i].amplitude[b] / want[i].amplitude[b])));
    // The arrival direction turns with the box.
    const Vec3 u = turn.rot.apply(want[i].direction);
    EXPECT_LT(norm(got[i].direction - u), 1e-9) << i;
  }
  std::printf(
      "V20 turned box: %zu images to order %d, %zu candidates examined (unpruned %g); "
      "worst delay %.2e samples, worst level %.2e dB\n",
      got.size(), order, examined, candidate_bound(6, order), worst_samples, worst_db);
  EXPECT_LT(worst_samples, 0.1);
  EXPECT_LT(worst_db, 0.05);

  // The phased sum of the polyhedral images equals the box's within round-off.
  const auto a = phased_image_response(want, box, kRate, 1024, false, 0.0);
  const auto b =
      phased_image_response(got, p.factors, p.air, p.sound_speed, kRate, 1024, false, 0.0);
  double peak = 0.0, diff = 0.0;
  for (std::size_t i = 0; i < a[0].size(); ++i) {
    peak = std::max(peak, std::abs(a[0][i]));
    diff = std::max(diff, std::abs(a[0][i] - b[0][i]));
  }
  std::printf("V20 turned box, phased: peak %.4e, largest difference %.2e\n", peak, diff);
  EXPECT_LT(diff, 1e-6 * peak);
}

// A scene of the box [0, 0.6] x [0, 0.5] x [0, 0.4] m with a monopole, one receiver and [hybrid]
// (no rays, phased images to 4 ms): as a [room] box (room = true) or as a room mesh turned by
// the Euler angles 10 20 30 degrees and moved by (1, 1, 1) (written to `obj`).
std::string box_room_scene(bool room, const std::string& obj, const Vec3& src, const Vec3& rcv,
                           const Vec3& disc) {
  const auto vec = [](const Vec3& v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.17g %.17g %.17g", v.x, v.y, v.z);
    return std::string(buf);
  };
  std::string text = R"(
[time]
sample_rate = 44100
duration = 0.005
[fluid]
spacing = 0.05
[material.soft]
absorption = 0.3
[material.hard]
absorption = 0.05
)";
  if (room)
    text += "[room]\nmin = 0 0 0\nmax = 0.6 0.5 0.4\nmaterial = soft\nmaterial_z_min = hard\n";
  else
    text += "[geometry.box]\nmesh = " + obj +
            "\nrole = room\nmaterial = soft\nmaterial.z_min = hard\nrotation = 10 20 30\n"
            "translation = 1 1 1\n";
  text += "[emitter]\ninput = impulse\ncenter = " + vec(disc) + "\nradius = 0.02\ngain = 0\n";
  text += "[emitter.talker]\ntype = monopole\nposition = " + vec(src) + "\nlevel = 0.01\n";
  text += "[receiver.a]\nposition = " + vec(rcv) + "\n";
  text += "[hybrid]\nrays = 0\nimage_time = 0.004\nimage_order = 20\n";
  return text;
}

TEST(V20PolyhedralImages, ATurnedBoxMeshRoomRespondsAsTheRoomBox) {
  // End to end through make_hybrid_plan and geometric_response: the phased images of the room
  // mesh (polyhedral, every order within 4 ms) against the [room] box's lattice.
  const std::string obj = ::testing::TempDir() + "v20_box.obj";
  {
    const Mesh m = box_mesh({0, 0, 0}, {0.6, 0.5, 0.4});
    std::FILE* f = std::fopen(obj.c_str(), "w");
    ASSERT_NE(f, nullptr);
    for (const Vec3& v : m.vertices) std::fprintf(f, "v %.17g %.17g %.17g\n", v.x, v.y, v.z);
    for (std::size_t t = 0; t < m.triangle_count(); ++t) {
      if (t % 2 == 0) std::fprintf(f, "usemtl %s\n", m.surface_names[m.surface[t]].c_str());
      std::fprintf(f, "f %zu %zu %zu\n", m.triangles[t][0] + 1, m.triangles[t][1] + 1,
                   m.triangles[t][2] + 1);
    }
    std::fclose(f);
  }
  const Rotation rot = Rotation::euler_xyz_degrees({10.0, 20.0, 30.0});
  const auto turn = [&](const Vec3& x) { return rot.apply(x) + Vec3{1.0, 1.0, 1.0}; };
  const Vec3 src{0.41, 0.13, 0.22}, rcv{0.17, 0.33, 0.29}, disc{0.3, 0.25, 0.2};
  const Scene box = parse_scene(box_room_scene(true, obj, src, rcv, disc), "box.ini");
  const Scene mesh =
      parse_scene(box_room_scene(false, obj, turn(src), turn(rcv), turn(disc)), "mesh.ini");
  const HybridPlan pb = make_hybrid_plan(box), pm = make_hybrid_plan(mesh);
  ASSERT_TRUE(pb.box_images);
  ASSERT_TRUE(pm.poly_images);
  EXPECT_EQ(pm.faces.size(), 6u);
  const GeometricResponse gb = geometric_response(pb, EnergyHistogram(), 0, false, 1);
  const GeometricResponse gm = geometric_response(pm, EnergyHistogram(), 0, false, 1);
  EXPECT_EQ(gm.images, gb.images);
  EXPECT_GT(gb.images, 50u);
  double peak = 0.0, diff = 0.0;
  for (std::size_t i = 0; i < gb.channels[0].size(); ++i) {
    peak = std::max(peak, std::abs(gb.channels[0][i]));
    diff = std::max(diff, std::abs(gb.channels[0][i] - gm.channels[0][i]));
  }
  std::printf(
      "V20 turned box room end to end: %zu / %zu images, peak %.4e, largest "
      "difference %.2e\n",
      gm.images, gb.images, peak, diff);
  EXPECT_GT(peak, 0.0);
  EXPECT_LT(diff, 1e-6 * peak);
}

TEST(V20PolyhedralImages, TheBoxPhasedSumIsTheGeneralSumOfItsFaces) {
  // phased_image_response(box) and the face-list form on the box's own images agree exactly.
  BoxImageParams box;
  box.lo = {0, 0, 0}, box.hi = {0.9, 0.7, 0.5};
  box.source = {0.2, 0.3, 0.1}, box.receiver = {0.6, 0.4, 0.35};
  const auto factors = box_factors();
  std::vector<FaceFactors> faces;
  for (int f = 0; f < 6; ++f) {
    box.reflection[f] = factors[f].reflection, box.impedance[f] = factors[f].impedance;
    faces.push_back(factors[f]);
  }
  box.max_delay = 0.01;
  const auto images = box_image_sources(box);
  const auto a = phased_image_response(images, box, kRate, 600, true, 5000.0);
  const auto b =
      phased_image_response(images, faces, box.air, box.sound_speed, kRate, 600, true, 5000.0);
  for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(a[c], b[c]) << c;
}

TEST(V20PolyhedralImages, RaysTakeThePathsBeyondTheImagesOrder) {
  // A specular box as a mesh (alpha 0.2, no scattering, no air), 15 ms: the rays counted only
  // beyond the images' order 2 (specular_order) carry the energy of all rays less that of the
  // images of order <= 2, within the rays' noise (no path counted twice, none left out).
  const Mesh mesh = box_mesh({0, 0, 0}, {1.0, 0.8, 0.6});
  GeoMaterial wall;
  wall.absorption.fill(0.2);
  wall.scattering = 0.0;
  const RayTracer tracer(mesh, std::vector<GeoMaterial>(6, wall));
  RayTraceParams all;
  all.source = {0.3, 0.25, 0.2};
  all.receivers = {{0.7, 0.5, 0.35}};
  all.receiver_radius = 0.1;
  all.rays = 40000;
  all.bins = 15;
  all.seed = 7;
  RayTraceParams beyond = all;
  beyond.specular_until = 1.0;  // the whole record
  beyond.specular_order = 2;
  const EnergyHistogram h_all = tracer.trace(all), h_beyond = tracer.trace(beyond);
  const std::size_t band = 3;
  double e_all = 0.0, e_beyond = 0.0;
  for (double e : h_all.series(0, band)) e_all += e;
  for (double e : h_beyond.series(0, band)) e_beyond += e;
  PolyImageParams p;
  p.source = all.source, p.receiver = all.receivers[0];
  const std::vector<PolyFace> faces = polygon_faces(mesh, std::vector<int>(12, -1));
  FaceFactors f;
  f.reflection.fill(std::sqrt(0.8));
  p.factors.assign(faces.size(), f);
  p.max_delay = 0.015;
  p.max_order = 2;
  double e_images = 0.0;
  const std::vector<ImageSource> images = PolyhedralImages(mesh, faces).images(p);
  for (const ImageSource& im : images) e_images += im.amplitude[band] * im.amplitude[band];
  std::printf(
      "V20 handoff: all rays %.4e, rays beyond order 2 %.4e + images of order <= 2 %.4e "
      "(%zu) = %.4e (%+.1f %%)\n",
      e_all, e_beyond, e_images, images.size(), e_beyond + e_images,
      100.0 * ((e_beyond + e_images) / e_all - 1.0));
  EXPECT_GT(e_images, 0.3 * e_all);  // the test can tell a path counted twice or left out
  EXPECT_GT(e_beyond, 0.1 * e_all);
  EXPECT_NEAR((e_beyond + e_images) / e_all, 1.0, 0.08);
}

// configs/meshes/l_room.obj: 1.40 x 1.10 x 0.90 m with a 0.60 x 0.55 m corner cut away.
Mesh l_room() {
  return load_mesh(std::string(SPHREVERB_SOURCE_DIR) + "/configs/meshes/l_room.obj");
}

TEST(V20PolyhedralImages, LRoomImagesEqualTheBruteForceOnes) {
  const Mesh m = l_room();
  const std::vector<PolyFace> faces = polygon_faces(m, std::vector<int>(m.triangle_count(), -1));
  EXPECT_EQ(faces.size(), 8u);  // floor, ceiling, six walls
  const PolyhedralImages images(m, faces);
  PolyImageParams p;
  p.factors.assign(faces.size(), FaceFactors{});
  for (auto& f : p.factors) f.reflection.fill(0.9);
  p.max_delay = 1.0;
  p.max_order = 3;
  // Source in one arm, receivers in the same arm and around the corner (out of sight).
  p.source = {1.2, 0.3, 0.45};
  for (const Vec3& rcv : {Vec3{0.6, 0.3, 0.45}, Vec3{0.4, 0.95, 0.45}}) {
    p.receiver = rcv;
    std::size_t examined = 0;
    const std::vector<ImageSource> got = images.images(p, &examined);
    const std::vector<ImageSource> all = images.brute_force(p);
    ASSERT_EQ(got.size(), all.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].delay, all[i].delay) << i;
      EXPECT_EQ(got[i].order, all[i].order) << i;
    }
    const bool sight = !got.empty() && got.front().order == 0;
    std::printf(
        "V20 L room, receiver %.2f %.2f: %zu images to order 3 (brute force %zu of %g "
        "sequences), %zu candidates examined, direct sound %s\n",
        rcv.x, rcv.y, got.size(), all.size(), candidate_bound(faces.size(), 3), examined,
        sight ? "seen" : "occluded");
    EXPECT_EQ(sight, rcv.y < 0.55);  // around the corner the direct path is blocked
    EXPECT_GT(got.size(), 10u);
  }
}

TEST(V20PolyhedralImages, ATableReflectsAtItsImageDelay) {
  // configs/furnished_room.ini's box with its table and pillar, a source and a receiver above
  // the table top (z = 0.5 m, spanning x 0.65-1.25, y 0.4-0.8): the top's reflection at the
  // delay of the source's image in it, within one sample, as a tap of the synthesised response.
  const std::string path = std::string(SPHREVERB_SOURCE_DIR) + "/configs/furnished_room.ini";
  const Scene s = load_scene(path, {{"hybrid.rays", "0"},
                                    {"hybrid.phased_images", "false"},
                                    {"hybrid.image_time", "0.01"},
                                    {"hybrid.image_order", "2"},
                                    {"time.duration", "0.012"},
                                    {"emitter.talker.position", "0.8 0.5 0.7"},
                                    {"receiver.seat.position", "1.1 0.7 0.65"}});
  const HybridPlan plan = make_hybrid_plan(s);
  ASSERT_TRUE(plan.poly_images);
  ASSERT_FALSE(plan.box_images);
  const Vec3 src{0.8, 0.5, 0.7}, rcv{1.1, 0.7, 0.65};
  std::size_t r = 0;
  while (s.receivers.at(r).name != "seat") ++r;
  const Vec3 image{src.x, src.y, 2.0 * 0.5 - src.z};
  const double c = s.fluid.sound_speed;
  const double delay = norm(image - rcv) / c;
  const PolyhedralImages poly(plan.surfaces, plan.faces);
  const std::vector<ImageSource> list = poly.images(plan.poly.at(r));
  const auto top = std::find_if(list.begin(), list.end(), [&](const ImageSource& im) {
    return im.order == 1 && std::abs(im.delay - delay) < 1e-12;
  });
  ASSERT_NE(top, list.end());
  EXPECT_NEAR(plan.faces[top->reflections[0].face].normal.z, 1.0, 1e-12);
  // The floor's image under the table top is occluded by it.
  const double floor_delay = norm(Vec3{src.x, src.y, -src.z} - rcv) / c;
  for (const ImageSource& im : list)
    if (im.order == 1) {
      EXPECT_GT(std::abs(im.delay - floor_delay), 1e-9);
    }
  const GeometricResponse g = geometric_response(plan, EnergyHistogram(), r, false, 1);
  const auto n = static_cast<std::size_t>(std::llround(delay * s.time.sample_rate));
  // The tap through the drive high-pass: the largest sample within one of n.
  double near = 0.0;
  for (std::size_t i = n - 1; i <= n + 1; ++i) near = std::max(near, std::abs(g.channels[0][i]));
  std::printf("V20 table: top reflection %.4f ms (sample %zu), amplitude %.4g there\n", 1e3 * delay,
              n, near);
  EXPECT_GT(near, 0.5 * top->amplitude[3]);
}

}  // namespace
}  // namespace sphreverb
