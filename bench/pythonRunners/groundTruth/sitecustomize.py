# Ground truth for bench/pythonRunners/measure.py (on PYTHONPATH, with GT_OUT set): records unittest's own result
# objects — which tests failed, errored, had a failing subtest, or did not import — by the module's real file, and
# keeps a copy of what unittest printed on stderr so the same bytes can be replayed to another build of Greenloop.
import atexit, json, os, sys

OUT = os.environ.get("GT_OUT")
if OUT:
    import unittest.result as ur
    failed, load_errors = set(), set()
    tee = open(OUT + ".stderr.txt", "w")
    real = sys.stderr

    class Tee:
        def write(self, s):
            tee.write(s)
            return real.write(s)
        def flush(self):
            tee.flush(); real.flush()
        def __getattr__(self, n):
            return getattr(real, n)
    sys.stderr = Tee()

    def ident(test):
        cls = type(test)
        if cls.__name__ == "_FailedTest":
            return None
        if cls.__name__ == "_ErrorHolder":  # setUpClass (mod.Class)
            desc = test.description
            name, _, owner = desc.partition(" (")
            owner = owner.rstrip(")")
            mod, _, klass = owner.rpartition(".")
            f = sys.modules[mod].__file__ if mod in sys.modules else owner
            return " > ".join([os.path.relpath(f), klass, name])
        f = sys.modules[cls.__module__].__file__
        return " > ".join([os.path.relpath(f), cls.__qualname__, test._testMethodName])

    def note(test):
        i = ident(test)
        if i is None:
            load_errors.add(type(test).__name__ + ":" + test._testMethodName)
        else:
            failed.add(i)

    for name in ("addFailure", "addError", "addUnexpectedSuccess"):
        orig = getattr(ur.TestResult, name)
        def wrap(self, test, *a, _orig=orig):
            note(test)
            return _orig(self, test, *a)
        setattr(ur.TestResult, name, wrap)
    orig_sub = ur.TestResult.addSubTest
    def add_sub(self, test, subtest, err):
        if err is not None:
            note(test)
        return orig_sub(self, test, subtest, err)
    ur.TestResult.addSubTest = add_sub

    @atexit.register
    def dump():
        tee.close()
        json.dump({"failing": sorted(failed), "loadErrors": sorted(load_errors)}, open(OUT, "w"), indent=1)
