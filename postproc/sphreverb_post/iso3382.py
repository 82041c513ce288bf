"""ISO 3382-1 room-acoustic parameters of an impulse response: EDT, T20, T30, C50, C80, D50, Ts.

Pure functions on numpy arrays (no I/O). The chain, per band:

1. Onset (ISO 3382-1 Annex A, "start of the impulse response"): the first sample of the
   *broadband* record whose squared value is within 20 dB of the squared peak; the same onset
   serves every band (the octave filters are zero-phase, see octave.py). t = 0 there.
2. Noise floor (Lundeby, Vigran, Bietz & Vorlaender, Acustica 81 (1995) 344-355): iterative
   estimate of the background-noise power, the crossing time t_c where the late decay meets it,
   and the late-decay slope. ISO 3382-1 5.3.3 (b): the energy is truncated at t_c and the
   energy of the extrapolated exponential tail beyond t_c is added ("compensation"),
   C = P(t_c) / k with P(t) = P_c e^(-k (t - t_c)) the late-decay fit.
3. Schroeder backward integral (ISO 3382-1 5.3.3, Schroeder 1965) of the truncated squared
   band signal plus C: E(t) = sum_{t <= t_n < t_c} h_n^2 + C; L(t) = 10 log10(E(t)/E(0)).
4. Decay times (ISO 3382-1 A.2): least-squares line through L(t) on 0/-10 dB (EDT), -5/-25 dB
   (T20), -5/-35 dB (T30); T = -60 / slope. Non-linearity xi = 1000 (1 - r^2) in per mille and
   curvature C = 100 (T30/T20 - 1) % (ISO 3382-2 Annex B) are reported.
5. Energy parameters (ISO 3382-1 A.3), on the same truncated + compensated energy:
   C50/C80 = 10 log10(E[0, t) / E[t, inf)), D50 = E[0, 50 ms) / E[0, inf),
   Ts = int t h^2 dt / int h^2 dt.

Validity (ISO 3382-1 5.3.3: the bottom of an evaluation range must lie at least 10 dB above
the background noise). With D the peak-to-noise ratio of the smoothed squared band signal:
EDT needs D >= 20 dB, T20 D >= 35 dB, T30 D >= 45 dB, and the evaluation range must be reached
before t_c. The energy parameters need D >= 20 dB: the compensated tail then holds at most 1 %
of the energy, so even a 50 % error in it moves C80 by less than 0.03 dB. In octave bands the
filter's own decay must be short against the room's: we require B T >= 16 (B the bandwidth in
Hz, T the decay time; Jacobsen's limit for forward filtering, kept although our filter runs
forward and backward because V8 measured errors of EDT/T20/T30 up to 2.6 % at B T = 9 and below 0.4 % at
B T = 18).
"""
import numpy as np

from . import octave

LN10 = np.log(10.0)
DECAY_60 = 6.0 * LN10          # 13.8155: energy e^(-13.8155 t / T) falls 60 dB in T

# Evaluation ranges (dB, start and end on the Schroeder curve) and required peak-to-noise.
RANGES = {"EDT": (0.0, -10.0), "T20": (-5.0, -25.0), "T30": (-5.0, -35.0)}
NEEDED_DR = {"EDT": 20.0, "T20": 35.0, "T30": 45.0, "energy": 20.0}
MIN_BT = 16.0
# The zero-phase octave filter spreads an abrupt onset over about +-3/B (B the bandwidth in Hz;
# its impulse response has 0.06 % of its energy before -3/B): band energy is integrated from
# 3/B before the broadband onset, so what the filter moved ahead of it still counts as early.
PRE_ONSET_BANDWIDTHS = 3.0
PARAMETERS = ("EDT", "T20", "T30", "C50", "C80", "D50", "Ts")


