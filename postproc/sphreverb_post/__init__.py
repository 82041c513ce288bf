"""Post-processing for sphreverb receiver recordings (validation cases V2 and V4).

See VALIDATION in the README for the cases and their pass thresholds.
"""
from .wavio import read_wav, read_receiver
from .analysis import (arrival_delay, speed_of_sound_tof, box_mode_frequencies,
                       spectral_peaks, isolated_modes, match_modes)

__all__ = ["read_wav", "read_receiver", "arrival_delay", "speed_of_sound_tof",
           "box_mode_frequencies", "spectral_peaks", "isolated_modes", "match_modes"]
