//! What each exception class is for, in words and as a program that raises it: the error
//! catalogue's text (`:help errors`, docs/errors.snap.md), kept beside the classes.

use crate::exceptions::ExceptionClass;
use crate::exceptions::ExceptionClass as C;

impl ExceptionClass {
    /// A short ragtag program that raises this class — for a base class, one of its
    /// subclasses (see [`ExceptionClass::is_base`]); a test runs every one.
    pub fn example(self) -> &'static str {
        match self {
            C::BaseException | C::KeyboardInterrupt => "raise KeyboardInterrupt",
            C::FloatingPointError => "raise FloatingPointError('underflow')",
            C::NotImplementedError => "raise NotImplementedError('subclasses define area()')",
            C::FileExistsError => "raise FileExistsError('out.parquet')",
            C::NotADirectoryError => "raise NotADirectoryError('data.csv/part')",
            C::TimeoutError => "raise TimeoutError('no answer')",
            C::MemoryError => "raise MemoryError",
            C::StopAsyncIteration => "raise StopAsyncIteration",
            C::SystemError => "raise SystemError('bad call')",
            C::Warning => "raise Warning('check the input')",
            C::UserWarning => "raise UserWarning('odd value')",
            C::DeprecationWarning => "raise DeprecationWarning('use f2')",
            C::FutureWarning => "raise FutureWarning('will change')",
            C::RuntimeWarning => "raise RuntimeWarning('overflow')",
            C::UnicodeTranslateError => "raise UnicodeTranslateError('x', 0, 1, 'no mapping')",
            C::BlockingIOError => "raise BlockingIOError('would block')",
            C::ChildProcessError => "raise ChildProcessError('no child')",
            C::ConnectionError => "raise ConnectionError('network down')",
            C::BrokenPipeError => "raise BrokenPipeError('pipe closed')",
            C::ConnectionAbortedError => "raise ConnectionAbortedError('aborted')",
            C::ConnectionRefusedError => "raise ConnectionRefusedError('refused')",
            C::ConnectionResetError => "raise ConnectionResetError('reset')",
            C::InterruptedError => "raise InterruptedError('interrupted')",
            C::ProcessLookupError => "raise ProcessLookupError('no such process')",
            C::BufferError => "raise BufferError('buffer in use')",
            C::ReferenceError => "raise ReferenceError('object gone')",
            C::PendingDeprecationWarning => "raise PendingDeprecationWarning('use g')",
            C::SyntaxWarning => "raise SyntaxWarning('is with a literal')",
            C::ImportWarning => "raise ImportWarning('shadowed')",
            C::UnicodeWarning => "raise UnicodeWarning('mixed')",
            C::BytesWarning => "raise BytesWarning('str() on bytes')",
            C::ResourceWarning => "raise ResourceWarning('unclosed file')",
            C::EncodingWarning => "raise EncodingWarning('no encoding')",
            C::Exception | C::IndexError => "[1, 2][5]",
            C::ValueError => "a, b = [1, 2, 3]",
            C::AxisError => "np.sum(np.zeros([2, 3]), axis=2)",
            C::TypeError => "1 + 'a'",
            C::NameError => "undefined_name",
            C::UnboundLocalError => "n = 0\ndef f():\n    n += 1\nf()",
            C::AttributeError => "tf.nope",
            C::SyntaxError => "1 +",
            C::IndentationError => "if True:\nx = 1",
            C::TabError => "if True:\n\tx = 1\n        y = 2",
            C::AssertionError => "assert 1 == 2",
            C::EOFError => "input()",
            C::LookupError | C::KeyError => "{}['a']",
            C::ArithmeticError | C::ZeroDivisionError => "1 / 0",
            C::OverflowError => "float(10 ** 400)",
            C::RuntimeError => "raise",
            C::RecursionError => "f = lambda n: f(n)\nf(1)",
            C::ImportError | C::ModuleNotFoundError => "import pandas",
            C::OSError => "raise OSError('No space left on device')",
            C::FileNotFoundError => "np.load('no_such_file.npy')",
            C::PermissionError => "raise PermissionError('/proc/version')",
            C::IsADirectoryError => "raise IsADirectoryError('.')",
            C::OpError | C::InvalidArgumentError => "tf.constant([1, 2]) // 0",
            C::NotFoundError => "tf.range(3, dtype=tf.uint8)",
            C::ResourceExhaustedError => "tf.zeros([100000, 100000, 100000])",
            C::UnimplementedError => {
                "tf.linalg.matmul(tf.ones([1, 1], tf.int8), tf.ones([1, 1], tf.int8), output_type=tf.int64)"
            }
            C::FailedPreconditionError => {
                "tf.linalg.cross(tf.constant([1, 0]), tf.constant([0, 1]))"
            }
            C::OutOfRangeError => "tf.foldl(lambda a, x: a + x, tf.constant([], tf.int32))",
            C::UnknownError => "tf.py_function(lambda x: 1 / 0, [1], tf.float32)",
            C::InternalError => "raise tf.errors.InternalError('bug')",
            C::StopIteration => "next(iter([]))",
            C::GeneratorExit => "raise GeneratorExit",
            C::UnicodeError | C::UnicodeDecodeError => "b'\\xff'.decode()",
            C::UnicodeEncodeError => "'é'.encode('ascii')",
            C::SystemExit => "raise SystemExit(2)",
        }
    }

    /// One line: when ragtag raises this class.
    pub fn summary(self) -> &'static str {
        match self {
            C::BaseException => {
                "the root of every exception; `except BaseException` also catches interrupts"
            }
            C::Exception => "every error but KeyboardInterrupt",
            C::ValueError => {
                "a bad value for an argument: mixed literal types, bad partitions, unpacking"
            }
            C::AxisError => "a NumPy axis out of range for the array (also an IndexError)",
            C::TypeError => "a value of the wrong kind or dtype",
            C::NameError => "an unknown name",
            C::UnboundLocalError => "a function's local variable read before it is assigned",
            C::AttributeError => "an unknown attribute, method or module member",
            C::SyntaxError => "input that does not parse",
            C::IndentationError => "a block's lines not indented as its header needs",
            C::TabError => "a block indented with tabs on some lines and spaces on others",
            C::AssertionError => "a failed `assert` statement",
            C::EOFError => "`input()` with no line left to read",
            C::LookupError => "a missing index or key (IndexError, KeyError)",
            C::IndexError => "a row or element index out of range",
            C::KeyError => "a missing dictionary key",
            C::ArithmeticError => {
                "a failed Python number operation (ZeroDivisionError, OverflowError)"
            }
            C::ZeroDivisionError => "Python scalar division by zero",
            C::OverflowError => "a Python int result past 64 bits (ragtag's ints are int64)",
            C::RuntimeError => "anything else, such as `raise` with no active exception",
            C::RecursionError => "calls or expressions nested past the recursion limit",
            C::ImportError => "a failed import (ModuleNotFoundError)",
            C::ModuleNotFoundError => "an `import` of a module ragtag does not provide",
            C::OSError => "a file that could not be read or written",
            C::FileNotFoundError => "a file or directory that does not exist",
            C::PermissionError => "the system refused access to a file",
            C::IsADirectoryError => "a directory where a file was expected",
            C::KeyboardInterrupt => "the evaluation was interrupted",
            C::OpError => "the base of TensorFlow's op errors",
            C::InvalidArgumentError => {
                "an op's inputs do not fit: shapes, sparse indices, integer division by zero"
            }
            C::NotFoundError => "TensorFlow has the op but no kernel for the dtype",
            C::ResourceExhaustedError => "the memory budget would be exceeded",
            C::UnimplementedError => "a case ragtag does not implement",
            C::FailedPreconditionError => "an op's inputs are not of the form it is defined for",
            C::OutOfRangeError => "a read past the end of a sequence",
            C::UnknownError => "an error raised inside a Python function an op runs",
            C::InternalError => "a bug in ragtag, caught before it could harm the session",
            C::StopIteration => "`next()` of an iterator that has no items left",
            C::GeneratorExit => "raised inside a generator that is being closed",
            C::FloatingPointError => {
                "a failed floating-point operation (raised by code, not by Python)"
            }
            C::NotImplementedError => "a method that a subclass must define",
            C::FileExistsError => "a file or directory that already exists",
            C::NotADirectoryError => "a file where a directory was expected",
            C::TimeoutError => "an operation that ran out of time",
            C::MemoryError => {
                "memory ran out (ragtag's budget raises ResourceExhaustedError first)"
            }
            C::StopAsyncIteration => "an asynchronous iterator that has no items left",
            C::SystemError => "an internal error of the interpreter (raised by code)",
            C::Warning => "the base of the warning categories, raised as an exception",
            C::UserWarning => "the default warning category",
            C::DeprecationWarning => "a deprecated feature",
            C::FutureWarning => "a behaviour that will change",
            C::RuntimeWarning => "a doubtful runtime behaviour",
            C::UnicodeTranslateError => "a character a codec cannot translate",
            C::BlockingIOError => "an operation that would block a non-blocking stream",
            C::ChildProcessError => "a failed operation on a child process",
            C::ConnectionError => "a connection problem (the base of the connection errors)",
            C::BrokenPipeError => "a write to a pipe or socket whose other end closed",
            C::ConnectionAbortedError => "a connection the peer aborted",
            C::ConnectionRefusedError => "a connection the peer refused",
            C::ConnectionResetError => "a connection the peer reset",
            C::InterruptedError => "a system call interrupted by a signal",
            C::ProcessLookupError => "a process that does not exist",
            C::BufferError => "a buffer operation that cannot be done",
            C::ReferenceError => "a weak reference whose object is gone",
            C::PendingDeprecationWarning => "a feature that will be deprecated",
            C::SyntaxWarning => "doubtful syntax",
            C::ImportWarning => "a doubtful module import",
            C::UnicodeWarning => "a doubtful Unicode operation",
            C::BytesWarning => "a doubtful bytes operation",
            C::ResourceWarning => "a resource left open",
            C::EncodingWarning => "text opened without an encoding",
            C::UnicodeError => "text a codec cannot encode or decode",
            C::UnicodeDecodeError => "bytes that are not text in the codec",
            C::UnicodeEncodeError => "a character the codec has no bytes for",
            C::SystemExit => "`sys.exit()`: `ragtag run` ends with its status, a session goes on",
        }
    }
}
