#include "sphreverb/parallel/halo.hpp"

#include <bit>

#include "sphreverb/core/errors.hpp"

namespace sphreverb {

namespace {

constexpr int kTagCount = 701, kTagData = 702;
// Doubles per migrated or halo-copied entry: x y z vx vy vz rho key, then the face-element state
// X W per axis when the store carries it.
std::size_t migrate_width(const Particles& p) { return p.face_state ? 14 : 8; }

void pack(const Particles& p, std::size_t i, FieldSet f, std::vector<double>& buf) {
  if (f.has(Field::Position)) buf.insert(buf.end(), {p.x[i], p.y[i], p.z[i]});
  if (f.has(Field::Velocity)) buf.insert(buf.end(), {p.vx[i], p.vy[i], p.vz[i]});
  if (f.has(Field::Density)) buf.push_back(p.rho[i]);
}

const double* unpack(Particles& p, std::size_t i, FieldSet f, const double* b) {
  if (f.has(Field::Position)) p.x[i] = b[0], p.y[i] = b[1], p.z[i] = b[2], b += 3;
  if (f.has(Field::Velocity)) p.vx[i] = b[0], p.vy[i] = b[1], p.vz[i] = b[2], b += 3;
  if (f.has(Field::Density)) p.rho[i] = *b++;
  return b;
}

void pack_all(const Particles& p, std::size_t i, std::vector<double>& buf) {
  pack(p, i, kAllDynamic, buf);
  buf.push_back(std::bit_cast<double>(p.key[i]));
  if (p.face_state)
    for (int a = 0; a < 3; ++a) buf.insert(buf.end(), {p.face_x[a][i], p.face_w[a][i]});
}

// Writes entry i from a migrate_width(p) record.
void unpack_all(Particles& p, std::size_t i, const double* b) {
  b = unpack(p, i, kAllDynamic, b);
  p.key[i] = std::bit_cast<std::int64_t>(*b++);
  if (p.face_state)
    for (int a = 0; a < 3; ++a) p.face_x[a][i] = b[0], p.face_w[a][i] = b[1], b += 2;
}

// Exchanges buffers with the left and right neighbours (MPI_PROC_NULL at the ends). recv[side]
// must already have the size of what arrives from that side.
void exchange_sized(std::vector<double> (&send)[2], std::vector<double> (&recv)[2], int rank,
                    int size, MPI_Comm comm) {
  const int peer[2] = {rank > 0 ? rank - 1 : MPI_PROC_NULL,
                       rank + 1 < size ? rank + 1 : MPI_PROC_NULL};
  MPI_Request req[4];
  for (int s = 0; s < 2; ++s) {
    MPI_Irecv(recv[s].data(), static_cast<int>(recv[s].size()), MPI_DOUBLE, peer[s], kTagData, comm,
              &req[s]);
    MPI_Isend(send[s].data(), static_cast<int>(send[s].size()), MPI_DOUBLE, peer[s], kTagData, comm,
              &req[2 + s]);
  }
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

// The same when the receive sizes are unknown: the counts travel first.
void exchange(std::vector<double> (&send)[2], std::vector<double> (&recv)[2], int rank, int size,
              MPI_Comm comm) {
  const int peer[2] = {rank > 0 ? rank - 1 : MPI_PROC_NULL,
                       rank + 1 < size ? rank + 1 : MPI_PROC_NULL};
  long long nsend[2] = {static_cast<long long>(send[0].size()),
                        static_cast<long long>(send[1].size())};
  long long nrecv[2] = {0, 0};
  MPI_Request req[4];
  for (int s = 0; s < 2; ++s) {
    MPI_Irecv(&nrecv[s], 1, MPI_LONG_LONG, peer[s], kTagCount, comm, &req[s]);
    MPI_Isend(&nsend[s], 1, MPI_LONG_LONG, peer[s], kTagCount, comm, &req[2 + s]);
  }
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  for (int s = 0; s < 2; ++s) recv[s].resize(static_cast<std::size_t>(nrecv[s]));
  exchange_sized(send, recv, rank, size, comm);
}

}  // namespace

void migrate(Particles& p, const Slabs& slabs, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &size);
  const int axis = slabs.axis();
  std::vector<double> send[2], recv[2];
  int far_away = 0;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const int owner = slabs.owner(axis == 0 ? p.x[i] : (axis == 1 ? p.y[i] : p.z[i]));
    if (owner == rank) {
      if (kept != i) p.copy_entry(i, kept);
      ++kept;
    } else if (owner == rank - 1 || owner == rank + 1) {
      pack_all(p, i, send[owner == rank - 1 ? 0 : 1]);
    } else {
      ++far_away;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &far_away, 1, MPI_INT, MPI_SUM, comm);
  if (far_away > 0)
    throw CollectiveError(
        "a particle moved further than one slab between neighbour rebuilds "
        "(the simulation is unstable; reduce [time] cfl or wall stiffness)");
  p.n_owned = kept;
  exchange(send, recv, rank, size, comm);
  // One resize to the final count (not one per arrival, whose geometric growth can leave up to
  // twice the capacity behind).
  const std::size_t width = migrate_width(p);
  p.resize(kept + (recv[0].size() + recv[1].size()) / width);
  std::size_t i = kept;
  for (int s = 0; s < 2; ++s)
    for (std::size_t k = 0; k < recv[s].size(); k += width) unpack_all(p, i++, &recv[s][k]);
  p.n_owned = p.size();
}

void Halo::rebuild(Particles& p, const Slabs& slabs, double width, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &size);
  const int axis = slabs.axis();
  const std::vector<double>& c = axis == 0 ? p.x : (axis == 1 ? p.y : p.z);
  const double lo = slabs.lo(rank), hi = slabs.hi(rank);
  for (int s = 0; s < 2; ++s) send_[s].clear(), sendbuf_[s].clear();
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    if (rank > 0 && c[i] < lo + width) send_[0].push_back(i);
    if (rank + 1 < size && c[i] >= hi - width) send_[1].push_back(i);
  }
  for (int s = 0; s < 2; ++s)
    for (std::size_t i : send_[s]) pack_all(p, i, sendbuf_[s]);
  exchange(sendbuf_, recvbuf_, rank, size, comm);
  const std::size_t entry = migrate_width(p);
  for (int s = 0; s < 2; ++s) recv_[s] = recvbuf_[s].size() / entry;
  std::size_t i = p.size();
  p.append_copies(recv_[0] + recv_[1]);  // copies carry no per-step results
  for (int s = 0; s < 2; ++s)
    for (std::size_t k = 0; k < recvbuf_[s].size(); k += entry) unpack_all(p, i++, &recvbuf_[s][k]);
  p.n_halo = recv_[0] + recv_[1];
}

