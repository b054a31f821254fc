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

    # Matches replace the text from cursor_start, the start of the last name in a path, and
    # a function's match opens its call.
    completion_samples = [
        {"text": "tf.ragged.cons", "matches": {"constant("}},
        {"text": "ragged.cons", "matches": {"constant("}},
        {"text": ":form", "matches": {":format"}},
    ]

    complete_code_samples = ["1 + 2", "x = [1, 2]", ":vars"]
    incomplete_code_samples = ["x = [1,", "def f(x):", "print(1 +"]
    # As in Python's console, a dangling operator is invalid at once, not incomplete.
    invalid_code_samples = ["x ]", "1 +* 2", "1 +"]

    code_generate_error = 'raise ValueError("boom")'

    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "tf.ragged.constant([[1, 2], [3]]).shape", "result": "TensorShape([2, None])"},
        {"code": "tf.ragged.constant([[1, 2], [3]])", "mime": "text/html"},
        {"code": "tf.ragged.constant([[1, 2], [3]])", "mime": "application/vnd.ragtag+json"},
    ]

    # Every displayed value but the last becomes display_data, and so does display(x).
    code_display_data = [
        {"code": "tf.constant([1, 2])\ntf.constant([3])", "mime": "text/html"},
        {"code": "display(tf.ragged.constant([[1, 2], [3]]))", "mime": "text/html"},
        {"code": "display(3)", "mime": "text/plain"},
    ]

    code_stderr = 'import sys\nprint("to stderr", file=sys.stderr)'
    code_clear_output = "print(1)\nclear_output(wait=False)"
    # x? and x?? open the pager (an execute_reply payload); test_pager takes one. help(x)
    # prints, as IPython's does.
    code_page_something = "tf.ragged.constant?"

    code_inspect_sample = "tf.ragged.constant"

    supported_history_operations = ("tail", "range", "search")
    # A glob over whole cells; jupyter_kernel_test leaves out `unique` and `n` in one search,
    # which the kernel must default (not drop the request).
    code_history_pattern = "1 + ?"

    # Beyond jupyter_kernel_test: IPython's help queries, is_complete's indent, inspecting a
    # value, and history search by glob.

    def test_help_queries_open_the_pager(self):
        self.flush_channels()
        reply, _ = self.execute_helper("rt = tf.ragged.constant([[1, 2], [3]])")
        self.assertEqual(reply["content"]["status"], "ok")
        for code, needle in [
            ("rt?", "RaggedTensor  dtype=int32"),
            ("rt??", "row_splits"),
            ("tf.ragged.constant?", "constant("),
        ]:
            with self.subTest(code=code):
                reply, outputs = self.execute_helper(code)
                self.assertEqual(reply["content"]["status"], "ok")
                payloads = reply["content"]["payload"]
                self.assertEqual([p["source"] for p in payloads], ["page"])
                self.assertEqual(payloads[0]["start"], 0)
                self.assertIn(needle, payloads[0]["data"]["text/plain"])
                streams = [m for m in outputs if m["msg_type"] == "stream"]
                self.assertEqual(streams, [], "a help page is not printed too")

    def test_help_prints_its_page(self):
        self.flush_channels()
        for code, needle in [("help(tf.ragged.constant)", "Examples:")]:
            with self.subTest(code=code):
                reply, outputs = self.execute_helper(code)
                self.assertEqual(reply["content"]["status"], "ok")
                self.assertEqual(reply["content"]["payload"], [])
                streams = [m["content"] for m in outputs if m["msg_type"] == "stream"]
                self.assertEqual([s["name"] for s in streams], ["stdout"])
                self.assertIn(needle, streams[0]["text"])

    def test_is_complete_suggests_the_indent(self):
        for code, indent in [("for i in range(3):", "    "), ("if x:\n    y = [1,", "    ")]:
            with self.subTest(code=code):
                self.kc.is_complete(code)
                reply = self.get_non_kernel_info_reply()
                self.assertEqual(reply["content"]["status"], "incomplete")
                self.assertEqual(reply["content"]["indent"], indent)

    def test_inspect_a_value_shows_its_header_and_storage(self):
        self.flush_channels()
        self.execute_helper("xs = tf.ragged.constant([[1, 2], [3]])")
        self.kc.inspect("xs", 2)
        reply = self.get_non_kernel_info_reply()
        self.assertTrue(reply["content"]["found"])
        text = reply["content"]["data"]["text/plain"]
        self.assertIn("RaggedTensor  dtype=int32", text)
        self.assertIn("row_splits", text)

    def test_history_search_by_glob(self):
        self.flush_channels()
        self.execute_helper("needle_1 = 1")
        self.execute_helper("hay = 0")
        self.execute_helper("needle_2 = 2")
        self.kc.history(hist_access_type="search", pattern="needle_? = *", output=False,
                        raw=True, n=10, unique=True)
        reply = self.get_non_kernel_info_reply()
        sources = [entry[2] for entry in reply["content"]["history"]]
        self.assertEqual(sources, ["needle_1 = 1", "needle_2 = 2"])


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
