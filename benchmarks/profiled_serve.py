"""``talon serve`` with pyinstrument ready to profile a stretch of its life (``load.py --profile``).

    python benchmarks/profiled_serve.py REPORT [talon serve arguments...]

SIGUSR1 starts the profiler in the event loop's thread and SIGUSR2 stops it and writes the
report to REPORT (text when it ends in ``.txt``, else HTML), so a benchmark profiles only the
phase it measures (the play, not the set-up). pyinstrument samples the Python stack every
millisecond; the committer's thread is not sampled (its cost shows as the loop's waits).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from types import FrameType

from pyinstrument import Profiler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.cli import main


def profile_on_signals(report: Path) -> None:
    """SIGUSR1: start profiling; SIGUSR2: stop and write ``report``."""
    # "disabled": the whole thread, not only the task that happens to run when SIGUSR1 comes.
    profiler = Profiler(interval=0.001, async_mode="disabled")

    def start(signum: int, frame: FrameType | None) -> None:
        if not profiler.is_running:
            profiler.start()

    def stop(signum: int, frame: FrameType | None) -> None:
        if not profiler.is_running:
            return
        profiler.stop()
        text = profiler.output_text(unicode=True, show_all=False)
        html = report.suffix != ".txt"
        report.write_text(profiler.output_html() if html else text)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)


if __name__ == "__main__":
    profile_on_signals(Path(sys.argv[1]))
    sys.argv = ["talon", *sys.argv[2:]]
    sys.exit(main())
