#include "io/detail/h5.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "sphreverb/parallel/collective.hpp"

namespace sphreverb::detail::h5 {

namespace {

hid_t mem_type(Type t) {
  switch (t) {
    case Type::F64:
      return H5T_NATIVE_DOUBLE;
    case Type::F32:
      return H5T_NATIVE_FLOAT;
    case Type::I64:
      return H5T_NATIVE_INT64;
    case Type::I32:
      return H5T_NATIVE_INT32;
  }
  return H5T_NATIVE_DOUBLE;
}
hid_t file_type(Type t) {
  switch (t) {
    case Type::F64:
      return H5T_IEEE_F64LE;
    case Type::F32:
      return H5T_IEEE_F32LE;
    case Type::I64:
      return H5T_STD_I64LE;
    case Type::I32:
      return H5T_STD_I32LE;
  }
  return H5T_IEEE_F64LE;
}
std::size_t type_size(Type t) { return t == Type::F64 || t == Type::I64 ? 8 : 4; }
bool is_float(Type t) { return t == Type::F64 || t == Type::F32; }

std::uint64_t mix(std::uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Checksum of a string dataset (its bytes, position-weighted).
std::uint64_t string_sum(const std::string& value) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < value.size(); ++i)
    s += (static_cast<unsigned char>(value[i]) + 1u) * mix(i + 1);
  return s;
}

// errno's text after a failed write (HDF5's sec2 and MPI-IO drivers leave it set), e.g. "No
// space left on device".
std::string system_reason() {
  const int e = errno;
  return e != 0 ? std::generic_category().message(e) : std::string("I/O error");
}

// Takes `bytes` of disk space at path (posix_fallocate: real blocks, quotas included); throws if
// the file system cannot give them.
void reserve(const std::string& path, std::uint64_t bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw H5Error(path + ": cannot create (" + system_reason() + ")");
  const int status = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  ::close(fd);
  if (status != 0) {
    ::unlink(path.c_str());
    throw H5Error(path + ": cannot reserve " + std::to_string(bytes) +
                  " bytes for the file's metadata (" + std::generic_category().message(status) +
                  ")");
  }
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw H5Error(what);
}

Handle string_type(std::size_t length) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(t.get(), length == 0 ? 1 : length), "string size");
  check(H5Tset_strpad(t.get(), H5T_STR_NULLPAD), "string padding");
  return t;
}

Handle transfer(bool parallel) {
  Handle x(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "transfer property list");
  if (parallel) check(H5Pset_dxpl_mpio(x.get(), H5FD_MPIO_COLLECTIVE), "collective transfer");
  return x;
}

Handle link_props() {
  Handle l(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "link property list");
  check(H5Pset_create_intermediate_group(l.get(), 1), "intermediate groups");
  return l;
}

void put_attribute(hid_t obj, const std::string& name, const std::string& value) {
  Handle t = string_type(value.size());
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "scalar space");
  Handle a(H5Acreate2(obj, name.c_str(), t.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
           "attribute " + name);
  std::string padded = value.empty() ? std::string(1, '\0') : value;
  check(H5Awrite(a.get(), t.get(), padded.data()), "attribute " + name);
}

void put_attribute(hid_t obj, const std::string& name, std::uint64_t value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "scalar space");
  Handle a(H5Acreate2(obj, name.c_str(), H5T_STD_U64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
           H5Aclose, "attribute " + name);
  check(H5Awrite(a.get(), H5T_NATIVE_UINT64, &value), "attribute " + name);
}

}  // namespace

void silence_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

template <class Fn>
void File::agreed(Fn&& f) const {
  if (parallel()) {
    on_every_rank<H5Error>(comm_, f);
  } else {
    f();
  }
}

Handle::Handle(hid_t id, Closer close, const std::string& what) : id_(id), close_(close) {
  if (id < 0) throw H5Error(what);
}
Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    reset();
    id_ = o.id_, close_ = o.close_, o.id_ = -1;
  }
  return *this;
}
hid_t Handle::release() {
  const hid_t id = id_;
  id_ = -1;
  return id;
}
void Handle::reset() {
  if (id_ >= 0 && close_ != nullptr) close_(id_);
  id_ = -1;
}

