// The assembly (assembly.hpp): each part's parameters carry the scene's keys and derived
// quantities, exactly; the walls come in the documented order with the documented materials.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/solver/assembly.hpp"

namespace sphreverb {
namespace {

// A 0.3 x 0.18 x 0.15 m box at 1.5 cm, a soft spring-damper material, a plate and two receivers.
std::string box_scene() {
  return R"(
[time]
sample_rate = 44100
duration = 0.002
[fluid]
spacing = 0.015
[room]
min = 0 0 0
max = 0.3 0.18 0.15
[material.soft]
stiffness = 2e9
damping = 100
[boundary.plate]
shape = rectangle
center = 0.2 0.09 0.075
normal = 2 0 0
size = 0.1 0.06
[emitter]
input = impulse
center = 0.0675 0.09 0.075
radius = 0.03
deflection = 1e-5
drive = velocity
highpass = 30
[receiver.mid]
position = 0.151 0.1 0.07
[receiver.far]
position = 0.27 0.05 0.12
)";
}

TEST(Assembly, EosOfTheFluidKeys) {
  FluidSpec f;
  f.eos = EosKind::IdealGasAdiabatic, f.rest_density = 1.2, f.sound_speed = 340.0, f.gamma = 1.3;
  const Eos eos = make_eos(f);
  // Zero gauge pressure at the rest density, the sound speed there, and the adiabatic law with
  // p0 = rho0 c^2 / gamma: p(1.01 rho0) = p0 (1.01^gamma - 1).
  EXPECT_EQ(eos.pressure(1.2), 0.0);
  EXPECT_DOUBLE_EQ(eos.sound_speed(1.2), 340.0);
  const double p0 = 1.2 * 340.0 * 340.0 / 1.3;
  EXPECT_NEAR(eos.pressure(1.01 * 1.2), p0 * (std::pow(1.01, 1.3) - 1.0), 1e-12 * p0);
  f.eos = EosKind::Linear;
  EXPECT_NEAR(make_eos(f).pressure(1.01 * 1.2), 340.0 * 340.0 * 0.012, 1e-9);
}

TEST(Assembly, PairPhysicsCarriesTheDerivedQuantities) {
  const Scene s = parse_scene(box_scene(), "box.ini",
                              {{"fluid.viscosity", "0.02"}, {"fluid.density_diffusion", "0.1"}});
  const PairPhysics p = make_pair_physics(s);
  const double dx = 0.015;
  EXPECT_EQ(p.kernel, s.fluid.kernel);
  EXPECT_DOUBLE_EQ(p.h, s.fluid.h_over_dx * dx);
  EXPECT_DOUBLE_EQ(p.mass, s.fluid.rest_density * dx * dx * dx);
  EXPECT_EQ(p.viscosity, 0.02);
  EXPECT_EQ(p.density_diffusion, 0.1);
  // The hyperdiffusion coefficient eps c dx^3 (interactions.hpp), in m^4/s.
  EXPECT_DOUBLE_EQ(p.hyperdiffusion, s.fluid.hyperdiffusion * s.fluid.sound_speed * dx * dx * dx);
  EXPECT_EQ(p.hyperviscosity, 0.0);  // off by default
  EXPECT_EQ(p.rest_density, s.fluid.rest_density);
  const LatticeGradient g =
      lattice_gradient(s.fluid.gradient_correction, s.fluid.kernel, s.fluid.h_over_dx, dx);
  EXPECT_EQ(p.gradient.a, g.a);
  EXPECT_EQ(p.gradient.b, g.b);
  EXPECT_EQ(p.eos.pressure(s.fluid.rest_density), 0.0);
  EXPECT_EQ(p.eos.c0, s.fluid.sound_speed);
}

TEST(Assembly, LatticeFillsTheBoxWithSitesHalfASpacingFromTheFaces) {
  const Scene s = parse_scene(box_scene(), "box.ini");
  const Lattice l = make_lattice(s);
  EXPECT_EQ(l.dx, 0.015);
  EXPECT_EQ(l.n[0], 20);
  EXPECT_EQ(l.n[1], 12);
  EXPECT_EQ(l.n[2], 10);
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(l.plane(a, 0), 0.0075, 1e-15) << "axis " << a;
    EXPECT_NEAR(l.plane(a, l.n[a] - 1), s.room.max[a] - 0.0075, 1e-15) << "axis " << a;
  }
}

