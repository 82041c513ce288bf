// Halo exchange and migration between neighbouring slabs (see slabs.hpp).
//
// A plan lists the owned particles within `width` of each face of this rank's slab; `rebuild`
// builds it and appends the copies, `refresh` re-sends the chosen fields of the same particles
// into the same halo slots, `migrate` hands particles that left the slab to their new owner.
// All three are collective over the communicator: every rank must call them in the same order,
// and a rank that skips one deadlocks its neighbours.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "sphreverb/core/fields.hpp"
#include "sphreverb/core/particles.hpp"
#include "sphreverb/parallel/slabs.hpp"

namespace sphreverb {

// Moves owned particles whose position along the slab axis is outside this rank's slab to the
// neighbour that owns it. Pre: no halo copies or ghosts (n_halo = n_ghost = 0). Throws
// CollectiveError if a particle moved further than one slab (collectively, on every rank).
void migrate(Particles& p, const Slabs& slabs, MPI_Comm comm);

class Halo {
 public:
  // Builds the plan and appends the halo copies (all fields) after the owned particles: first the
  // left neighbour's, then the right one's. Pre: n_halo = n_ghost = 0.
  void rebuild(Particles& p, const Slabs& slabs, double width, MPI_Comm comm);
  // Overwrites the halo copies' `fields` with their owners' current values. Pre: rebuild ran and
  // the owned particles were not reordered since.
  void refresh(Particles& p, FieldSet fields, MPI_Comm comm);
  // The same for the face-element velocities W (Particles::face_w; nothing without face state).
  void refresh_face_velocity(Particles& p, MPI_Comm comm);
  // The same for one value per entry kept outside the store (values.size() >= p.size()).
  void refresh(Particles& p, std::vector<double>& values, MPI_Comm comm);

 private:
  // Packs every planned entry (pack_entry(i, buf)), exchanges, unpacks into the halo slots
  // (unpack_entry(slot, b) returns b past the entry); `width` doubles per entry.
  template <class Pack, class Unpack>
  void refresh_with(const Particles& p, int width, Pack&& pack_entry, Unpack&& unpack_entry,
                    MPI_Comm comm);

  std::vector<std::size_t> send_[2];  // owned indices sent to the left [0] and right [1] neighbour
  std::size_t recv_[2] = {0, 0};      // copies received from the left and right neighbour
  std::vector<double> sendbuf_[2], recvbuf_[2];
};

}  // namespace sphreverb
