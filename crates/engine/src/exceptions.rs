//! Python's and TensorFlow's exception classes as users write them in `raise` and
//! `except`: the classes, their hierarchy as data, and the exception values `except … as e`
//! binds.

use std::fmt;

/// An exception class a ragtag program can raise, catch or name: every class ragtag raises
/// plus the base classes users write in `except` (`Exception`, `LookupError`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExceptionClass {
    /// `BaseException`: the root of every exception; raised here through a subclass that
    /// `Exception` does not catch, e.g. `raise KeyboardInterrupt`.
    BaseException,
    /// `Exception`: every error but `KeyboardInterrupt`, e.g. `[1, 2][5]` (an IndexError).
    Exception,
    /// `ValueError`: a bad value for an argument (mixed literal types, bad partitions,
    /// unpacking), e.g. `a, b = [1, 2, 3]`.
    ValueError,
    /// NumPy's `AxisError`: an axis out of range for the array's dimensions; a ValueError
    /// that `except IndexError` also catches, as in NumPy.
    AxisError,
    /// `TypeError`: a value of the wrong kind or dtype, e.g. `1 + 'a'`.
    TypeError,
    /// `NameError`: an unknown name, e.g. `undefined_name`.
    NameError,
    /// `UnboundLocalError`: a function's local variable read before it is assigned, e.g.
    /// `n += 1` in a function body where `n` is a global.
    UnboundLocalError,
    /// `AttributeError`: an unknown attribute or method, e.g. `tf.nope`.
    AttributeError,
    /// `SyntaxError`: input that does not parse, e.g. `1 +`.
    SyntaxError,
    /// `IndentationError`: a block's lines are not indented as its header needs, e.g.
    /// `if True:` followed by an unindented `x = 1`.
    IndentationError,
    /// `TabError`: one block indented with tabs on some lines and spaces on others, e.g.
    /// `if True:` then a tab-indented and a space-indented line.
    TabError,
    /// `AssertionError`: a failed `assert` statement, e.g. `assert 1 == 2`.
    AssertionError,
    /// `EOFError`: `input()` with no line left to read (standard input at its end, or none
    /// at all, as in a transcript), e.g. `input()`.
    EOFError,
    /// `LookupError`: a missing index or key; raised through its subclasses, e.g. `{}['a']`
    /// (a KeyError).
    LookupError,
    /// `IndexError`: a row or element index out of range, e.g. `[1, 2][5]`.
    IndexError,
    /// `KeyError`: a missing dictionary key, e.g. `{}['a']`.
    KeyError,
    /// `ArithmeticError`: a failed Python number operation; raised through its subclasses,
    /// e.g. `1 / 0` (a ZeroDivisionError).
    ArithmeticError,
    /// `ZeroDivisionError`: Python scalar division by zero, e.g. `1 / 0`.
    ZeroDivisionError,
    /// `OverflowError`: a Python int result past 64 bits (ragtag's ints are int64), e.g.
    /// `2 ** 64`.
    OverflowError,
    /// `RuntimeError`: anything else, e.g. `raise` with no active exception.
    RuntimeError,
    /// `RecursionError`: calls or expressions nested past the recursion limit, e.g.
    /// `f = lambda n: f(n)` then `f(1)`.
    RecursionError,
    /// `ImportError`: a failed import; raised through its subclass, e.g. `import pandas`
    /// (a ModuleNotFoundError).
    ImportError,
    /// `ModuleNotFoundError`: an `import` of a module ragtag does not provide, e.g.
    /// `import pandas`.
    ModuleNotFoundError,
    /// `OSError`: a file could not be read or written; raised through its subclasses or
    /// for other system errors, e.g. `np.load('no_such_file.npy')` (a FileNotFoundError).
    OSError,
    /// `FileNotFoundError`: a file or directory that does not exist, e.g.
    /// `np.load('no_such_file.npy')`.
    FileNotFoundError,
    /// `PermissionError`: the system refused access to a file, e.g. writing into a
    /// read-only directory.
    PermissionError,
    /// `IsADirectoryError`: a directory where a file was expected, e.g. `np.load('.')`.
    IsADirectoryError,
    /// `KeyboardInterrupt`: the evaluation was interrupted (Ctrl-C, a Jupyter interrupt),
    /// e.g. `raise KeyboardInterrupt`.
    KeyboardInterrupt,
    /// `tf.errors.OpError`: the base of TensorFlow's op errors; raised through its
    /// subclasses, e.g. `tf.constant([1, 2]) // 0` (an InvalidArgumentError).
    OpError,
    /// `tf.errors.InvalidArgumentError`: an op's inputs do not fit (shapes, sparse
    /// indices, integer division by zero), e.g. `tf.constant([1, 2]) // 0`.
    InvalidArgumentError,
    /// `tf.errors.NotFoundError`: TensorFlow has the op but no kernel for the dtype, e.g.
    /// `tf.range(3, dtype=tf.uint8)`.
    NotFoundError,
    /// `tf.errors.ResourceExhaustedError`: the memory budget would be exceeded, e.g.
    /// `tf.zeros([100000, 100000, 100000])`.
    ResourceExhaustedError,
    /// `tf.errors.UnimplementedError`: a case TensorFlow (or ragtag) has no kernel for, e.g.
    /// `tf.linalg.matmul(tf.ones([1, 1], tf.int8), tf.ones([1, 1], tf.int8), output_type=tf.int64)`.
    UnimplementedError,
    /// `tf.errors.FailedPreconditionError`: the op cannot run on inputs of this form, e.g.
    /// `tf.linalg.cross(tf.constant([1, 0]), tf.constant([0, 1]))` (not 3-element vectors).
    FailedPreconditionError,
    /// `tf.errors.OutOfRangeError`: a read past the end, e.g. `tf.foldl(lambda a, x: a + x,
    /// tf.constant([], tf.int32))` (no first element to start from).
    OutOfRangeError,
    /// `tf.errors.UnknownError`: an error of another kind raised inside a Python function an
    /// op runs, e.g. `tf.py_function(lambda x: 1 / 0, [1], tf.float32)`.
    UnknownError,
    /// `tf.errors.InternalError`: a bug in ragtag (a panic caught at the evaluation guard);
    /// no correct input triggers it, so the example raises it by hand:
    /// `raise tf.errors.InternalError('bug')`.
    InternalError,
    /// `StopIteration`: `next()` of an iterator with nothing left, e.g. `next(iter([]))`.
    StopIteration,
    /// `GeneratorExit`: raised inside a generator when it is closed (`g.close()`); it
    /// derives from BaseException, so `except Exception` does not catch it.
    GeneratorExit,
    /// `UnicodeError`: text that a codec cannot encode or decode (a ValueError); raised
    /// through its subclasses, e.g. `b'\\xff'.decode()` (a UnicodeDecodeError).
    UnicodeError,
    /// `UnicodeDecodeError`: bytes that are not text in the codec, e.g. `b'\\xff'.decode()`.
    UnicodeDecodeError,
    /// `UnicodeEncodeError`: a character the codec has no bytes for, e.g.
    /// `'é'.encode('ascii')`.
    UnicodeEncodeError,
    /// `SystemExit`: `sys.exit()` or `raise SystemExit(code)`; it derives from
    /// BaseException, so `except Exception` does not catch it, and `ragtag run` ends with
    /// its exit status, e.g. `sys.exit(2)`.
    SystemExit,
    /// `FloatingPointError`: a failed floating-point operation; Python itself never raises it, code may: `raise FloatingPointError('underflow')`.
    FloatingPointError,
    /// `NotImplementedError`: a method a subclass must define, e.g. `raise NotImplementedError('subclasses define area()')`.
    NotImplementedError,
    /// `FileExistsError`: a file that should not exist yet does, e.g. `raise FileExistsError('out.parquet')`.
    FileExistsError,
    /// `NotADirectoryError`: a file where a directory was expected, e.g. `raise NotADirectoryError('data.csv/part')`.
    NotADirectoryError,
    /// `TimeoutError`: an operation that ran out of time, e.g. `raise TimeoutError('no answer')`.
    TimeoutError,
    /// `MemoryError`: memory ran out; ragtag's budget raises tf.errors.ResourceExhaustedError first, so the example raises it by hand: `raise MemoryError`.
    MemoryError,
    /// `StopAsyncIteration`: an asynchronous iterator with nothing left, e.g. `raise StopAsyncIteration`.
    StopAsyncIteration,
    /// `SystemError`: an internal error of the interpreter as Python names it, e.g. `raise SystemError('bad call')`.
    SystemError,
    /// `Warning`: the base of the warning categories, also raised as an exception, e.g. `raise Warning('check the input')`.
    Warning,
    /// `UserWarning`: the default warning category, e.g. `raise UserWarning('odd value')`.
    UserWarning,
    /// `DeprecationWarning`: a deprecated feature, e.g. `raise DeprecationWarning('use f2')`.
    DeprecationWarning,
    /// `FutureWarning`: a behaviour that will change, e.g. `raise FutureWarning('will change')`.
    FutureWarning,
    /// `RuntimeWarning`: a doubtful runtime behaviour, e.g. `raise RuntimeWarning('overflow')`.
    RuntimeWarning,
    /// `UnicodeTranslateError`: a character `str.translate`-style codecs cannot map, e.g. `raise UnicodeTranslateError('x', 0, 1, 'no mapping')`.
    UnicodeTranslateError,
    /// `BlockingIOError`: an operation that would block a non-blocking stream, e.g. `raise BlockingIOError('would block')`.
    BlockingIOError,
    /// `ChildProcessError`: a failed operation on a child process, e.g. `raise ChildProcessError('no child')`.
    ChildProcessError,
    /// `ConnectionError`: a connection problem; the base of the connection errors, e.g. `raise ConnectionError('network down')`.
    ConnectionError,
    /// `BrokenPipeError`: a write to a pipe or socket whose other end closed, e.g. `raise BrokenPipeError('pipe closed')`.
    BrokenPipeError,
    /// `ConnectionAbortedError`: a connection the peer aborted, e.g. `raise ConnectionAbortedError('aborted')`.
    ConnectionAbortedError,
    /// `ConnectionRefusedError`: a connection the peer refused, e.g. `raise ConnectionRefusedError('refused')`.
    ConnectionRefusedError,
    /// `ConnectionResetError`: a connection the peer reset, e.g. `raise ConnectionResetError('reset')`.
    ConnectionResetError,
    /// `InterruptedError`: a system call interrupted by a signal, e.g. `raise InterruptedError('interrupted')`.
    InterruptedError,
    /// `ProcessLookupError`: a process that does not exist, e.g. `raise ProcessLookupError('no such process')`.
    ProcessLookupError,
    /// `BufferError`: a buffer operation that cannot be done, e.g. `raise BufferError('buffer in use')`.
    BufferError,
    /// `ReferenceError`: a weak reference whose object is gone, e.g. `raise ReferenceError('object gone')`.
    ReferenceError,
    /// `PendingDeprecationWarning`: a feature that will be deprecated, e.g. `raise PendingDeprecationWarning('use g')`.
    PendingDeprecationWarning,
    /// `SyntaxWarning`: doubtful syntax, e.g. `raise SyntaxWarning('is with a literal')`.
    SyntaxWarning,
    /// `ImportWarning`: a doubtful module import, e.g. `raise ImportWarning('shadowed')`.
    ImportWarning,
    /// `UnicodeWarning`: a doubtful Unicode operation, e.g. `raise UnicodeWarning('mixed')`.
    UnicodeWarning,
    /// `BytesWarning`: a doubtful bytes operation, e.g. `raise BytesWarning('str() on bytes')`.
    BytesWarning,
    /// `ResourceWarning`: a resource left open, e.g. `raise ResourceWarning('unclosed file')`.
    ResourceWarning,
    /// `EncodingWarning`: text opened without an encoding, e.g. `raise EncodingWarning('no encoding')`.
    EncodingWarning,
}