std::uint64_t checksum(const void* data, Type type, std::uint64_t first, std::uint64_t n) {
  std::uint64_t sum = 0;
  const auto* bytes = static_cast<const unsigned char*>(data);
  const std::size_t size = type_size(type);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes + i * size, size);
    sum += mix(w ^ mix(first + i + 0x9e3779b97f4a7c15ULL));
  }
  return sum;
}

File File::create(const std::string& path, MPI_Comm comm) {
  silence_errors();
  File f;
  f.path_ = path;
  f.comm_ = comm;
  MPI_Comm_rank(comm, &f.rank_);
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access property list");
  check(H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL), "MPI-IO driver");
  check(H5Pset_coll_metadata_write(fapl.get(), 1), "collective metadata");
  f.agreed([&] {
    if (f.rank_ == 0) reserve(path + kReserveSuffix, kMetadataReserve);
  });
  f.reserved_ = f.created_ = true;
  f.agreed([&] {
    f.file_ = Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose,
                     path + ": cannot create the file");
  });
  return f;
}

File File::open(const std::string& path, MPI_Comm comm) {
  silence_errors();
  File f;
  f.path_ = path;
  f.comm_ = comm;
  MPI_Comm_rank(comm, &f.rank_);
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access property list");
  check(H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL), "MPI-IO driver");
  f.agreed([&] {
    f.file_ = Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose,
                     path + ": cannot open as HDF5 (truncated or damaged)");
  });
  return f;
}

File::~File() {
  if (file_.get() < 0) {  // never opened (an agreed failure of H5Fcreate), or closed
    if (rank_ == 0) drop_reserve();
    return;
  }
  if (comm_ == MPI_COMM_NULL || !created_) {
    file_.reset();
    return;
  }
  // Unwinding after an agreed failure (every rank is here): free the space the partial data took
  // and the reserve, so that HDF5's collective metadata flush in H5Fclose succeeds on every rank
  // alike (a flush that fails on one rank only leaves the ranks in different collectives).
  if (rank_ == 0) {
    std::error_code ec;
    std::filesystem::resize_file(path_, 0, ec);
    drop_reserve();
  }
  MPI_Barrier(comm_);
  file_.reset();
}

void File::drop_reserve() {
  if (!reserved_) return;
  std::error_code ec;
  if (rank_ == 0) std::filesystem::remove(path_ + kReserveSuffix, ec);
  reserved_ = false;
}

void File::close() {
  if (reserved_) {
    if (rank_ == 0) drop_reserve();
    reserved_ = false;
    MPI_Barrier(comm_);
  }
  agreed([&] {
    const hid_t id = file_.release();
    if (id >= 0 && H5Fclose(id) < 0)
      throw H5Error(path_ + ": cannot close the file (its last writes failed)");
  });
}

File File::open_serial(const std::string& path) {
  silence_errors();
  File f;
  f.path_ = path;
  f.file_ = Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                   path + ": cannot open as HDF5 (truncated or damaged)");
  return f;
}

void File::write_rows(const std::string& name, Type type, const void* data, std::uint64_t rows,
                      int cols, std::uint64_t first, std::uint64_t count, const std::string& units,
                      const std::string& description) {
  const std::size_t row_bytes = type_size(type) * (cols > 0 ? static_cast<std::size_t>(cols) : 1);
  write_rows_blocks(name, type, rows, cols, first, count, count, units, description,
                    [&](std::uint64_t row, std::uint64_t) {
                      return static_cast<const unsigned char*>(data) + row * row_bytes;
                    });
}

void File::write_rows_chunked(const std::string& name, Type type, std::uint64_t rows, int cols,
                              std::uint64_t first, std::uint64_t count, const RowFill& fill,
                              const std::string& units, const std::string& description) {
  const std::size_t row_bytes = type_size(type) * (cols > 0 ? static_cast<std::size_t>(cols) : 1);
  std::vector<unsigned char> buffer(std::min(count, kChunkRows) * row_bytes);
  write_rows_blocks(name, type, rows, cols, first, count, kChunkRows, units, description,
                    [&](std::uint64_t row, std::uint64_t n) -> const void* {
                      fill(row, n, buffer.data());
                      return buffer.data();
                    });
}

