"""The ragtag kernel against jupyter_kernel_test, Jupyter's own protocol conformance tests.

Run by tests/jupyter/run_kernel_tests.sh, which installs the kernelspec first. Run as a script,
it ends with `kernel_tests: N passed, N failed, N skipped` (one count per test method).
"""

import sys
import unittest

import jupyter_kernel_test as jkt


class RagtagKernelTests(jkt.KernelTests):
    kernel_name = "ragtag"
    # The language is Python-shaped, and frontends highlight it as Python.
    language_name = "python"
    file_extension = ".py"

    code_hello_world = 'print("hello, world")'

    completion_samples = [
        # The kernel completes as the REPL does: the last name of a dotted path, replacing
        # from after its dot, with `(` for a callable.
        {"text": "tf.ragged.cons", "matches": {"constant("}},
        {"text": "ragged.cons", "matches": {"constant("}},
        {"text": ":form", "matches": {":format"}},
    ]

    complete_code_samples = ["1 + 2", "x = [1, 2]", ":vars"]
    incomplete_code_samples = ["x = [1,", "def f(x):", "print(1 +"]
    invalid_code_samples = ["x ]", "1 +* 2"]

    code_generate_error = 'raise ValueError("boom")'

    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "tf.ragged.constant([[1, 2], [3]]).shape", "result": "TensorShape([2, None])"},
        {"code": "tf.ragged.constant([[1, 2], [3]])", "mime": "text/html"},
        {"code": "tf.ragged.constant([[1, 2], [3]])", "mime": "application/vnd.ragtag+json"},
    ]

    # Every displayed value but the last becomes display_data.
    code_display_data = [
        {"code": "tf.constant([1, 2])\ntf.constant([3])", "mime": "text/html"},
    ]

    code_inspect_sample = "tf.ragged.constant"

    supported_history_operations = ("tail", "range", "search")
    # A glob over whole cells; jupyter_kernel_test leaves out `unique` and `n` in one search,
    # which the kernel must default (not drop the request).
    code_history_pattern = "1 + ?"


def method_id(test):
    """The test method a result belongs to (a subtest counts for its method)."""
    return getattr(test, "test_case", test).id()


def main():
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(RagtagKernelTests)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    bad = result.failures + result.errors + [(t, "") for t in result.unexpectedSuccesses]
    failed = {method_id(t) for t, _ in bad}
    skipped = {method_id(t) for t, _ in result.skipped} - failed
    passed = result.testsRun - len(failed) - len(skipped)
    print(f"kernel_tests: {passed} passed, {len(failed)} failed, {len(skipped)} skipped")
    sys.exit(0 if result.wasSuccessful() and result.testsRun else 1)


if __name__ == "__main__":
    main()
