"""Lithium interestingness module with treereduce's oracle contract.

Usage: python -m lithium [options] /path/to/lithium_exit0.py COMMAND [ARGS...] TESTCASE

Lithium writes each candidate into TESTCASE itself, so the command is run as given, with
TESTCASE's path as its last argument; the candidate is interesting iff the command exits 0.
"""
import subprocess


def interesting(cli_args, temp_prefix):  # pylint: disable=unused-argument
    """True iff the command exits with status 0."""
    done = subprocess.run(cli_args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return done.returncode == 0