template <class Block>
void File::write_rows_blocks(const std::string& name, Type type, std::uint64_t rows, int cols,
                             std::uint64_t first, std::uint64_t count, std::uint64_t block_rows,
                             const std::string& units, const std::string& description,
                             Block&& block) {
  const int rank = cols > 0 ? 2 : 1;
  const std::uint64_t width = cols > 0 ? static_cast<std::uint64_t>(cols) : 1;
  const hsize_t dims[2] = {rows, width};
  Handle fspace(H5Screate_simple(rank, dims, nullptr), H5Sclose, name + ": dataspace");
  Handle set;
  agreed([&] {
    Handle lcpl = link_props();
    set = Handle(H5Dcreate2(file_.get(), name.c_str(), file_type(type), fspace.get(), lcpl.get(),
                            H5P_DEFAULT, H5P_DEFAULT),
                 H5Dclose, path_ + ": cannot create dataset " + name);
  });
  // Collective transfers: every rank makes as many H5Dwrite calls as the rank with the most
  // blocks (with an empty selection once its own rows are done).
  std::uint64_t blocks = block_rows > 0 ? (count + block_rows - 1) / block_rows : 0;
  if (parallel()) MPI_Allreduce(MPI_IN_PLACE, &blocks, 1, MPI_UINT64_T, MPI_MAX, comm_);
  if (rows * width == 0) blocks = 0;
  std::uint64_t sum = 0;
  Handle x = transfer(parallel());
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t row = b * block_rows;
    const std::uint64_t n = row < count ? std::min(block_rows, count - row) : 0;
    const hsize_t start[2] = {first + row, 0}, extent[2] = {n, width};
    const hsize_t mdims[2] = {n > 0 ? n : 1, width};
    // Every rank calls H5Dwrite (collective) even if preparing its block failed; the outcome is
    // agreed after it.
    std::string error;
    const void* data = nullptr;
    Handle mspace;
    try {
      mspace = Handle(H5Screate_simple(rank, mdims, nullptr), H5Sclose, name + ": memory space");
      if (n > 0) {
        check(H5Sselect_hyperslab(fspace.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr),
              name + ": hyperslab");
        data = block(row, n);
        sum += checksum(data, type, (first + row) * width, n * width);
      } else {
        check(H5Sselect_none(fspace.get()), name + ": empty selection");
        check(H5Sselect_none(mspace.get()), name + ": empty selection");
      }
    } catch (const std::exception& e) {
      error = e.what();
      H5Sselect_none(fspace.get());
      if (mspace.get() >= 0) H5Sselect_none(mspace.get());
      data = nullptr;
    }
    errno = 0;
    if (H5Dwrite(set.get(), mem_type(type), mspace.get() >= 0 ? mspace.get() : H5S_ALL,
                 fspace.get(), x.get(), data) < 0 &&
        error.empty())
      error = path_ + ": cannot write dataset " + name + " (" + system_reason() + ")";
    agreed([&] {
      if (!error.empty()) throw H5Error(error);
    });
  }
  if (parallel()) MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_UINT64_T, MPI_SUM, comm_);
  agreed([&] {
    put_attribute(set.get(), "units", units);
    put_attribute(set.get(), "description", description);
    put_attribute(set.get(), "checksum", sum);
  });
}

void File::write_string(const std::string& name, const std::string& value, const std::string& units,
                        const std::string& description) {
  agreed([&] { write_string_here(name, value, units, description); });
}

void File::write_string_here(const std::string& name, const std::string& value,
                             const std::string& units, const std::string& description) {
  Handle t = string_type(value.size());
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, name + ": dataspace");
  Handle lcpl = link_props();
  Handle set(H5Dcreate2(file_.get(), name.c_str(), t.get(), space.get(), lcpl.get(), H5P_DEFAULT,
                        H5P_DEFAULT),
             H5Dclose, path_ + ": cannot create dataset " + name);
  Handle mspace(H5Screate(H5S_SCALAR), H5Sclose, name + ": memory space");
  Handle fsel(H5Dget_space(set.get()), H5Sclose, name + ": dataspace");
  if (rank_ != 0) {
    check(H5Sselect_none(mspace.get()), name + ": selection");
    check(H5Sselect_none(fsel.get()), name + ": selection");
  }
  std::string padded = value.empty() ? std::string(1, '\0') : value;
  Handle x = transfer(parallel());
  check(H5Dwrite(set.get(), t.get(), mspace.get(), fsel.get(), x.get(), padded.data()),
        path_ + ": cannot write dataset " + name);
  put_attribute(set.get(), "units", units);
  put_attribute(set.get(), "description", description);
  put_attribute(set.get(), "checksum", string_sum(value));
}