def onset_index(x, below_peak_db=20.0):
    """First sample whose square is within ``below_peak_db`` of the largest square (ISO 3382-1).

    Raises ValueError for an all-zero record.
    """
    e = np.asarray(x, dtype=np.float64) ** 2
    peak = e.max() if e.size else 0.0
    if not peak > 0.0:
        raise ValueError("the record is silent (all samples zero)")
    return int(np.argmax(e >= peak * 10.0 ** (-below_peak_db / 10.0)))


def _blocks(e, n):
    """Means of ``e`` over consecutive blocks of ``n`` samples and the block centre indices."""
    m = len(e) // n
    if m < 1:
        return np.array([e.mean()]), np.array([0.5 * (len(e) - 1)])
    means = e[:m * n].reshape(m, n).mean(axis=1)
    return means, n * np.arange(m) + 0.5 * (n - 1)


def _db(p):
    return 10.0 * np.log10(np.maximum(p, 1e-300))


def _line(t, level):
    """Least-squares line level = a + b t; returns (a, b)."""
    b, a = np.polyfit(t, level, 1)
    return a, b


def lundeby(e, rate, first_interval=0.01, blocks_per_10db=5, max_iter=5):
    """Lundeby et al. (1995) noise-floor estimate of a squared impulse response ``e`` (t=0 at e[0]).

    Steps (numbers as in the paper): 1. mean square over 10 ms blocks; 2. noise = mean of the
    last 10 %; 3. line through the block levels from their maximum down to noise + 10 dB;
    4. crossing t_c of that line with the noise; 5.-6. new block length giving
    ``blocks_per_10db`` blocks per 10 dB of decay; 7. noise = mean from 10 dB of decay beyond t_c
    (at least the last 10 %); 8. late decay fitted from noise + 20 dB to noise + 5 dB; 9. new t_c;
    7-9 repeated until t_c moves by less than one block (at most ``max_iter`` times).

    Returns a dict: crossing (s), noise (mean power per sample), peak (largest block power),
    dynamic_range_db (10 log10 peak/noise), late (a, b) of the late-decay line
    level_dB(t) = a + b t of the block power re 1 (noise removed), ok (False if no decay could be
    fitted; then crossing is the record end and late is None) and stationary (False if the
    "noise" interval still decays by 3 dB or more: no floor was reached, crossing = record end,
    and the level at the end stands in for the noise in dynamic_range_db).
    """
    e = np.asarray(e, dtype=np.float64)
    n_all = len(e)
    t_end = n_all / rate
    tail = e[int(0.9 * n_all):]
    noise = tail.mean() if tail.size else e[-1]
    n_blk = max(1, int(round(first_interval * rate)))
    p, c = _blocks(e, n_blk)
    lvl, tb = _db(p), c / rate
    i_max = int(np.argmax(lvl))
    peak = p[i_max]
    result = {"crossing": t_end, "noise": noise, "peak": peak, "late": None, "ok": False,
              "stationary": False,
              "dynamic_range_db": float(_db(peak) - _db(noise))}
    sel = np.arange(i_max, len(lvl))
    above = lvl[sel] > _db(noise) + 10.0
    stop = int(np.argmin(above)) if not above.all() else len(sel)
    sel = sel[:stop]
    if len(sel) < 2:
        return result
    a, b = _line(tb[sel], lvl[sel])
    if not b < 0.0:
        return result
    tc = min(max((_db(noise) - a) / b, 0.0), t_end)
    late = (a, b)
    for _ in range(max_iter):
        n_blk = max(1, int(round(10.0 / -b / blocks_per_10db * rate)))
        p, c = _blocks(e, n_blk)
        lvl, tb = _db(p), c / rate
        i_max = int(np.argmax(lvl))
        t_noise = tc + 10.0 / -b
        i_noise = min(int(t_noise * rate), int(0.9 * n_all))
        noise = e[i_noise:].mean()
        lo, hi = _db(noise) + 5.0, _db(noise) + 20.0
        # Levels of the decay alone (noise power removed), so the late fit is not flattened
        # by the floor it approaches; the fit range is still 5-20 dB above the noise.
        lvl = _db(np.maximum(p - noise, 1e-300))
        idx = np.arange(i_max, len(lvl))
        first_hi = idx[np.argmax(lvl[idx] < hi)] if (lvl[idx] < hi).any() else None
        first_lo = idx[np.argmax(lvl[idx] < lo)] if (lvl[idx] < lo).any() else len(lvl)
        if first_hi is None or first_lo - first_hi < 2:
            break
        a2, b2 = _line(tb[first_hi:first_lo], lvl[first_hi:first_lo])
        if not b2 < 0.0:
            break
        a, b = a2, b2
        late = (a, b)
        tc_new = min(max((_db(noise) - a) / b, 0.0), t_end)
        converged = abs(tc_new - tc) < n_blk / rate
        tc = tc_new
        if converged:
            break
    peak = p[i_max]
    # A real floor is stationary: the two halves of the noise interval agree within 3 dB. If
    # the record is still decaying there (no floor reached), keep all of it: t_c = end.
    rest = e[min(int(tc * rate + 10.0 / -b * rate), int(0.9 * n_all)):]
    h = len(rest) // 2
    stationary = h > 0 and abs(_db(rest[:h].mean()) - _db(rest[h:].mean())) < 3.0
    if not stationary:
        # Still decaying: the late line is the raw block levels' last 20 dB (nothing to remove).
        raw = _db(p)
        sel = np.arange(i_max, len(raw))
        sel = sel[raw[sel] < raw[-1] + 20.0]
        if len(sel) >= 2:
            a2, b2 = _line(tb[sel], raw[sel])
            if b2 < 0.0:
                late = (a2, b2)
    result.update(crossing=float(tc) if stationary else t_end, noise=float(noise),
                  peak=float(peak), late=late, ok=True, stationary=bool(stationary),
                  dynamic_range_db=float(_db(peak) - _db(noise)))
    return result


