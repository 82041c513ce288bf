// Image sources of any polyhedral room (Borish, J. Acoust. Soc. Am. 75, 1827 (1984)): the
// specular reflections of a triangle set (the geometric part's surfaces, surfaces.hpp) up to a
// largest order and a largest delay, each checked by back-tracing and against occlusion.
//
// Faces: the triangles grouped into polygon sets, one per edge-connected group of coplanar
// triangles of one material slot and one air side (polygon_faces). A face reflects on its air
// side: a room mesh's and the [room] box's triangles have the air opposite their normals, an
// object mesh's along them (model/mesh.hpp), a boundary shape (a thin sheet) on both.
//
// Enumeration: depth first from the source, an image I reflects in face f (plane n . x = o) when
// it lies strictly on f's air side (the source-side validity: an image behind a face has no
// path through it) and f is not the face it was made in; the child is I - 2 (n . I - o) n. A
// branch ends at max_order reflections, and below an image whose distance from the surfaces'
// bounding box exceeds the reach c max_delay (every path of a descendant runs from a point on a
// face to the image, so it is longer than that distance). Every image within the reach of the
// receiver is then validated by back-tracing: from the receiver towards the image of its last
// face, the crossing of that face's plane must lie between them and inside the face's polygon
// (one of its triangles, within a relative tolerance), and so on back to the source; every
// segment of the path must be free of every triangle of the surfaces (objects included: CGAL's
// AABB tree, the ray tracer's, answers the segment queries; the segment's ends are pulled in by
// 1e-9 of its length, so that the faces it reflects off do not occlude it). Deterministic:
// faces in index order, no random numbers.
//
// Amplitude (image_sources.hpp's convention), reflection j off face f_j at its own angle theta_j
// (the angle between the path segment arriving at the face and its normal):
//     A_b = prod_j R_{f_j,b}(cos theta_j) exp(-m_b d / 2) / (4 pi d),
// R = FaceFactors::reflection times the locally reacting wall's factor of its impedance
// (wall_reflection.hpp) where it has one.
//
// Work: an unpruned enumeration examines sum_{n=1..N} F (F - 1)^{n-1} images for F faces and
// order N (candidate_bound); the source-side validity and the reach cut that by a large factor in
// a room (about half the faces lie behind any image), the back-tracing costs N + 1 segment
// queries per image within the reach.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "sphreverb/geometric/image_sources.hpp"
#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

struct PolyFace {
  Vec3 normal;                         // unit, the triangles' right-hand normal
  double offset = 0.0;                 // m: the plane normal . x = offset
  int air_side = 0;                    // +1 air along the normal, -1 opposite it, 0 both sides
  std::size_t surface = 0;             // the triangles' surface slot (material)
  std::vector<std::size_t> triangles;  // of the surfaces mesh, ascending
};

// The faces of `surfaces` (Mesh::surface[t] the material slot), air_side[t] the air side of
// triangle t (+1, -1, 0 as above). Two triangles are in one face when they share an edge (equal
// corner positions within 1e-9 m), have the same slot and air side, and are coplanar (normals
// within 1e-6 rad, planes within 1e-9 m). Faces are ordered by their first triangle.
std::vector<PolyFace> polygon_faces(const Mesh& surfaces, const std::vector<int>& air_side);

struct PolyImageParams {
  Vec3 source, receiver;             // m, in the air
  std::vector<FaceFactors> factors;  // per face (polygon_faces' order)
  BandValues air{};                  // 1/m, energy decay rate of the air per band
  double sound_speed = 343.0;        // m/s
  double max_delay = 0.05;           // s, images with delay < max_delay are kept
  int max_order = 3;                 // reflections, >= 0
};

// sum_{n=1..order} F (F - 1)^{n-1}: the images an enumeration without pruning examines.
double candidate_bound(std::size_t faces, int order);

// A candidate bound above which `check` and `run` warn that the enumeration may take long (about
// a microsecond per candidate; a smaller image_order cuts it by F per order).
inline constexpr double kManyImageCandidates = 1e8;

class PolyhedralImages {
 public:
  // `surfaces` and `faces` (polygon_faces of it) are copied.
  PolyhedralImages(const Mesh& surfaces, std::vector<PolyFace> faces);
  ~PolyhedralImages();
  PolyhedralImages(const PolyhedralImages&) = delete;
  PolyhedralImages& operator=(const PolyhedralImages&) = delete;

  const std::vector<PolyFace>& faces() const;

  // The valid, unoccluded images (the direct sound when unoccluded included) with delay <
  // max_delay and at most max_order reflections, sorted as box_image_sources sorts. `examined`
  // (optional) receives the number of candidate images the enumeration made.
  std::vector<ImageSource> images(const PolyImageParams& p, std::size_t* examined = nullptr) const;

  // The same without pruning: every sequence of faces (no face twice in a row) up to max_order,
  // each image validated by back-tracing and occlusion alone. For tests: F (F-1)^(N-1) images.
  std::vector<ImageSource> brute_force(const PolyImageParams& p) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sphreverb