TEST(Assembly, ForceWallsInFaceOrderThenObjectsThenTheEmitter) {
  const Scene s = parse_scene(box_scene(), "box.ini",
                              {{"room.material", "soft"}, {"room.material_z_max", "rigid"}});
  ASSERT_FALSE(s.derived.mirror_room);
  const std::vector<Wall> walls = make_walls(s);
  ASSERT_EQ(walls.size(), 6u + 1u + 1u);
  const Vec3 lo = s.room.min, hi = s.room.max;
  for (int face = 0; face < 6; ++face) {
    const int axis = face / 2, side = face % 2;
    const Wall& w = walls[face];
    EXPECT_FALSE(w.moving);
    EXPECT_EQ(w.shape.shape, ShapeKind::Rectangle);
    // On the face, normal into the room, spanning the box along the two other axes.
    EXPECT_EQ(w.shape.center[axis], side == 0 ? lo[axis] : hi[axis]) << "face " << face;
    EXPECT_EQ(w.shape.normal[axis], side == 0 ? 1.0 : -1.0) << "face " << face;
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    EXPECT_DOUBLE_EQ(w.shape.width * w.shape.height, (hi[a1] - lo[a1]) * (hi[a2] - lo[a2]));
    const Vec3 corner =
        w.shape.center + 0.499 * w.shape.width * w.shape.u + 0.499 * w.shape.height * w.shape.v;
    EXPECT_TRUE(w.shape.probe(corner).in_extent) << "face " << face;
    // z_max is rigid: the stiffness derived from the resolution, no damping.
    EXPECT_EQ(w.stiffness, face == 5 ? s.derived.rigid_stiffness : 2e9) << "face " << face;
    EXPECT_EQ(w.damping, face == 5 ? 0.0 : 100.0) << "face " << face;
  }
  const Wall& plate = walls[6];
  EXPECT_FALSE(plate.moving);
  EXPECT_EQ(plate.shape.normal, (Vec3{1, 0, 0}));  // normalised
  EXPECT_EQ(plate.shape.width, 0.1);
  EXPECT_EQ(plate.shape.height, 0.06);
  EXPECT_EQ(plate.stiffness, s.derived.rigid_stiffness);
  const Wall& disc = walls.back();
  EXPECT_TRUE(disc.moving);
  EXPECT_EQ(disc.shape.shape, ShapeKind::Disc);
  EXPECT_EQ(disc.shape.center, s.emitter.center);
  EXPECT_EQ(disc.shape.radius, 0.03);
}

TEST(Assembly, MirrorRoomHasNoFaceWallsButMirrorWalls) {
  const Scene s = parse_scene(box_scene(), "box.ini");
  ASSERT_TRUE(s.derived.mirror_room);
  const std::vector<Wall> walls = make_walls(s);
  ASSERT_EQ(walls.size(), 2u);  // the plate and the emitter
  EXPECT_EQ(walls[0].shape.center, s.boundaries[0].center);
  EXPECT_TRUE(walls[1].moving);
  EXPECT_TRUE(make_mirror_walls(s, make_lattice(s)).enabled());
  const Scene forced = parse_scene(box_scene(), "box.ini", {{"room.walls", "tethered"}});
  EXPECT_FALSE(make_mirror_walls(forced, make_lattice(forced)).enabled());
}

TEST(Assembly, DriveAtTheRunsTimeStepAndReceiversInFileOrder) {
  const Scene s = parse_scene(box_scene(), "box.ini");
  const DriveParams d = make_drive_params(s);
  EXPECT_EQ(d.drive, Drive::Velocity);
  EXPECT_EQ(d.deflection, 1e-5);
  EXPECT_EQ(d.highpass, 30.0);
  EXPECT_DOUBLE_EQ(d.dt, 1.0 / (44100.0 * s.derived.substeps));
  const Receivers r = make_receivers(s);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r.position(0), (Vec3{0.151, 0.1, 0.07}));
  EXPECT_EQ(r.position(1), (Vec3{0.27, 0.05, 0.12}));
}

}  // namespace
}  // namespace sphreverb