class EnergyDecay:
    """Truncated + compensated energy of a squared band signal ``e`` (t = 0 at e[0]).

    The samples before the crossing t_c are kept; beyond it the late-decay fit
    P(t) = P_c e^(-k (t - t_c)) (per-sample power, k = -b ln10/10) stands in for the record.
    Energies are in units of sum(e) (sample sums), times in seconds.
    """

    def __init__(self, e, rate, floor, subtract_noise=True):
        self.rate = rate
        self.nc = int(min(round(floor["crossing"] * rate), len(e))) if floor["ok"] else len(e)
        self.e = np.asarray(e[:self.nc], dtype=np.float64)
        if subtract_noise and floor["ok"] and floor["stationary"]:
            self.e = self.e - floor["noise"]
        self.tc = self.nc / rate
        if floor["ok"] and floor["late"] is not None:
            a, b = floor["late"]
            self.k = -b * LN10 / 10.0
            self.pc = 10.0 ** ((a + b * self.tc) / 10.0)
        else:
            self.k, self.pc = np.inf, 0.0
        self.cum = np.concatenate([[0.0], np.cumsum(self.e)])

    def tail(self, t0=None):
        """Compensated energy beyond max(t0, t_c) (sample-sum units)."""
        if self.pc == 0.0:
            return 0.0
        t0 = self.tc if t0 is None or t0 < self.tc else t0
        return self.rate * self.pc * np.exp(-self.k * (t0 - self.tc)) / self.k

    def before(self, t):
        """Energy in [0, t)."""
        n = int(round(t * self.rate))
        if n <= self.nc:
            return self.cum[max(n, 0)]
        return self.cum[-1] + self.tail() - self.tail(t)

    def total(self):
        return self.cum[-1] + self.tail()

    def centre_time(self):
        """Ts = sum t_n e_n / sum e_n, the tail's first moment added analytically."""
        t = np.arange(self.nc) / self.rate
        m1 = np.dot(t, self.e)
        if self.pc > 0.0:
            m1 += self.rate * self.pc * (self.tc / self.k + 1.0 / self.k ** 2)
        return m1 / self.total()

    def schroeder_db(self):
        """Schroeder curve L(t_n) = 10 log10(E(t_n)/E(0)) for the kept samples n < n_c."""
        back = self.cum[-1] - self.cum[:-1] + self.tail()
        return 10.0 * np.log10(np.maximum(back, 1e-300) / self.total())


