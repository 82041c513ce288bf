// Thin HDF5 plumbing for checkpoints and snapshots: RAII handles, a file opened with the MPI-IO
// driver (collective) or serially (rank 0's validation), row-block datasets that each rank writes
// its share of, and self-description (units, description, checksum) on every dataset.
//
// A parallel file agrees on every outcome: an operation that fails on one rank (a full disk, say)
// throws the same H5Error on every rank at the same call, so no rank is left in a collective the
// others have abandoned (collective.hpp).
//
// The error stack is silenced: every failing call becomes an H5Error with the path and what was
// being done, so a damaged file is refused with a message and never printed over or crashed on.
#pragma once

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sphreverb::detail::h5 {

class H5Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An owned hid_t, closed by the matching H5*close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close, const std::string& what);  // throws H5Error if id < 0
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }
  hid_t get() const { return id_; }
  void reset();
  hid_t release();  // gives up ownership without closing

 private:
  hid_t id_ = -1;
  Closer close_ = nullptr;
};

// Element types of the datasets.
enum class Type { F64, F32, I64, I32 };

// Order-free checksum of a dataset: sum over elements of mix(bits, flat index) mod 2^64, so each
// rank sums its own rows and the total is an MPI sum, independent of the decomposition.
std::uint64_t checksum(const void* data, Type type, std::uint64_t first_element,
                       std::uint64_t elements);

class File {
 public:
  // Collective over comm: creates (truncates) path with the MPI-IO driver. Rank 0 first reserves
  // kMetadataReserve bytes beside it (PATH.reserve), released just before close() flushes the
  // metadata, so that a full disk fails a data write (which every rank agrees on) and not the
  // collective metadata flush (which HDF5 cannot recover from on some ranks only).
  static File create(const std::string& path, MPI_Comm comm);
  static constexpr std::uint64_t kMetadataReserve = 256u << 10;
  static constexpr const char* kReserveSuffix = ".reserve";
  File() = default;
  File(File&& o) noexcept
      : path_(std::move(o.path_)),
        file_(std::move(o.file_)),
        comm_(o.comm_),
        rank_(o.rank_),
        reserved_(o.reserved_),
        created_(o.created_) {
    o.reserved_ = o.created_ = false;
  }
  File& operator=(File&&) = delete;
  // Collective for a parallel file created here and still open (unwinding after an agreed
  // failure): drops the file's contents and closes it. Other files are just closed.
  ~File();
  // Collective over comm: opens path read-only with the MPI-IO driver.
  static File open(const std::string& path, MPI_Comm comm);
  // This process only: opens path read-only with the default (serial) driver.
  static File open_serial(const std::string& path);

  const std::string& path() const { return path_; }
  hid_t id() const { return file_.get(); }
  bool parallel() const { return comm_ != MPI_COMM_NULL; }
  int rank() const { return rank_; }
  // Collective for a parallel file: closes it (flushing its metadata); throws on every rank if
  // the flush failed on any.
  void close();

  // Collective: dataset `name` of shape [rows, cols] (cols = 0: [rows]); this rank writes rows
  // [first, first + count) from data (count * max(cols, 1) elements). Attributes `units`,
  // `description` and `checksum` (over the whole dataset) are attached. Intermediate groups are
  // created as needed.
  void write_rows(const std::string& name, Type type, const void* data, std::uint64_t rows,
                  int cols, std::uint64_t first, std::uint64_t count, const std::string& units,
                  const std::string& description);
  // Fills `count` rows starting at row `row` of this rank's block (0 = its first row) into `out`
  // (count * max(cols, 1) elements of the dataset's type).
  using RowFill = std::function<void(std::uint64_t row, std::uint64_t count, void* out)>;
  // Collective: the same dataset as write_rows, with this rank's rows produced by `fill` in
  // consecutive blocks of at most kChunkRows rows, so the caller never holds a copy of its whole
  // block (a checkpoint writes [N, 3] datasets from three separate arrays). The file is the same
  // as write_rows would make: one contiguous dataset, the same attributes and checksum.
  void write_rows_chunked(const std::string& name, Type type, std::uint64_t rows, int cols,
                          std::uint64_t first, std::uint64_t count, const RowFill& fill,
                          const std::string& units, const std::string& description);
  static constexpr std::uint64_t kChunkRows = 1u << 15;
  // Collective, identical arguments on every rank: a fixed-length string dataset.
  void write_string(const std::string& name, const std::string& value, const std::string& units,
                    const std::string& description);
  // Collective, identical arguments on every rank: attributes of the root group.
  void attribute(const std::string& name, const std::string& value);
  void attribute(const std::string& name, std::int64_t value);

  // Reading (collective for a parallel file, local for a serial one).
  bool exists(const std::string& name) const;
  // Shape of a dataset; throws if missing.
  std::vector<std::uint64_t> shape(const std::string& name) const;
  // Reads rows [first, first + count) into out, converting to `type`; checks the stored element
  // class (float or integer) matches. Returns this rank's part of the checksum (reduce it).
  std::uint64_t read_rows(const std::string& name, Type type, void* out, int cols,
                          std::uint64_t first, std::uint64_t count) const;
  std::string read_string(const std::string& name) const;
  bool has_attribute(const std::string& object, const std::string& name) const;
  // The dataset's stored element class (float or integer) and size are those of `type`.
  bool element_type_is(const std::string& name, Type type) const;
  // Fixed- or variable-length string attribute.
  std::string string_attribute(const std::string& object, const std::string& name) const;
  std::int64_t int_attribute(const std::string& object, const std::string& name) const;
  std::uint64_t stored_checksum(const std::string& name) const;

 private:
  // Creates the dataset and writes this rank's rows in blocks of block_rows: block(row, n)
  // returns the n rows from `row` on (collective; the block count is agreed over the ranks).
  template <class Block>
  void write_rows_blocks(const std::string& name, Type type, std::uint64_t rows, int cols,
                         std::uint64_t first, std::uint64_t count, std::uint64_t block_rows,
                         const std::string& units, const std::string& description, Block&& block);

  // Runs f; for a parallel file, a throw on any rank becomes the same H5Error on every rank.
  template <class Fn>
  void agreed(Fn&& f) const;
  void drop_reserve();
  void write_string_here(const std::string& name, const std::string& value,
                         const std::string& units, const std::string& description);

  std::string path_;
  Handle file_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  bool reserved_ = false, created_ = false;
};

// Turns off HDF5's automatic error printing (idempotent).
void silence_errors();

}  // namespace sphreverb::detail::h5
