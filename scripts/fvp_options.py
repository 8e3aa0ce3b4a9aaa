# SPDX-License-Identifier: Apache-2.0
"""The command-line options the FVP comparison scripts (fvp_points.py, fvp_sweeps.py,
fvp_records.py) share: the npusim binary, the fixtures, the parallel runs and, where a script
compares two builds, the other build and its column's name."""

import os


def add_run_options(ap, before_help=None):
    """--npusim, --fixtures and -j; with `before_help`, also --before (that help) and --before-label."""
    ap.add_argument("--npusim", default="build/npusim")
    if before_help:
        ap.add_argument("--before", help=before_help)
        ap.add_argument("--before-label", default="before", help="that column's name (default: before)")
    ap.add_argument("--fixtures", default=os.environ.get("NPUSIM_FIXTURES", "../shared/fixtures"))
    ap.add_argument("-j", type=int, default=2, help="npusim processes at once (default: 2)")