def fit_decay(level, rate, start_db, end_db):
    """Decay time -60/slope of the least-squares line through ``level`` (dB, one value per sample,
    t = n / rate) between its first fall below ``start_db`` (0 dB: from the first sample) and its
    first fall below ``end_db``. Returns (T, xi per mille) or (None, None) if the curve does not
    reach ``end_db`` or the range holds fewer than 3 samples."""
    level = np.asarray(level)
    i0 = 0 if start_db >= 0.0 else int(np.argmax(level <= start_db))
    below = level <= end_db
    if not below.any() or (start_db < 0.0 and not (level <= start_db).any()):
        return None, None
    i1 = int(np.argmax(below)) + 1
    if i1 - i0 < 3:
        return None, None
    t = np.arange(i0, i1) / rate
    y = level[i0:i1]
    b, a = np.polyfit(t, y, 1)
    if not b < 0.0:
        return None, None
    resid = y - (a + b * t)
    ss = np.sum((y - y.mean()) ** 2)
    r2 = 1.0 - np.sum(resid ** 2) / ss if ss > 0.0 else 1.0
    return -60.0 / b, 1000.0 * (1.0 - r2)


def band_parameters(h, rate, bandwidth=None, pre=0):
    """ISO 3382-1 parameters of one band signal ``h`` whose sample ``pre`` is the onset (t = 0).

    ``bandwidth`` (Hz) is the octave's bandwidth, None for the unfiltered broadband signal (no
    B T check). The ``pre`` samples before the onset hold what the zero-phase filter spread
    ahead of it; they count as early energy (C50, C80, D50), at negative times in Ts, and in
    the Schroeder curve's total, while the decay fits use t >= 0 only. Returns a dict with the seven PARAMETERS (None where not computable), ``valid``
    (one flag each), ``reason`` (why a flag is False), and the diagnostics dynamic_range_db,
    noise_floor_db (re the peak block), crossing_s, xi_EDT/xi_T20/xi_T30 (per mille),
    curvature_pct.
    """
    e = np.asarray(h, dtype=np.float64) ** 2
    floor = lundeby(e, rate)
    dec = EnergyDecay(e, rate, floor)
    level = dec.schroeder_db()[pre:]
    t_pre = pre / rate
    dr = floor["dynamic_range_db"]
    out, valid, reason = {}, {}, {}
    for name, (lo, hi) in RANGES.items():
        T, xi = fit_decay(level, rate, lo, hi)
        out[name], out["xi_" + name] = T, xi
        why = []
        if T is None:
            why.append(f"decay does not reach {hi:g} dB before the noise floor")
        if dr < NEEDED_DR[name]:
            why.append(f"peak-to-noise {dr:.1f} dB < {NEEDED_DR[name]:g} dB")
        if T is not None and bandwidth is not None and bandwidth * T < MIN_BT:
            why.append(f"B*T = {bandwidth * T:.2f} < {MIN_BT:g} (filter rings as long as the room)")
        valid[name] = not why
        if why:
            reason[name] = "; ".join(why)
    total = dec.total()
    for name, t in (("C50", 0.05), ("C80", 0.08)):
        early = dec.before(t_pre + t)
        late = total - early
        out[name] = 10.0 * np.log10(early / late) if early > 0.0 and late > 0.0 else None
    out["D50"] = dec.before(t_pre + 0.05) / total if total > 0.0 else None
    out["Ts"] = dec.centre_time() - t_pre if total > 0.0 else None
    length = len(e) / rate - t_pre
    for name, needs in (("C50", 0.05), ("C80", 0.08), ("D50", 0.05), ("Ts", 0.0)):
        why = []
        if out[name] is None:
            why.append("no energy")
        if length < needs:
            why.append(f"record ends {1000 * length:.1f} ms after the onset, before "
                       f"{1000 * needs:.0f} ms")
        if dr < NEEDED_DR["energy"]:
            why.append(f"peak-to-noise {dr:.1f} dB < {NEEDED_DR['energy']:g} dB")
        valid[name] = not why
        if why:
            reason[name] = "; ".join(why)
    out["curvature_pct"] = (100.0 * (out["T30"] / out["T20"] - 1.0)
                            if out["T30"] and out["T20"] else None)
    out.update(valid=valid, reason=reason, dynamic_range_db=dr,
               noise_floor_db=float(_db(floor["noise"]) - _db(floor["peak"])),
               crossing_s=dec.tc - t_pre,
               noise_floor_found=bool(floor["ok"] and floor["stationary"]))
    return out


