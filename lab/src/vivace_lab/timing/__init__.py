"""The lab's timing mode, `vivace lab bench` (and `bench/run`, its front): two systems side by side,
run after run on the same input, each repeat reversing who goes first, and a table of their ratios.

It is a study like any other: its workloads are the driver's (plus a few whole programs of its own,
``programs``), its engines the lab's (``vivace`` against ``hadoop-local``, against a baseline
revision built in a git worktree, ``baseline``; or, on a mini-cluster, ``vivace-yarn`` against
``hadoop-yarn``), its runs go to the lab's store, and its report is the lab's with the ratio table
of ``report/ratios.py`` on the terminal.
"""