use ExceptionClass as C;

impl ExceptionClass {
    /// Every class, each base class followed by the classes under it (the catalogue's
    /// order: a tree read top to bottom).
    pub const ALL: [ExceptionClass; 75] = [
        C::BaseException,
        C::Exception,
        C::ValueError,
        C::AxisError,
        C::UnicodeError,
        C::UnicodeDecodeError,
        C::UnicodeEncodeError,
        C::UnicodeTranslateError,
        C::TypeError,
        C::NameError,
        C::UnboundLocalError,
        C::AttributeError,
        C::SyntaxError,
        C::IndentationError,
        C::TabError,
        C::AssertionError,
        C::EOFError,
        C::LookupError,
        C::IndexError,
        C::KeyError,
        C::ArithmeticError,
        C::ZeroDivisionError,
        C::OverflowError,
        C::FloatingPointError,
        C::RuntimeError,
        C::RecursionError,
        C::NotImplementedError,
        C::ImportError,
        C::ModuleNotFoundError,
        C::OSError,
        C::FileNotFoundError,
        C::PermissionError,
        C::IsADirectoryError,
        C::FileExistsError,
        C::NotADirectoryError,
        C::TimeoutError,
        C::BlockingIOError,
        C::ChildProcessError,
        C::ConnectionError,
        C::BrokenPipeError,
        C::ConnectionAbortedError,
        C::ConnectionRefusedError,
        C::ConnectionResetError,
        C::InterruptedError,
        C::ProcessLookupError,
        C::OpError,
        C::InvalidArgumentError,
        C::NotFoundError,
        C::ResourceExhaustedError,
        C::UnimplementedError,
        C::FailedPreconditionError,
        C::OutOfRangeError,
        C::UnknownError,
        C::InternalError,
        C::StopIteration,
        C::MemoryError,
        C::StopAsyncIteration,
        C::SystemError,
        C::BufferError,
        C::ReferenceError,
        C::Warning,
        C::UserWarning,
        C::DeprecationWarning,
        C::FutureWarning,
        C::RuntimeWarning,
        C::PendingDeprecationWarning,
        C::SyntaxWarning,
        C::ImportWarning,
        C::UnicodeWarning,
        C::BytesWarning,
        C::ResourceWarning,
        C::EncodingWarning,
        C::KeyboardInterrupt,
        C::GeneratorExit,
        C::SystemExit,
    ];