def _clean(v):
    """JSON-friendly: numpy scalars to float, NaN/inf to None."""
    if isinstance(v, dict):
        return {k: _clean(w) for k, w in v.items()}
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, float, np.floating, np.integer)):
        v = float(v)
        return v if np.isfinite(v) else None
    return v


def analyse(x, rate, bands=octave.NOMINAL, broadband=True, onset=None):
    """Parameters of a mono impulse response ``x`` in each octave band (and broadband).

    ``onset`` (sample index) sets t = 0; by default it is ``onset_index`` of ``x``.

    Returns (results, meta): results maps "125" ... "4000" (and "broadband") to the dict of
    band_parameters plus fc_hz, f_lo_hz, f_hi_hz; bands that do not fit below 0.45 fs are
    left out and listed in meta["skipped_bands"]. meta holds rate_hz, onset_s, duration_s.
    The onset is found once on the broadband record; every band starts there.
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1 or x.size < 16:
        raise ValueError("need a mono record of at least 16 samples")
    x = x - x.mean()
    i0 = onset_index(x) if onset is None else int(onset)
    if not 0 <= i0 < x.size:
        raise ValueError(f"onset {i0} outside the record (0 to {x.size - 1})")
    results, skipped = {}, []
    for nom in bands:
        if not octave.fits(nom, rate):
            skipped.append(nom)
            continue
        f1, fm, f2 = octave.band_edges(nom)
        pre = int(round(PRE_ONSET_BANDWIDTHS / (f2 - f1) * rate))
        y = octave.filter_band(np.concatenate([np.zeros(pre), x]), nom, rate)[i0:]
        r = band_parameters(y, rate, bandwidth=f2 - f1, pre=pre)
        r.update(fc_hz=fm, f_lo_hz=f1, f_hi_hz=f2)
        results[str(nom)] = _clean(r)
    if broadband:
        r = band_parameters(x[i0:], rate)
        r.update(fc_hz=None, f_lo_hz=None, f_hi_hz=None)
        results["broadband"] = _clean(r)
    meta = {"rate_hz": int(rate), "onset_s": i0 / rate, "duration_s": x.size / rate,
            "skipped_bands": skipped}
    return results, meta


def expected(T):
    """Analytic parameters of an ideal exponential decay e^(-6 ln10 t / T) (energy), from t = 0.

    EDT = T20 = T30 = T; C_t = 10 log10(e^(6 ln10 t / T) - 1); D50 = 1 - e^(-6 ln10 0.05 / T);
    Ts = T / (6 ln 10) (docs/validation.md, V8, writes 13.82 for 6 ln 10 = 13.8155).
    """
    k = DECAY_60 / T
    return {"EDT": T, "T20": T, "T30": T,
            "C50": 10.0 * np.log10(np.expm1(k * 0.05)),
            "C80": 10.0 * np.log10(np.expm1(k * 0.08)),
            "D50": -np.expm1(-k * 0.05), "Ts": 1.0 / k}