template <class Pack, class Unpack>
void Halo::refresh_with(const Particles& p, int width, Pack&& pack_entry, Unpack&& unpack_entry,
                        MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &size);
  if (size == 1) return;
  for (int s = 0; s < 2; ++s) {
    sendbuf_[s].clear();
    for (std::size_t i : send_[s]) pack_entry(i, sendbuf_[s]);
    recvbuf_[s].resize(recv_[s] * static_cast<std::size_t>(width));
  }
  exchange_sized(sendbuf_, recvbuf_, rank, size, comm);
  std::size_t slot = p.n_owned;
  for (int s = 0; s < 2; ++s) {
    const double* b = recvbuf_[s].data();
    for (std::size_t k = 0; k < recv_[s]; ++k) b = unpack_entry(slot++, b);
  }
}

void Halo::refresh(Particles& p, FieldSet fields, MPI_Comm comm) {
  refresh_with(
      p, fields.width(), [&](std::size_t i, std::vector<double>& buf) { pack(p, i, fields, buf); },
      [&](std::size_t slot, const double* b) { return unpack(p, slot, fields, b); }, comm);
}

void Halo::refresh_face_velocity(Particles& p, MPI_Comm comm) {
  if (!p.face_state) return;
  refresh_with(
      p, 3,
      [&](std::size_t i, std::vector<double>& buf) {
        buf.insert(buf.end(), {p.face_w[0][i], p.face_w[1][i], p.face_w[2][i]});
      },
      [&](std::size_t slot, const double* b) {
        for (int a = 0; a < 3; ++a) p.face_w[a][slot] = b[a];
        return b + 3;
      },
      comm);
}

void Halo::refresh(Particles& p, std::vector<double>& values, MPI_Comm comm) {
  refresh_with(
      p, 1, [&](std::size_t i, std::vector<double>& buf) { buf.push_back(values[i]); },
      [&](std::size_t slot, const double* b) {
        values[slot] = *b;
        return b + 1;
      },
      comm);
}

}  // namespace sphreverb