void File::attribute(const std::string& name, const std::string& value) {
  agreed([&] { put_attribute(file_.get(), name, value); });
}
void File::attribute(const std::string& name, std::int64_t value) {
  agreed([&] {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose, "scalar space");
    Handle a(
        H5Acreate2(file_.get(), name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose, "attribute " + name);
    check(H5Awrite(a.get(), H5T_NATIVE_INT64, &value), "attribute " + name);
  });
}

bool File::exists(const std::string& name) const {
  // Each component must exist in turn (H5Lexists fails on a missing intermediate group).
  std::string prefix;
  for (std::size_t pos = 0; pos != std::string::npos;) {
    const std::size_t next = name.find('/', pos + 1);
    prefix = name.substr(0, next);
    if (!prefix.empty() && prefix != "/" &&
        H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0)
      return false;
    pos = next;
  }
  return H5Oexists_by_name(file_.get(), name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::uint64_t> File::shape(const std::string& name) const {
  if (!exists(name)) throw H5Error(path_ + ": dataset " + name + " is missing");
  Handle set(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose,
             path_ + ": cannot open dataset " + name);
  Handle space(H5Dget_space(set.get()), H5Sclose, name + ": dataspace");
  const int n = H5Sget_simple_extent_ndims(space.get());
  if (n < 0 || n > 4) throw H5Error(path_ + ": dataset " + name + " has a bad shape");
  hsize_t dims[4] = {};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  return std::vector<std::uint64_t>(dims, dims + n);
}

std::uint64_t File::read_rows(const std::string& name, Type type, void* out, int cols,
                              std::uint64_t first, std::uint64_t count) const {
  const auto dims = shape(name);
  const int rank = cols > 0 ? 2 : 1;
  const std::uint64_t width = cols > 0 ? static_cast<std::uint64_t>(cols) : 1;
  if (static_cast<int>(dims.size()) != rank || (cols > 0 && dims[1] != width) ||
      first + count > dims[0])
    throw H5Error(path_ + ": dataset " + name + " has the wrong shape");
  Handle set(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose,
             path_ + ": cannot open dataset " + name);
  Handle ftype(H5Dget_type(set.get()), H5Tclose, name + ": type");
  const H5T_class_t cls = H5Tget_class(ftype.get());
  if ((is_float(type) && cls != H5T_FLOAT) || (!is_float(type) && cls != H5T_INTEGER) ||
      H5Tget_size(ftype.get()) != type_size(type))
    throw H5Error(path_ + ": dataset " + name + " has the wrong element type");
  Handle fspace(H5Dget_space(set.get()), H5Sclose, name + ": dataspace");
  const hsize_t start[2] = {first, 0}, block[2] = {count, width};
  const hsize_t mdims[2] = {count > 0 ? count : 1, width};
  Handle mspace(H5Screate_simple(rank, mdims, nullptr), H5Sclose, name + ": memory space");
  if (count > 0) {
    check(H5Sselect_hyperslab(fspace.get(), H5S_SELECT_SET, start, nullptr, block, nullptr),
          name + ": hyperslab");
  } else {
    check(H5Sselect_none(fspace.get()), name + ": selection");
    check(H5Sselect_none(mspace.get()), name + ": selection");
  }
  if (dims[0] * width > 0) {
    Handle x = transfer(parallel());
    check(H5Dread(set.get(), mem_type(type), mspace.get(), fspace.get(), x.get(),
                  count > 0 ? out : nullptr),
          path_ + ": cannot read dataset " + name + " (damaged?)");
  }
  return count > 0 ? checksum(out, type, first * width, count * width) : 0;
}

std::string File::read_string(const std::string& name) const {
  if (!exists(name)) throw H5Error(path_ + ": dataset " + name + " is missing");
  Handle set(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose,
             path_ + ": cannot open dataset " + name);
  Handle t(H5Dget_type(set.get()), H5Tclose, name + ": type");
  if (H5Tget_class(t.get()) != H5T_STRING || H5Tis_variable_str(t.get()) > 0)
    throw H5Error(path_ + ": dataset " + name + " is not a fixed-length string");
  const std::size_t size = H5Tget_size(t.get());
  std::string value(size, '\0');
  Handle x = transfer(parallel());
  check(H5Dread(set.get(), t.get(), H5S_ALL, H5S_ALL, x.get(), value.data()),
        path_ + ": cannot read dataset " + name + " (damaged?)");
  value.resize(std::strlen(value.c_str()) < size ? std::strlen(value.c_str()) : size);
  if (string_sum(value) != stored_checksum(name))
    throw H5Error(path_ + ": dataset " + name + " fails its checksum (the file is damaged)");
  return value;
}

bool File::has_attribute(const std::string& object, const std::string& name) const {
  return H5Aexists_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

bool File::element_type_is(const std::string& name, Type type) const {
  Handle set(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose,
             path_ + ": cannot open dataset " + name);
  Handle ftype(H5Dget_type(set.get()), H5Tclose, name + ": type");
  const H5T_class_t cls = H5Tget_class(ftype.get());
  return (is_float(type) ? cls == H5T_FLOAT : cls == H5T_INTEGER) &&
         H5Tget_size(ftype.get()) == type_size(type);
}

std::string File::string_attribute(const std::string& object, const std::string& name) const {
  if (!has_attribute(object, name))
    throw H5Error(path_ + ": " + object + " has no attribute '" + name + "'");
  Handle a(H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
           H5Aclose, path_ + ": attribute " + name);
  Handle t(H5Aget_type(a.get()), H5Tclose, name + ": type");
  if (H5Tget_class(t.get()) != H5T_STRING)
    throw H5Error(path_ + ": attribute " + name + " of " + object + " is not a string");
  if (H5Tis_variable_str(t.get()) > 0) {
    Handle mem(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
    check(H5Tset_size(mem.get(), H5T_VARIABLE), "string size");
    check(H5Tset_cset(mem.get(), H5Tget_cset(t.get())), "string character set");
    char* text = nullptr;
    check(H5Aread(a.get(), mem.get(), &text), path_ + ": attribute " + name);
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
  }
  std::string value(H5Tget_size(t.get()), '\0');
  check(H5Aread(a.get(), t.get(), value.data()), path_ + ": attribute " + name);
  value.resize(std::strlen(value.c_str()));
  return value;
}

std::int64_t File::int_attribute(const std::string& object, const std::string& name) const {
  if (H5Aexists_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT) <= 0)
    throw H5Error(path_ + ": " + object + " has no attribute '" + name + "'");
  Handle a(H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
           H5Aclose, path_ + ": attribute " + name);
  Handle t(H5Aget_type(a.get()), H5Tclose, name + ": type");
  if (H5Tget_class(t.get()) != H5T_INTEGER)
    throw H5Error(path_ + ": attribute " + name + " of " + object + " is not an integer");
  std::int64_t v = 0;
  check(H5Aread(a.get(), H5T_NATIVE_INT64, &v), path_ + ": attribute " + name);
  return v;
}

std::uint64_t File::stored_checksum(const std::string& name) const {
  if (H5Aexists_by_name(file_.get(), name.c_str(), "checksum", H5P_DEFAULT) <= 0)
    throw H5Error(path_ + ": dataset " + name + " has no checksum attribute");
  Handle a(H5Aopen_by_name(file_.get(), name.c_str(), "checksum", H5P_DEFAULT, H5P_DEFAULT),
           H5Aclose, path_ + ": checksum of " + name);
  std::uint64_t v = 0;
  check(H5Aread(a.get(), H5T_NATIVE_UINT64, &v), path_ + ": checksum of " + name);
  return v;
}

}  // namespace sphreverb::detail::h5
