"""Matplotlib panels for impulse responses: waveform, spectrum with analytic room modes,
spectrogram, Schroeder energy decay curve. Each function draws into a given Axes and returns
what it marked, so tests can check the figure against the analysis."""
import numpy as np
from scipy import fft, signal

from . import iso3382
from .analysis import box_mode_count, lowest_box_modes


def waveform(ax, x, rate):
    t = 1000.0 * np.arange(len(x)) / rate
    ax.plot(t, x, lw=0.6)
    ax.set(xlabel="time (ms)", ylabel="amplitude", title="waveform")
    ax.grid(True, alpha=0.3)


def spectrum_db(x, rate):
    """(f Hz, level dB re its maximum) of the zero-padded magnitude spectrum."""
    n = fft.next_fast_len(4 * len(x))      # zero padding: a smoother curve, same peaks
    mag = np.abs(fft.rfft(x, n))
    f = fft.rfftfreq(n, 1.0 / rate)
    return f, 20.0 * np.log10(np.maximum(mag, 1e-300) / max(mag.max(), 1e-300))


def mode_frequencies(room, c, fmax, max_count=60):
    """The lowest max_count analytic rigid-box modes f = (c/2) sqrt(sum (n_i/L_i)^2) up to fmax
    (listing only those: a large room at a high fmax has millions)."""
    return lowest_box_modes(*room, c, fmax, max_count)


def mode_count(room, c, fmax):
    """How many rigid-box modes lie up to fmax, counted without listing them."""
    return box_mode_count(*room, c, fmax)


def spectrum(ax, x, rate, room=None, c=343.0, fmax=None, max_modes=60):
    """Magnitude spectrum (dB) on a log-frequency axis; with ``room`` (Lx, Ly, Lz) the analytic
    modes are marked with dashed vertical lines. Returns the list of marked (f, (nx, ny, nz))."""
    f, L = spectrum_db(x, rate)
    fmax = 0.5 * rate if fmax is None else fmax
    keep = (f >= max(10.0, f[1])) & (f <= fmax)   # below 10 Hz: nothing a room does
    ax.semilogx(f[keep], L[keep], lw=0.6)
    marked = []
    if room is not None:
        marked = mode_frequencies(room, c, fmax, max_modes)
        for fm, idx in marked:
            ax.axvline(fm, color="r", ls="--", lw=0.5, alpha=0.6)
        if marked:
            ax.plot([], [], "r--", lw=0.5, label=f"rigid-box modes ({len(marked)}, "
                                                  f"up to {marked[-1][0]:.0f} Hz)")
            ax.legend(fontsize=7, loc="lower left")
    ax.set(xlabel="frequency (Hz)", ylabel="level (dB re max)", title="spectrum",
           ylim=(max(L[keep].min(), -100) if keep.any() else -100, 5))
    ax.grid(True, which="both", alpha=0.3)
    return marked


def spectrogram(ax, x, rate, fmax=None):
    """Hann frames of the power of two nearest 10 ms (shorter for short records: at least 8
    frames), 75 % overlap; frequencies up to ``fmax`` (default Nyquist)."""
    nper = int(2 ** np.round(np.log2(rate * 0.01)))
    while nper > 32 and 8 * nper > len(x):
        nper //= 2
    nper = min(nper, len(x))
    f, t, S = signal.spectrogram(x, rate, window="hann", nperseg=nper, noverlap=nper * 3 // 4)
    Sdb = 10.0 * np.log10(np.maximum(S, 1e-300) / max(S.max(), 1e-300))
    ax.pcolormesh(1000.0 * t, f, Sdb, vmin=-80, vmax=0, shading="auto", cmap="magma")
    ax.set(xlabel="time (ms)", ylabel="frequency (Hz)", title="spectrogram (dB re max)",
           ylim=(0, 0.5 * rate if fmax is None else fmax))


def edc(ax, x, rate, T_lines=None):
    """Broadband Schroeder curve from the ISO 3382-1 onset, Lundeby-truncated and compensated
    (iso3382). ``T_lines`` maps labels to reverberation times drawn as ideal -60 t/T lines.
    Returns (t s, level dB, parameters) of the curve."""
    x = np.asarray(x, dtype=np.float64) - np.mean(x)
    i0 = iso3382.onset_index(x)
    e = x[i0:] ** 2
    floor = iso3382.lundeby(e, rate)
    dec = iso3382.EnergyDecay(e, rate, floor)
    L = dec.schroeder_db()
    t = np.arange(len(L)) / rate
    ax.plot(1000.0 * t, L, lw=1.0, label="Schroeder (measured)")
    for label, T in (T_lines or {}).items():
        ax.plot(1000.0 * t, -60.0 * t / T, "--", lw=0.8, label=f"{label}: T = {T:.3f} s")
    ax.set(xlabel="time after onset (ms)", ylabel="energy decay (dB)",
           title="Schroeder energy decay curve", ylim=(max(L.min(), -80) - 2, 2))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    return t, L, floor