    /// The class name as Python prints it (without `tf.errors.`).
    pub fn name(self) -> &'static str {
        match self {
            C::BaseException => "BaseException",
            C::FloatingPointError => "FloatingPointError",
            C::NotImplementedError => "NotImplementedError",
            C::FileExistsError => "FileExistsError",
            C::NotADirectoryError => "NotADirectoryError",
            C::TimeoutError => "TimeoutError",
            C::MemoryError => "MemoryError",
            C::StopAsyncIteration => "StopAsyncIteration",
            C::SystemError => "SystemError",
            C::Warning => "Warning",
            C::UserWarning => "UserWarning",
            C::DeprecationWarning => "DeprecationWarning",
            C::FutureWarning => "FutureWarning",
            C::RuntimeWarning => "RuntimeWarning",
            C::UnicodeTranslateError => "UnicodeTranslateError",
            C::BlockingIOError => "BlockingIOError",
            C::ChildProcessError => "ChildProcessError",
            C::ConnectionError => "ConnectionError",
            C::BrokenPipeError => "BrokenPipeError",
            C::ConnectionAbortedError => "ConnectionAbortedError",
            C::ConnectionRefusedError => "ConnectionRefusedError",
            C::ConnectionResetError => "ConnectionResetError",
            C::InterruptedError => "InterruptedError",
            C::ProcessLookupError => "ProcessLookupError",
            C::BufferError => "BufferError",
            C::ReferenceError => "ReferenceError",
            C::PendingDeprecationWarning => "PendingDeprecationWarning",
            C::SyntaxWarning => "SyntaxWarning",
            C::ImportWarning => "ImportWarning",
            C::UnicodeWarning => "UnicodeWarning",
            C::BytesWarning => "BytesWarning",
            C::ResourceWarning => "ResourceWarning",
            C::EncodingWarning => "EncodingWarning",
            C::Exception => "Exception",
            C::ValueError => "ValueError",
            C::AxisError => "AxisError",
            C::TypeError => "TypeError",
            C::NameError => "NameError",
            C::UnboundLocalError => "UnboundLocalError",
            C::AttributeError => "AttributeError",
            C::SyntaxError => "SyntaxError",
            C::IndentationError => "IndentationError",
            C::TabError => "TabError",
            C::AssertionError => "AssertionError",
            C::EOFError => "EOFError",
            C::LookupError => "LookupError",
            C::IndexError => "IndexError",
            C::KeyError => "KeyError",
            C::ArithmeticError => "ArithmeticError",
            C::ZeroDivisionError => "ZeroDivisionError",
            C::OverflowError => "OverflowError",
            C::RuntimeError => "RuntimeError",
            C::RecursionError => "RecursionError",
            C::ImportError => "ImportError",
            C::ModuleNotFoundError => "ModuleNotFoundError",
            C::OSError => "OSError",
            C::FileNotFoundError => "FileNotFoundError",
            C::PermissionError => "PermissionError",
            C::IsADirectoryError => "IsADirectoryError",
            C::KeyboardInterrupt => "KeyboardInterrupt",
            C::OpError => "OpError",
            C::InvalidArgumentError => "InvalidArgumentError",
            C::NotFoundError => "NotFoundError",
            C::ResourceExhaustedError => "ResourceExhaustedError",
            C::UnimplementedError => "UnimplementedError",
            C::FailedPreconditionError => "FailedPreconditionError",
            C::OutOfRangeError => "OutOfRangeError",
            C::UnknownError => "UnknownError",
            C::InternalError => "InternalError",
            C::StopIteration => "StopIteration",
            C::GeneratorExit => "GeneratorExit",
            C::UnicodeError => "UnicodeError",
            C::UnicodeDecodeError => "UnicodeDecodeError",
            C::UnicodeEncodeError => "UnicodeEncodeError",
            C::SystemExit => "SystemExit",
        }
    }

    /// The exception class users see: the same as [`ExceptionClass::name`].
    pub fn class_name(self) -> &'static str {
        self.name()
    }

    /// The class this one derives from, as in Python and TensorFlow; `None` for
    /// `BaseException`.
    pub fn parent(self) -> Option<Self> {
        Some(match self {
            C::BaseException => return None,
            C::FloatingPointError => C::ArithmeticError,
            C::NotImplementedError => C::RuntimeError,
            C::FileExistsError => C::OSError,
            C::NotADirectoryError => C::OSError,
            C::TimeoutError => C::OSError,
            C::MemoryError => C::Exception,
            C::StopAsyncIteration => C::Exception,
            C::SystemError => C::Exception,
            C::Warning => C::Exception,
            C::UserWarning => C::Warning,
            C::DeprecationWarning => C::Warning,
            C::FutureWarning => C::Warning,
            C::RuntimeWarning => C::Warning,
            C::UnicodeTranslateError => C::UnicodeError,
            C::BlockingIOError => C::OSError,
            C::ChildProcessError => C::OSError,
            C::ConnectionError => C::OSError,
            C::BrokenPipeError => C::ConnectionError,
            C::ConnectionAbortedError => C::ConnectionError,
            C::ConnectionRefusedError => C::ConnectionError,
            C::ConnectionResetError => C::ConnectionError,
            C::InterruptedError => C::OSError,
            C::ProcessLookupError => C::OSError,
            C::BufferError => C::Exception,
            C::ReferenceError => C::Exception,
            C::PendingDeprecationWarning => C::Warning,
            C::SyntaxWarning => C::Warning,
            C::ImportWarning => C::Warning,
            C::UnicodeWarning => C::Warning,
            C::BytesWarning => C::Warning,
            C::ResourceWarning => C::Warning,
            C::EncodingWarning => C::Warning,
            C::Exception | C::KeyboardInterrupt | C::GeneratorExit | C::SystemExit => {
                C::BaseException
            }
            C::StopIteration => C::Exception,
            C::IndexError | C::KeyError => C::LookupError,
            C::AxisError | C::UnicodeError => C::ValueError,
            C::UnicodeDecodeError | C::UnicodeEncodeError => C::UnicodeError,
            C::ZeroDivisionError | C::OverflowError => C::ArithmeticError,
            C::RecursionError => C::RuntimeError,
            C::UnboundLocalError => C::NameError,
            C::IndentationError => C::SyntaxError,
            C::TabError => C::IndentationError,
            C::ModuleNotFoundError => C::ImportError,
            C::FileNotFoundError | C::PermissionError | C::IsADirectoryError => C::OSError,
            C::InvalidArgumentError
            | C::NotFoundError
            | C::ResourceExhaustedError
            | C::UnimplementedError
            | C::FailedPreconditionError
            | C::OutOfRangeError
            | C::UnknownError
            | C::InternalError => C::OpError,
            C::ValueError
            | C::TypeError
            | C::NameError
            | C::AttributeError
            | C::SyntaxError
            | C::AssertionError
            | C::EOFError
            | C::LookupError
            | C::ArithmeticError
            | C::RuntimeError
            | C::ImportError
            | C::OSError
            | C::OpError => C::Exception,
        })
    }

    /// Whether ragtag raises this class only through its subclasses.
    pub fn is_base(self) -> bool {
        matches!(
            self,
            C::BaseException
                | C::Exception
                | C::LookupError
                | C::ArithmeticError
                | C::ImportError
                | C::OpError
                | C::UnicodeError
        )
    }

    /// Whether TensorFlow defines this class (in `tf.errors`).
    pub fn is_tf(self) -> bool {
        matches!(
            self,
            C::OpError
                | C::InvalidArgumentError
                | C::NotFoundError
                | C::ResourceExhaustedError
                | C::UnimplementedError
                | C::FailedPreconditionError
                | C::OutOfRangeError
                | C::UnknownError
                | C::InternalError
        )
    }

    /// Whether an `except self:` clause catches an error of class `raised`: `raised` is
    /// this class or derives from it.
    pub fn catches(self, raised: ExceptionClass) -> bool {
        // NumPy's AxisError derives from both ValueError and IndexError.
        if raised == C::AxisError && self.catches(C::IndexError) {
            return true;
        }
        let mut class = Some(raised);
        while let Some(c) = class {
            if c == self {
                return true;
            }
            class = c.parent();
        }
        false
    }

    /// Looks a class up by its name, with or without a module path (`tf.errors.OpError`).
    pub fn from_name(name: &str) -> Option<ExceptionClass> {
        let short = name.rsplit('.').next().unwrap_or(name);
        C::ALL.into_iter().find(|c| c.name() == short)
    }
}

