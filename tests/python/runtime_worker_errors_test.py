"""python/runtime_worker.py's verdict on a failed load: `unsupported` only when the runtime's own
package is missing here or the runtime says it has no kernel for the model; anything else that
went wrong fails the row with the runtime's own message. Run by ctest with Debian's Python."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import runtime_worker  # noqa: E402


def reply_to_load(runtime, error):
    return runtime_worker.error_reply({"op": "load", "runtime": runtime}, error)


class ImportErrors(unittest.TestCase):
    def test_the_runtime_not_installed_is_unsupported_and_names_the_fix(self):
        reply = reply_to_load("onnxruntime", ModuleNotFoundError(
            "No module named 'onnxruntime'", name="onnxruntime"))
        self.assertTrue(reply["unsupported"])
        self.assertIn("make peers-env", reply["error"])

    def test_a_part_of_the_runtime_missing_is_unsupported(self):
        reply = reply_to_load("torch_compile", ModuleNotFoundError(
            "No module named 'torch._inductor'", name="torch._inductor"))
        self.assertTrue(reply["unsupported"])

    def test_another_module_missing_fails(self):
        reply = reply_to_load("torch_compile", ModuleNotFoundError(
            "No module named 'traced_exporter'", name="traced_exporter"))
        self.assertFalse(reply["unsupported"])
        self.assertEqual(reply["error"], "ModuleNotFoundError: No module named 'traced_exporter'")

    def test_a_library_that_does_not_load_fails_with_its_message(self):
        reply = reply_to_load("onnxruntime", ImportError(
            "libonnxruntime.so.1: cannot open shared object file: No such file or directory"))
        self.assertFalse(reply["unsupported"])
        self.assertIn("cannot open shared object file", reply["error"])

    def test_an_import_error_outside_a_load_fails(self):
        reply = runtime_worker.error_reply(
            {"op": "run"}, ModuleNotFoundError("No module named 'onnxruntime'", name="onnxruntime"))
        self.assertFalse(reply["unsupported"])


class RuntimeErrors(unittest.TestCase):
    def test_no_kernel_for_an_op_is_unsupported(self):
        reply = reply_to_load("onnxruntime", RuntimeError(
            "[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for X"))
        self.assertTrue(reply["unsupported"])

    def test_anything_else_fails_with_the_runtimes_first_line(self):
        reply = reply_to_load("onnxruntime", RuntimeError(
            "[ONNXRuntimeError] : 1 : FAIL : Load model failed\nsecond line"))
        self.assertFalse(reply["unsupported"])
        self.assertEqual(reply["error"], "RuntimeError: [ONNXRuntimeError] : 1 : FAIL : Load model failed")


if __name__ == "__main__":
    unittest.main()
