// The [emitter] disc: optional beside [emitter.NAME] monopoles, accepted at dx/2 from a face
// whatever the decimal rounding, and placed at dx/2 from the wall it is meant for when it lies
// closer (a [room] face, a [boundary] plate, a rotated mesh face), with a note saying so.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "sphreverb/solver/assembly.hpp"

namespace sphreverb {
namespace {

const std::string kPath = std::string(SPHREVERB_SOURCE_DIR) + "/tests/validation/scene.ini";

// A 1.2 x 1.2 x 0.6 m rigid room at 3 cm.
std::string room(const std::string& emitter, const std::string& more = "") {
  return "[time]\nsample_rate = 44100\nduration = 0.01\n[fluid]\nspacing = 0.03\n"
         "[room]\nmin = 0 0 0\nmax = 1.2 1.2 0.6\n" +
         more + emitter + "[receiver.a]\nposition = 0.6 0.6 0.3\n";
}

std::string error_of(const std::string& text) {
  try {
    parse_scene(text, kPath);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(EmitterPlacement, DiscAtHalfASpacingIsAcceptedOnEveryFace) {
  // 1.2 - 1.185 is 0.014999999999999902 in binary, 0.015 - 0 is 0.015: both are dx/2.
  for (const char* disc :
       {"center = 0.9 1.185 0.3\nnormal = 0 -1 0\n", "center = 0.015 0.45 0.3\nnormal = 1 0 0\n",
        "center = 0.6 0.6 0.585\nnormal = 0 0 -1\n"}) {
    const Scene s =
        parse_scene(room(std::string("[emitter]\ninput = impulse\nradius = 0.05\n") + disc), kPath);
    EXPECT_TRUE(s.notes.empty()) << disc;  // not moved: it is where it was written
  }
}

TEST(EmitterPlacement, DiscCloserThanHalfASpacingIsPlacedOnItsWall) {
  // Written for 1 cm (0.5 cm from the face), run at 3 cm: put at 1.5 cm, with a note.
  const Scene s = parse_scene(
      room("[emitter]\ninput = impulse\ncenter = 0.005 0.45 0.3\nnormal = 1 0 0\nradius = 0.05\n"),
      kPath);
  EXPECT_DOUBLE_EQ(s.emitter.center.x, 0.015);
  EXPECT_DOUBLE_EQ(s.emitter.center.y, 0.45);
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("[emitter] center = 0.005 0.45 0.3 lies 0.005 m from [room] x_min, "
                            "closer than dx/2 = 0.015 m: placed at 0.015 0.45 0.3"),
            std::string::npos)
      << s.notes[0];
  // On a plate lying in the air: moved to its side of the plate.
  const std::string plate =
      "[boundary.baffle]\nshape = rectangle\ncenter = 0.6 0.9 0.3\nnormal = 0 -1 0\n"
      "size = 0.4 0.4\nwall = tethered\n";
  const Scene p = parse_scene(room("[emitter]\ninput = impulse\ncenter = 0.6 0.895 0.3\n"
                                   "normal = 0 -1 0\nradius = 0.05\n",
                                   plate),
                              kPath);
  EXPECT_NEAR(p.emitter.center.y, 0.885, 1e-15);
  EXPECT_EQ(p.notes.size(), 1u);
  // Facing the face (its normal out of the room) is no disc on that wall: refused as before.
  EXPECT_NE(error_of(room("[emitter]\ninput = impulse\ncenter = 0.005 0.45 0.3\nnormal = -1 0 0\n"
                          "radius = 0.05\n"))
                .find("must lie in the air"),
            std::string::npos);
}

TEST(EmitterPlacement, DiscOnARotatedMeshFace) {
  // The V10 box turned 30 degrees about z as the room; the disc 0.00749962 m in front of its
  // x- face (dx/2 = 0.0075 at 1.5 cm) was refused; it is placed at dx/2.
  const double c = std::cos(std::numbers::pi / 6), s = std::sin(std::numbers::pi / 6);
  const Vec3 n{c, s, 0.0};
  const Vec3 face{0.25 - 0.15 * c, 0.25 - 0.15 * s, 0.25};
  const Vec3 x = face + n * 0.00749962;
  char disc[200];
  std::snprintf(disc, sizeof disc, "center = %.17g %.17g %.17g\nnormal = %.17g %.17g 0\n", x.x, x.y,
                x.z, n.x, n.y);
  const std::string text =
      "[fluid]\nspacing = 0.015\n[geometry.box]\nmesh = meshes/box_v10.obj\nrole = room\n"
      "material = rigid\nrotation = 0 0 30\ntranslation = 0.25 0.25 0.25\n"
      "[emitter]\ninput = impulse\nradius = 0.02\n" +
      std::string(disc) + "[receiver.mic]\nposition = 0.25 0.25 0.25\n";
  const Scene sc = parse_scene(text, kPath);
  ASSERT_EQ(sc.notes.size(), 1u);
  EXPECT_NE(sc.notes[0].find("from a face of [geometry.box]"), std::string::npos) << sc.notes[0];
  const double d = MeshQuery(*sc.geometries[0].mesh).closest(sc.emitter.center).distance;
  EXPECT_NEAR(d, 0.0075, 1e-9);
}

TEST(EmitterPlacement, ScenesOfMonopolesNeedNoDisc) {
  const Scene s = parse_scene(
      room("[emitter.talker]\ntype = monopole\ninput = impulse\nposition = 0.4 0.4 0.3\n"), kPath);
  EXPECT_FALSE(s.emitter.present);
  EXPECT_EQ(s.emitter.gain, 0.0);
  ASSERT_EQ(s.sources.size(), 1u);
  // No disc particles: no moving wall, nothing tethered to it.
  for (const Wall& w : make_walls(s)) EXPECT_FALSE(w.moving);
  EXPECT_EQ(s.derived.emitter_face, -1);
  // Neither a disc nor a monopole: an error naming both.
  const std::string e = error_of(room(""));
  EXPECT_NE(e.find("no [emitter] section"), std::string::npos) << e;
  EXPECT_NE(e.find("[emitter.NAME]"), std::string::npos) << e;
}

}  // namespace
}  // namespace sphreverb
