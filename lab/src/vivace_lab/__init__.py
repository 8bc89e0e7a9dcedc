"""The Vivace lab: runs MapReduce workloads on Vivace and on its peers, side by side, and keeps
every run in a results database."""

__version__ = "0.1.0"
