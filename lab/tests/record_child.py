"""Child process for the kill test: records one run with very many samples, so that its
``record_run`` transaction is still going when the test kills the process.

    python record_child.py URL STUDY_ID PLANNED_SEQ SAMPLES
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rundata import terasort_result  # noqa: E402

from vivace_lab.store import Store  # noqa: E402


def main() -> None:
    url, study_id, seq, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    result = terasort_result(sample_count=1)
    result.samples = result.samples * count  # the same reading many times: cheap to build
    store = Store(url)
    print("recording", flush=True)
    store.record_run(result, study_id, seq)
    print("committed", flush=True)
    store.close()


if __name__ == "__main__":
    main()
