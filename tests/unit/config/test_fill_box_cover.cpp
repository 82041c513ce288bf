// The fill box's faces closed by walls: a tube of [boundary] rectangles whose floor is written
// with W and H swapped (size = 1.2 0.12 where the tube runs along x, so W runs across it) leaves
// most of the floor's air facing nothing, and the scene is refused naming the face and the
// share left open; written the right way round it is accepted.
#include <gtest/gtest.h>

#include <string>

#include "sphreverb/config/scene.hpp"

namespace sphreverb {
namespace {

std::string tube(const std::string& floor_size) {
  return "[time]\nsample_rate = 44100\nduration = 0.01\n"
         "[fluid]\nspacing = 0.01\nfill_min = 0 0 0\nfill_max = 1.2 0.12 0.12\n"
         "[boundary.end]\nshape = rectangle\ncenter = 0 0.06 0.06\nnormal = 1 0 0\n"
         "size = 0.12 0.12\n"
         "[boundary.far]\nshape = rectangle\ncenter = 1.2 0.06 0.06\nnormal = -1 0 0\n"
         "size = 0.12 0.12\n"
         "[boundary.floor]\nshape = rectangle\ncenter = 0.6 0.06 0\nnormal = 0 0 1\nsize = " +
         floor_size +
         "\n"
         "[boundary.ceiling]\nshape = rectangle\ncenter = 0.6 0.06 0.12\nnormal = 0 0 -1\n"
         "size = 0.12 1.2\n"
         "[boundary.left]\nshape = rectangle\ncenter = 0.6 0 0.06\nnormal = 0 1 0\n"
         "size = 1.2 0.12\n"
         "[boundary.right]\nshape = rectangle\ncenter = 0.6 0.12 0.06\nnormal = 0 -1 0\n"
         "size = 1.2 0.12\n"
         "[emitter]\ninput = impulse\ncenter = 0.005 0.06 0.06\nnormal = 1 0 0\nradius = 0.05\n"
         "[receiver.a]\nposition = 0.6 0.06 0.06\n";
}

TEST(FillBoxCover, SwappedFloorLeavesTheAirOpen) {
  EXPECT_NO_THROW(parse_scene(tube("0.12 1.2"), "tube.ini"));
  try {
    parse_scene(tube("1.2 0.12"), "tube.ini");
    FAIL() << "a floor covering a tenth of the tube was accepted";
  } catch (const SceneError& e) {
    const std::string m = e.what();
    // 1440 points (120 x 12) at z = 5 mm: the side walls reach the two outer rows, the ends the
    // two outer columns, the floor (x 0.54 ... 0.66 m, and 8.7 mm beyond) 14 columns: 10 x 104
    // are open.
    EXPECT_NE(m.find("tube.ini:"), std::string::npos) << m;
    EXPECT_NE(m.find("[fluid] fill_min"), std::string::npos) << m;
    EXPECT_NE(m.find("the fill box's face z_min (z = 0 m): 72.2 % of it (1040 of 1440 points"),
              std::string::npos)
        << m;
  }
}

TEST(FillBoxCover, FillBoxShortOfTheRoomNeedsAWall) {
  // A [room] closes its own fill box; a fill box ending short of the room at x = 0.5 m is closed
  // by a plate there, and refused without one.
  const auto room = [](const std::string& fill, const std::string& more) {
    return "[fluid]\nspacing = 0.02\n" + fill + "[room]\nmin = 0 0 0\nmax = 0.6 0.4 0.4\n" + more +
           "[emitter]\ninput = impulse\ncenter = 0.01 0.2 0.2\nradius = 0.03\n"
           "[receiver.a]\nposition = 0.3 0.2 0.2\n";
  };
  const std::string fill = "fill_min = 0 0 0\nfill_max = 0.5 0.4 0.4\n";
  const std::string plate =
      "[boundary.wall]\nshape = rectangle\ncenter = 0.5 0.2 0.2\nnormal = -1 0 0\nsize = 0.4 0.4\n";
  EXPECT_NO_THROW(parse_scene(room("", ""), "room.ini"));
  EXPECT_NO_THROW(parse_scene(room(fill, plate), "room.ini"));
  try {
    parse_scene(room(fill, ""), "room.ini");
    FAIL() << "a fill box ending short of the room with no wall was accepted";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("[fluid] fill_max"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("face x_max (x = 0.5 m): 81 % of it (324 of 400"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sphreverb
