#include "sphreverb/solver/assembly.hpp"

#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "sphreverb/config/object_walls.hpp"
#include "sphreverb/model/shape_mesh.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {

Eos make_eos(const FluidSpec& f) { return {f.eos, f.rest_density, f.sound_speed, f.gamma}; }

PairPhysics make_pair_physics(const Scene& s) {
  PairPhysics p;
  p.kernel = s.fluid.kernel;
  p.h = s.derived.h;
  p.mass = s.derived.particle_mass;
  p.eos = make_eos(s.fluid);
  p.viscosity = s.fluid.viscosity;
  p.density_diffusion = s.fluid.density_diffusion;
  p.hyperdiffusion = s.fluid.hyperdiffusion * s.fluid.sound_speed * std::pow(s.fluid.spacing, 3);
  p.hyperviscosity = hyperviscosity_of(s) * s.fluid.sound_speed * std::pow(s.fluid.spacing, 3);
  p.rest_density = s.fluid.rest_density;
  p.background_pressure = s.fluid.background_pressure;
  p.gradient = lattice_gradient(s.fluid.gradient_correction, s.fluid.kernel, s.fluid.h_over_dx,
                                s.fluid.spacing);
  return p;
}

Lattice make_lattice(const Scene& s) {
  return Lattice::filling(s.fluid.fill_min, s.fluid.fill_max, s.fluid.spacing);
}

std::vector<Wall> make_walls(const Scene& s) {
  std::vector<Wall> walls;
  auto add = [&](const WallShape& shape, const std::string& material, bool moving) {
    const MaterialSpec& m = s.material(material);
    const double stiffness = m.rigid ? s.derived.rigid_stiffness : m.stiffness;
    walls.push_back({shape, stiffness, m.damping, m.mass, moving, {}});
  };
  if (s.room.present && !s.derived.mirror_room && !s.derived.ghost_room) {
    const std::array<WallShape, 6> faces = box_faces(s.room.min, s.room.max);
    for (int face = 0; face < 6; ++face) add(faces[face], s.room.face_material[face], false);
  }
  for (const BoundarySpec& b : s.boundaries) {
    if (b.wall == BoundaryWall::Ghost) continue;  // in make_solid_geometry
    const Wall object = object_wall(b);
    add(object.shape, b.material, false);
    walls.back().path = object.path, walls.back().rotation = object.rotation;
  }
  // Moving mesh objects: tethered force walls posed along their motion (one material).
  for (const GeometrySpec& g : s.geometries) {
    if (!g.moves()) continue;
    const Wall object = object_wall(g);
    add(object.shape, g.surface_material.at(0), false);
    walls.back().path = object.path, walls.back().rotation = object.rotation;
  }
  if (s.emitter.present)
    add(WallShape::disc(s.emitter.center, s.emitter.normal, s.emitter.radius), s.emitter.material,
        true);
  return walls;
}

MirrorWalls make_mirror_walls(const Scene& s, const Lattice& lattice) {
  if (!s.derived.mirror_room) return {};
  MirrorWalls mirror(s.room.min, s.room.max, s.derived.halo_width, s.derived.room_admittance,
                     s.derived.room_reacting, s.derived.dt, make_eos(s.fluid), lattice);
  if (const int face = s.derived.emitter_face; face >= 0)
    mirror.set_piston({face, s.emitter.center, s.emitter.radius, s.emitter.normal[face / 2]});
  return mirror;
}

