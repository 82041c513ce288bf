#include "sphreverb/geometric/decay.hpp"

#include <cmath>
#include <limits>

namespace sphreverb {

std::vector<double> schroeder_db(const std::vector<double>& e) {
  std::vector<double> tail(e.size());
  double sum = 0.0;
  for (std::size_t i = e.size(); i-- > 0;) tail[i] = (sum += e[i]);
  std::vector<double> db(e.size(), -std::numeric_limits<double>::infinity());
  if (!(sum > 0.0)) return db;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (tail[i] > 0.0) db[i] = 10.0 * std::log10(tail[i] / sum);
  return db;
}

double t30(const std::vector<double>& energy, double dt) { return decay_time(energy, dt, -35.0); }

double decay_time(const std::vector<double>& energy, double dt, double lowest) {
  const std::vector<double> edc = schroeder_db(energy);
  double n = 0, st = 0, sy = 0, stt = 0, sty = 0;
  bool reached = false;
  for (std::size_t i = 0; i < edc.size(); ++i) {
    if (edc[i] < lowest) {
      reached = true;
      break;
    }
    if (edc[i] > -5.0) continue;
    const double t = (static_cast<double>(i) + 0.5) * dt;
    n += 1, st += t, sy += edc[i], stt += t * t, sty += t * edc[i];
  }
  if (!reached || n < 2) return 0.0;
  const double slope = (n * sty - st * sy) / (n * stt - st * st);  // dB/s
  return slope < 0.0 ? -60.0 / slope : 0.0;
}

double eyring_t60(double volume, double area, double mean_alpha, double air_rate, double c) {
  return 24.0 * std::log(10.0) * volume /
         (c * (-area * std::log(1.0 - mean_alpha) + 4.0 * air_rate * volume));
}

}  // namespace sphreverb
