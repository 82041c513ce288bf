"""Post-processing of sphreverb runs: receiver analysis, room-acoustic metrics, validation checks.

The command line is ``python3 -m sphreverb_post SUBCOMMAND`` (cli.py); the validation cases and
their pass thresholds are in docs/validation.md.
"""
from .audio import read_mono, read_receiver
from .analysis import (arrival_delay, speed_of_sound_tof, box_mode_frequencies,
                       sphere_mode_frequencies, spectral_peaks, isolated_modes,
                       match_modes)

__all__ = ["read_mono", "read_receiver", "arrival_delay", "speed_of_sound_tof",
           "box_mode_frequencies", "sphere_mode_frequencies", "spectral_peaks",
           "isolated_modes", "match_modes"]