SolidGeometry make_solid_geometry(const Scene& s) {
  std::vector<GeometryPart> parts;
  // A rigid surface, a resistive one (one broadband alpha: 1/R), or a reacting one (a band
  // material: its fitted Z = R + j(wM - K/w), reacting_face.hpp).
  const auto bands = [&](const MaterialSpec& m) {
    return !m.rigid && m.absorption.size() == kOctaveBands.size();
  };
  const auto admittance = [&](const std::string& name) {
    const MaterialSpec& m = s.material(name);
    return m.rigid || bands(m) ? 0.0 : 1.0 / m.impedance.resistance;
  };
  const auto reacting = [&](const std::string& name) {
    const MaterialSpec& m = s.material(name);
    return bands(m) ? m.impedance : WallImpedance{};
  };
  // A [room] whose faces are off the lattice's dx/2 position: the box as a room mesh, a surface
  // per face (x_min ... z_max).
  if (s.derived.ghost_room) {
    GeometryPart part;
    part.mesh = std::make_shared<const Mesh>(box_mesh(s.room.min, s.room.max));
    part.room = true;
    for (const std::string& name : s.room.face_material) {
      part.admittance.push_back(admittance(name));
      part.reacting.push_back(reacting(name));
    }
    parts.push_back(std::move(part));
  }
  for (const GeometrySpec& g : s.geometries) {
    if (g.moves()) continue;  // a tethered force wall (make_walls)
    GeometryPart part;
    part.mesh = g.mesh;
    part.room = g.role == GeometryRole::Room;
    for (const std::string& name : g.surface_material) {
      part.admittance.push_back(admittance(name));
      part.reacting.push_back(reacting(name));
    }
    parts.push_back(std::move(part));
  }
  // Ghost-walled boundaries: the solid behind each shape, deep enough for every ghost within
  // reach of its surface (and a spacing more).
  for (const BoundarySpec& b : s.boundaries) {
    if (b.wall != BoundaryWall::Ghost) continue;
    GeometryPart part;
    const Shape shape{b.shape, b.center, b.normal, b.width, b.height, b.radius};
    part.sheet = SolidSheet(WallShape::from(shape), s.derived.halo_width + s.fluid.spacing);
    part.admittance.push_back(admittance(b.material));
    part.reacting.push_back(reacting(b.material));
    parts.push_back(std::move(part));
  }
  SolidGeometry geometry(std::move(parts));
  geometry.set_clearance(GhostWalls::kClearance * s.fluid.spacing);
  return geometry;
}

GhostWalls make_ghost_walls(const Scene& s, const SolidGeometry& geometry, const Lattice& lattice,
                            const std::vector<Wall>& walls, int axis, double lo, double hi) {
  if (geometry.empty()) return {};
  GhostWallParams params;
  params.reach = s.derived.halo_width;
  params.eos = make_eos(s.fluid);
  params.dt = s.derived.dt;
  params.piston_center = s.emitter.center;
  params.piston_normal = s.emitter.normal;
  params.piston_radius = s.emitter.radius;
  const auto air = [&](int i, int j, int k) {
    const Vec3 x = lattice.site(i, j, k);
    return is_air_site(walls, x, lattice.dx) && geometry.is_air(x);
  };
  return GhostWalls(geometry, lattice, air, params, axis, lo, hi);
}

bool emitter_on_ghost_wall(const Scene& s, const SolidGeometry& geometry) {
  if (geometry.empty() || !(s.emitter.radius > 0.0)) return false;
  const WallContact c = geometry.contact(s.emitter.center);
  if (!(c.distance <= s.fluid.spacing)) return false;
  const Vec3 n = normalized(s.emitter.normal);
  for (int q = 0; q < c.faces; ++q)
    if (std::abs(dot(c.normal[q], n)) > 0.99) return true;  // ghost_walls.cpp's kParallel
  return false;
}

DriveParams make_drive_params(const Scene& s) {
  return {s.emitter.drive, s.emitter.deflection * s.emitter.gain, s.derived.dt, s.emitter.highpass};
}

PointSources make_point_sources(const Scene& s) {
  std::vector<PointSourceParams> out;
  for (const SourceSpec& src : s.sources)
    out.push_back(
        {Path(src.path, src.interpolation), src.width * s.fluid.spacing, s.fluid.rest_density});
  return PointSources(std::move(out));
}

DriveParams make_source_drive_params(const Scene& s, std::size_t k) {
  const SourceSpec& src = s.sources.at(k);
  const double fs = s.time.sample_rate, one_metre = 1.0;
  // The acceleration drive's A = k fs^2 s is Q' here: k = 4 pi (1 m) level gain / (rho0 fs^2).
  const double k_q =
      4.0 * std::numbers::pi * one_metre * src.level * src.gain / (s.fluid.rest_density * fs * fs);
  return {Drive::Acceleration, k_q, s.derived.dt, src.highpass};
}

Receivers make_receivers(const Scene& s) {
  std::vector<Vec3> positions;
  std::vector<char> ambisonic;
  std::vector<Path> paths;
  for (const ReceiverSpec& r : s.receivers) {
    positions.push_back(r.position);
    ambisonic.push_back(r.type == ReceiverType::Ambisonic);
    paths.emplace_back(r.path, r.interpolation);
  }
  return Receivers(std::move(positions), s.fluid.kernel, s.derived.h, s.derived.particle_mass,
                   std::move(ambisonic), std::move(paths));
}

}  // namespace sphreverb
