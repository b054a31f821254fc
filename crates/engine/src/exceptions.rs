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
}

use ExceptionClass as C;

impl ExceptionClass {
    /// Every class, each base class followed by the classes under it (the catalogue's
    /// order: a tree read top to bottom).
    pub const ALL: [ExceptionClass; 43] = [
        C::BaseException,
        C::Exception,
        C::ValueError,
        C::AxisError,
        C::UnicodeError,
        C::UnicodeDecodeError,
        C::UnicodeEncodeError,
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
        C::RuntimeError,
        C::RecursionError,
        C::ImportError,
        C::ModuleNotFoundError,
        C::OSError,
        C::FileNotFoundError,
        C::PermissionError,
        C::IsADirectoryError,
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
        C::KeyboardInterrupt,
        C::GeneratorExit,
        C::SystemExit,
    ];

    /// The class name as Python prints it (without `tf.errors.`).
    pub fn name(self) -> &'static str {
        match self {
            C::BaseException => "BaseException",
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

    /// A short ragtag program that raises this class — for a base class, one of its
    /// subclasses (see [`ExceptionClass::is_base`]); a test runs every one.
    pub fn example(self) -> &'static str {
        match self {
            C::BaseException | C::KeyboardInterrupt => "raise KeyboardInterrupt",
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
            C::UnicodeError => "text a codec cannot encode or decode",
            C::UnicodeDecodeError => "bytes that are not text in the codec",
            C::UnicodeEncodeError => "a character the codec has no bytes for",
            C::SystemExit => "`sys.exit()`: `ragtag run` ends with its status, a session goes on",
        }
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
