"""models/learned/progress.py writes the lines support/progress.h does (the same cases as
tests/support/support_test.cpp's Progress tests).
    progress_test.py MODELS_LEARNED_DIR"""
import io
import sys
import unittest

sys.path.insert(0, sys.argv.pop(1))
from progress import Progress, progress_text  # noqa: E402


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class ProgressLines(unittest.TestCase):
    def test_text_says_share_elapsed_and_time_left(self):
        self.assertEqual(progress_text("collect", "10/40 samples", 0.25, 30),
                         "[collect] 10/40 samples  25%  0:30 elapsed, about 1:30 left")
        self.assertEqual(progress_text("search", "best 1 ms", 1.2, 3725), "[search] best 1 ms  100%  1:02:05 elapsed")
        self.assertEqual(progress_text("train", "epoch 0", 0, 1), "[train] epoch 0  0%  0:01 elapsed")
        self.assertEqual(progress_text("tune", "3 measured", -1, 59.6), "[tune] 3 measured  1:00 elapsed")

    def test_plain_lines_come_at_their_interval_and_at_the_end(self):
        clock, out = FakeClock(), io.StringIO()  # a StringIO is no terminal
        line = Progress("job", out, 10, clock)
        line.update(0.1, "a")  # within the first interval: dropped
        clock.t = 10
        line.update(0.2, "b")
        clock.t = 14
        line.update(0.3, "c")
        clock.t = 21
        line.update(0.5, "d")
        line.finish("done")
        self.assertEqual(out.getvalue(), "[job] b  20%  0:10 elapsed, about 0:40 left\n"
                                         "[job] d  50%  0:21 elapsed, about 0:21 left\n[job] done  0:21 elapsed\n")


if __name__ == "__main__":
    unittest.main()
