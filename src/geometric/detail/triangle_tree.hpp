// The CGAL AABB tree over a scene's triangles that the ray tracer and the polyhedral image
// sources query (segment and ray intersections). Include only from the CGAL translation units
// (CMakeLists.txt: sphreverb_cgal).
#pragma once

#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/AABB_triangle_primitive.h>
#include <CGAL/Simple_cartesian.h>

#include <vector>

namespace sphreverb::geometric_detail {

using Kernel = CGAL::Simple_cartesian<double>;
using Triangle = Kernel::Triangle_3;
using TriangleIt = std::vector<Triangle>::const_iterator;
using Primitive = CGAL::AABB_triangle_primitive<Kernel, TriangleIt>;
using Tree = CGAL::AABB_tree<CGAL::AABB_traits<Kernel, Primitive>>;

}  // namespace sphreverb::geometric_detail
