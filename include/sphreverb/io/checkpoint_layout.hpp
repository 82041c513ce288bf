// The checkpoint file's layout, described once: every root attribute and every dataset with its
// type, shape, units and description. The writer takes type, units and description from here,
// the reader validates every dataset against it (present, shape, element type, units and
// description attributes) before reading, and the XDMF sidecar shows the particle arrays marked
// for ParaView. docs/checkpoints.md lists the same table.
//
// Shapes: [N] particles, [R] receivers, [T] records (the t = 0 reference, then one per stage-2
// step), [M] the input samples still to play, [K] the files the scene includes, [S] the
// [emitter.NAME] sources, [F] the mesh files the scene read, [V] and [T] the vertices and triangles
// of the moving objects, [G] the face elements of reacting ghost walls (one row per rank holding a
// site: a site near a slab face may repeat, with identical values); a second extent 3 is x, y, z;
// "text" is one fixed-length string.
//
// Optional entries are for viewing only, or (the face-element state) written only by scenes
// that need them, or (the mesh files' stamps) newer than the layout version: a reader checks them
// when present and does not need them, so files written before they existed still restart (no new
// layout version); a scene with reacting mirror faces or reacting ghost walls refuses a file
// without their state.
#pragma once

#include <cstdint>
#include <string_view>