impl fmt::Display for ExceptionClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An exception as a value: what `ValueError("x")` makes and `except … as e` binds.
#[derive(Debug, Clone, PartialEq)]
pub struct Exception {
    /// The exception's class.
    pub class: ExceptionClass,
    /// Its message: what `str(e)` gives.
    pub message: String,
    /// How to fix it, carried along when the exception is raised again.
    pub hint: Option<String>,
    /// What failed, as data, when the engine raised it as one of its typed errors.
    pub kind: Option<std::sync::Arc<crate::error::EngineError>>,
}

impl Exception {
    /// An exception of `class` with `message`.
    pub fn new(class: impl Into<ExceptionClass>, message: impl Into<String>) -> Self {
        Exception {
            class: class.into(),
            message: message.into(),
            hint: None,
            kind: None,
        }
    }
    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for Exception {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.class, self.message)
    }
}

impl std::error::Error for Exception {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hierarchy_is_python_s() {
        assert!(C::LookupError.catches(C::KeyError));
        assert!(C::LookupError.catches(C::IndexError));
        assert!(!C::LookupError.catches(C::ValueError));
        assert!(C::Exception.catches(C::InvalidArgumentError));
        assert!(!C::Exception.catches(C::KeyboardInterrupt));
        assert!(C::BaseException.catches(C::KeyboardInterrupt));
        assert!(C::OpError.catches(C::ResourceExhaustedError));
        assert!(!C::OpError.catches(C::ValueError));
        assert!(C::RuntimeError.catches(C::RecursionError));
        assert!(C::ValueError.catches(C::AxisError));
        assert!(C::IndexError.catches(C::AxisError));
        assert!(C::LookupError.catches(C::AxisError));
        assert!(!C::KeyError.catches(C::AxisError));
        // Every class reaches BaseException.
        for c in C::ALL {
            assert!(C::BaseException.catches(c), "{c}");
        }
    }

    #[test]
    fn every_class_comes_after_its_parent() {
        // The catalogue draws ALL as a tree: each class below its parent, deeper by one step.
        for (i, c) in C::ALL.iter().enumerate() {
            if let Some(p) = c.parent() {
                let at = C::ALL.iter().position(|x| *x == p).unwrap();
                assert!(at < i, "{c} before its parent {p}");
                let between = &C::ALL[at + 1..i];
                assert!(
                    between.iter().all(|x| p.catches(*x)),
                    "{c} is cut off from {p}"
                );
            }
        }
    }

    #[test]
    fn names_round_trip_with_or_without_a_module() {
        for c in C::ALL {
            assert_eq!(ExceptionClass::from_name(c.name()), Some(c));
            assert!(!c.summary().is_empty());
        }
        assert_eq!(
            ExceptionClass::from_name("tf.errors.OpError"),
            Some(C::OpError)
        );
        assert_eq!(ExceptionClass::from_name("Nope"), None);
    }
}
