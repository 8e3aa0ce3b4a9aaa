# SPDX-License-Identifier: Apache-2.0
"""The command-line options the FVP comparison scripts (fvp_points.py, fvp_sweeps.py,
fvp_records.py) share: the npusim binary, the fixtures, the parallel runs and, where a script
compares two builds, the other build and its column's name; where it reports over several
values of npu.adapter_pulse_start, those values."""

import os


def add_run_options(ap, before_help=None):
    """--npusim, --fixtures and -j; with `before_help`, also --before (that help) and --before-label."""
    ap.add_argument("--npusim", default="build/npusim")
    if before_help:
        ap.add_argument("--before", help=before_help)
        ap.add_argument("--before-label", default="before", help="that column's name (default: before)")
    ap.add_argument("--fixtures", default=os.environ.get("NPUSIM_FIXTURES", "../shared/fixtures"))
    ap.add_argument("-j", type=int, default=2, help="npusim processes at once (default: 2)")


def add_pulse_starts_option(ap, what):
    """--pulse-starts: comma-separated npu.adapter_pulse_start values; `what` says what is reported over them."""
    ap.add_argument("--pulse-starts", help="comma-separated npu.adapter_pulse_start values: " + what)


def pulse_starts(ap, opts, excluded):
    """The --pulse-starts values (none without it); refuses a malformed list and, with it, any option of
    `excluded` (name -> given) the pulse-start table would ignore."""
    if not opts.pulse_starts:
        return []
    try:
        starts = [int(v) for v in opts.pulse_starts.split(",")]
    except ValueError:
        ap.error(f"--pulse-starts: '{opts.pulse_starts}' is not a comma-separated list of whole numbers of cycles")
    given = [name for name, value in excluded.items() if value]
    if given:
        ap.error("--pulse-starts prints its own table: it takes none of " + ", ".join(given))
    return starts