namespace sphreverb {

inline constexpr std::int64_t kCheckpointLayoutVersion = 4;
inline constexpr const char* kCheckpointFormat = "sphreverb checkpoint";

enum class CkptType { F64, I64, I32, Text };
enum class CkptRows {
  One,
  Particles,
  Receivers,
  Records,
  InputLeft,
  Includes,
  Sources,
  ObjectVertices,
  ObjectTriangles,
  GhostFaces,
  MeshFiles
};

struct CheckpointAttribute {
  const char* name;  // of the root group
  CkptType type;     // I64 or Text
  const char* description;
};

inline constexpr CheckpointAttribute kCheckpointAttributes[] = {
    {"format", CkptType::Text, "always \"sphreverb checkpoint\""},
    {"layout_version", CkptType::I64, "version of this table (kCheckpointLayoutVersion)"},
    {"program_version", CkptType::Text, "sphreverb version that wrote the file"},
    {"particles", CkptType::I64, "N, the particle count"},
    {"ranks", CkptType::I64, "rank count of the run that wrote the file"},
    {"step", CkptType::I64, "steps since the run began, stage 1 included"},
};

struct CheckpointDataset {
  const char* name;  // HDF5 path
  CkptType type;
  CkptRows rows;
  int cols;  // 0: one column ([rows]); 3: [rows, 3]; -k: k columns per receiver ([rows, k R])
  const char* units;
  const char* description;
  const char* paraview = nullptr;  // array name in the XDMF sidecar (particle datasets only)
  bool optional = false;           // for viewing: not required on reading (see above)
};

inline constexpr CheckpointDataset kCheckpointDatasets[] = {
    // Particles: what a restart needs, then what ParaView shows.
    {"/particles/position", CkptType::F64, CkptRows::Particles, 3, "m",
     "position x^n at time /run/time"},
    {"/particles/velocity", CkptType::F64, CkptRows::Particles, 3, "m/s",
     "velocity v^(n-1/2) of the staggered leap-frog, half a step before /run/time", "velocity"},
    {"/particles/density", CkptType::F64, CkptRows::Particles, 0, "kg/m^3",
     "density rho^n (continuity equation)", "density"},
    {"/particles/rest_position", CkptType::F64, CkptRows::Particles, 3, "m",
     "lattice (rest) position: anchors the wall tethers"},
    {"/particles/key", CkptType::I64, CkptRows::Particles, 0, "1",
     "decomposition-independent key = id * 27 + 13"},
    {"/particles/rebuild_position", CkptType::F64, CkptRows::Particles, 3, "m",
     "position at the last neighbour-list rebuild: a restart rebuilds its lists, halos and "
     "ghosts from it, as the uninterrupted run did"},
    {"/particles/face_displacement", CkptType::F64, CkptRows::Particles, 3, "m",
     "outward displacement X^n of the reacting mirror face (x_min/x_max, y, z) the particle is the "
     "first layer of, 0 elsewhere; only in scenes with reacting faces, which restart from it",
     nullptr, true},
    {"/particles/face_velocity", CkptType::F64, CkptRows::Particles, 3, "m/s",
     "outward velocity W^(n-1/2) of that face element, half a step before /run/time; only in "
     "scenes with reacting faces",
     nullptr, true},
    // The reacting ghost walls' face elements (ghost_walls.hpp), keyed by ghost.
    {"/ghost_faces/key", CkptType::I64, CkptRows::GhostFaces, 0, "1",
     "key of the ghost site whose face elements the row holds (decomposition-independent: its "
     "site on the padded lattice); only in scenes with absorbing ghost walls, which restart from "
     "them",
     nullptr, true},
    {"/ghost_faces/displacement", CkptType::F64, CkptRows::GhostFaces, 3, "m",
     "outward displacement X^n of the ghost's face element per wall face meeting at its wall "
     "point (contact order; 0 for a face that is not reacting)",
     nullptr, true},
    {"/ghost_faces/velocity", CkptType::F64, CkptRows::GhostFaces, 3, "m/s",
     "outward velocity W^(n-1/2) of those face elements, half a step before /run/time; for a "
     "resistive face p(x_m)/R a step before it",
     nullptr, true},
    {"/particles/pressure", CkptType::F64, CkptRows::Particles, 0, "Pa",
     "pressure deflection p' = p(rho) - p(rho0) from the equation of state (for viewing; not "
     "read on restart)",
     "pressure"},
    {"/particles/rank", CkptType::I32, CkptRows::Particles, 0, "1",
     "rank that owned the particle when the checkpoint was written (for viewing)", "rank"},
    {"/particles/index", CkptType::I64, CkptRows::Particles, 0, "1",
     "row number 0..N-1: the XDMF Polyvertex connectivity"},
    // The run's progress.
    {"/run/step", CkptType::I64, CkptRows::One, 0, "1",
     "steps since the run began, stage 1 included"},
    {"/run/time", CkptType::F64, CkptRows::One, 0, "s",
     "simulated time since the run began (step * dt)"},
    {"/run/dt", CkptType::F64, CkptRows::One, 0, "s", "time step"},
    {"/run/stage", CkptType::I64, CkptRows::One, 0, "1", "1 equilibrium, 2 recording"},
    {"/run/stage1_steps", CkptType::I64, CkptRows::One, 0, "1", "steps done in stage 1"},
    {"/run/stage1_energy", CkptType::F64, CkptRows::One, 0, "J",
     "last stage-1 kinetic-energy check"},
    {"/run/stage1_previous_energy", CkptType::F64, CkptRows::One, 0, "J",
     "the stage-1 energy check before the last"},
    {"/run/stage1_wall_seconds", CkptType::F64, CkptRows::One, 0, "s", "wall time of stage 1"},
    {"/run/reference_taken", CkptType::I64, CkptRows::One, 0, "1",
     "1 if the receivers' t = 0 reference record exists"},
    {"/run/acoustic_steps", CkptType::I64, CkptRows::One, 0, "1", "stage-2 steps done"},
    {"/run/rebuilds", CkptType::I64, CkptRows::One, 0, "1", "neighbour-list rebuilds so far"},
    // The scene, as read.
    {"/scene/text", CkptType::Text, CkptRows::One, 0, "none", "the scene file's text"},
    {"/scene/path", CkptType::Text, CkptRows::One, 0, "none",
     "the scene file's path (WAV inputs resolve from it)"},
    {"/scene/overrides", CkptType::Text, CkptRows::One, 0, "none",
     "command-line overrides, one 'section.key=value' per line"},
    {"/scene/hash", CkptType::Text, CkptRows::One, 0, "none",
     "FNV-1a 64 of text, a NUL byte and overrides"},
    {"/scene/include_paths", CkptType::Text, CkptRows::One, 0, "none",
     "the files the scene includes ('include = PATH'), resolved, one per line"},
    {"/scene/include_sizes", CkptType::I64, CkptRows::Includes, 0, "bytes",
     "length of each included file's text in /scene/include_texts"},
    {"/scene/include_texts", CkptType::Text, CkptRows::One, 0, "none",
     "the included files' texts as read, one after the other"},
    // The mesh files, as read at the start of the run (a restart refuses a changed one).
    {"/scene/mesh_paths", CkptType::Text, CkptRows::One, 0, "none",
     "the files the [geometry.NAME] meshes were read from (and the files their readers opened: "
     "an OBJ's .mtl, a glTF's buffers), absolute, one per line",
     nullptr, true},
    {"/scene/mesh_bytes", CkptType::I64, CkptRows::MeshFiles, 0, "bytes",
     "size of each file of /scene/mesh_paths", nullptr, true},
    {"/scene/mesh_sha256", CkptType::Text, CkptRows::One, 0, "none",
     "SHA-256 of each file of /scene/mesh_paths, 64 hexadecimal digits per line", nullptr, true},
    // The emitter's drive.
    {"/emitter/input", CkptType::F64, CkptRows::InputLeft, 0, "1",
     "input signal s in [-1, 1] at /emitter/input_rate (before the one-sample delay), from "
     "sample /emitter/input_offset on: the part still to play"},
    {"/emitter/input_offset", CkptType::I64, CkptRows::One, 0, "1",
     "index in the whole input of /emitter/input's first sample (earlier ones are played)"},
    {"/emitter/input_length", CkptType::I64, CkptRows::One, 0, "1",
     "sample count of the whole input"},
    {"/emitter/input_rate", CkptType::F64, CkptRows::One, 0, "Hz", "sample rate of /emitter/input"},
    {"/emitter/next_step", CkptType::I64, CkptRows::One, 0, "1",
     "the stage-2 step the drive computes next (its position in the input)"},
    {"/emitter/position", CkptType::F64, CkptRows::One, 3, "m",
     "the [emitter] disc's rest centre (for viewing)", nullptr, true},
    {"/emitter/shift", CkptType::F64, CkptRows::One, 0, "m",
     "displacement along the normal at the last step"},
    {"/emitter/speed", CkptType::F64, CkptRows::One, 0, "m/s",
     "speed along the normal at the last step"},
    {"/emitter/last_acceleration", CkptType::F64, CkptRows::One, 0, "m/s^2",
     "acceleration at the last step (acceleration drive)"},
    {"/emitter/leaky_velocity", CkptType::F64, CkptRows::One, 0, "m/s",
     "V of the leaky integrator dV/dt = A - w_c V (acceleration drive)"},
    // The [emitter.NAME] sources (a restart reads their inputs again from the scene).
    {"/sources/names", CkptType::Text, CkptRows::One, 0, "none",
     "[emitter.NAME] source names, one per line, in scene order"},
    {"/sources/next_step", CkptType::I64, CkptRows::Sources, 0, "1",
     "the stage-2 step each source's drive computes next"},
    {"/sources/drive", CkptType::F64, CkptRows::Sources, 4, "m^3, m^3/s, m^3/s^2, m^3/s",
     "each source's drive state: volume, volume velocity Q, last dQ/dt, leaky integrator"},
    {"/sources/position", CkptType::F64, CkptRows::Sources, 3, "m",
     "where each source is at the stage-2 time /run/acoustic_steps * dt, that of "
     "/particles/position (its path; for viewing)"},
    // The receivers.
    {"/receivers/names", CkptType::Text, CkptRows::One, 0, "none", "receiver names, one per line"},
    {"/receivers/position", CkptType::F64, CkptRows::Receivers, 3, "m",
     "receiver positions (a moving receiver's on its path at the stage-2 time "
     "/run/acoustic_steps * dt, that of /particles/position)"},
    {"/receivers/reference_density", CkptType::F64, CkptRows::Receivers, 0, "kg/m^3",
     "the t = 0 record of each receiver (0 if not taken yet)"},
    {"/receivers/density", CkptType::F64, CkptRows::Records, -1, "kg/m^3",
     "every record so far [records, receivers]: the t = 0 reference, then one per stage-2 step"},
    {"/receivers/velocity", CkptType::F64, CkptRows::Records, -3, "m/s",
     "velocity x y z of each receiver at every record [records, 3 receivers] (ambisonic "
     "receivers; 0 for omni ones)"},
    // The moving [boundary.NAME] objects at the positions' time, as triangles (for viewing).
    {"/objects/names", CkptType::Text, CkptRows::One, 0, "none",
     "the [boundary.NAME] objects that follow a path, one per line, in scene order", nullptr, true},
    {"/objects/vertices", CkptType::F64, CkptRows::ObjectVertices, 3, "m",
     "vertices of the moving objects' triangles at their pose at the stage-2 time "
     "/run/acoustic_steps * dt (the shape of geometry.h5 moved along the object's path)",
     nullptr, true},
    {"/objects/triangles", CkptType::I64, CkptRows::ObjectTriangles, 3, "1",
     "vertex indices (0-based) of each triangle of the moving objects", nullptr, true},
    {"/objects/object", CkptType::I32, CkptRows::ObjectTriangles, 0, "1",
     "the object of each triangle: the line of /objects/names (0-based)", nullptr, true},
};

// The table's entry for `name`; a name not in the table is a programming error (std::logic_error).
const CheckpointDataset& checkpoint_dataset(std::string_view name);

// Bytes per particle of a checkpoint: the sum over the [N] datasets every scene writes (the
// face-element state of reacting mirror faces adds 48 where a scene has them).
constexpr double checkpoint_bytes_per_particle() {
  double sum = 0.0;
  for (const CheckpointDataset& d : kCheckpointDatasets)
    if (d.rows == CkptRows::Particles && !d.optional)
      sum += (d.type == CkptType::I32 ? 4.0 : 8.0) * (d.cols > 0 ? d.cols : 1);
  return sum;
}
inline constexpr double kCheckpointBytesPerParticle = checkpoint_bytes_per_particle();
// Bytes of a checkpoint beyond its datasets' elements and texts (HDF5 metadata and attributes):
// 20 to 24 kB measured on the default scene (configs/small_room.ini).
inline constexpr double kCheckpointOverhead = 24e3;

}  // namespace sphreverb
